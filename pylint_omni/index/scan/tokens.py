"""The reference sink shared by every scanner, and how a string is split into tokens.

A token is what a query asks for: a symbol name (`FooModel`), a key (`qwen-image`), a
dotted path (`pkg.mod.FooModel`, `pkg.mod:FooModel`). Each occurrence keeps its line
and `via`, the way it was seen, which the evidence pass turns into a consumer kind.
`numbered` gives the matches of a pattern with their lines (comments, prose),
`COMMENT_OR_STRING` finds a Python text's comments and string literals as `tokenize` does,
and `declared_globals` the names a function's `global` statements declare.
"""

from __future__ import annotations

import re
import sys
from typing import Iterable, Iterator

MAX_HITS_PER_TOKEN = 40
MAX_TOKEN_LENGTH = 200
DOTTED_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_][\w.]*)?$|^[A-Za-z_]\w*:[A-Za-z_][\w.]*$")
KEY_LIKE = re.compile(r"^[\w.\-:/+@]+$")
# A dotted path of at least three parts inside longer text: a command line held in a string
# ("--custom-generate-function-path pkg.rollout.streaming.generate ..."), a message naming a function.
EMBEDDED_PATH = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}(?::[A-Za-z_]\w*)?")
MAX_EMBEDDING_TEXT = 20_000  # characters of a string searched for dotted paths (a longer one is data)
# A comment (group 1), or a string literal with its prefix and quotes (group 2), wherever either starts
# first: the COMMENT and STRING tokens `tokenize` gives (the same on 18,700 files: the five real projects,
# two upstream packages, the standard library), many times faster than the pure-Python tokenizer.
_TRIPLE_DOUBLE = r'"""(?:\\.|[^\\])*?"""'
_TRIPLE_SINGLE = r"'''(?:\\.|[^\\])*?'''"
_DOUBLE = r'"(?:\\.|[^"\\\r\n])*"'
_SINGLE = r"'(?:\\.|[^'\\\r\n])*'"
COMMENT_OR_STRING = re.compile(
    rf"(#[^\r\n]*)|((?:[rRbBuUfF]{{1,2}})?(?:{_TRIPLE_DOUBLE}|{_TRIPLE_SINGLE}|{_DOUBLE}|{_SINGLE}))", re.DOTALL)


def numbered(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, re.Match[str]]]:
    """Each match of `pattern` in `text` with the line it starts on (lines counted once, as the matches go)."""
    line, counted = 1, 0
    for match in pattern.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        yield line, match


def encode_hits(hits: list[list]) -> str:
    """`[[12, "name"], [15, "attr"]]` -> `"12,name|15,attr"`.

    Stored this way, a file's facts load about ten times faster from the JSON cache
    (one string per token instead of two objects per mention); decoded on demand.
    """
    return "|".join(f"{line},{via}" for line, via in hits)


def decode_hits(encoded: str) -> list[tuple[int, str]]:
    out = []
    for item in encoded.split("|"):
        line, _, via = item.partition(",")
        out.append((int(line), sys.intern(via)))  # a few tags, each held by thousands of hits
    return out


class RefSink:
    """token -> [[line, via], ...], capped per token so that huge files stay cheap."""

    __slots__ = ("data",)

    def __init__(self) -> None:
        self.data: dict[str, list[list]] = {}

    def add(self, token: str, line: int, via: str) -> None:
        if not token or len(token) > MAX_TOKEN_LENGTH:
            return
        hits = self.data.get(token)
        if hits is None:
            self.data[token] = [[line, via]]
        elif len(hits) < MAX_HITS_PER_TOKEN:
            last = hits[-1]
            if last[0] != line or last[1] != via:
                hits.append([line, via])

    def encoded(self) -> dict[str, str]:
        return {token: encode_hits(hits) for token, hits in self.data.items()}


def embedded_paths(text: str) -> list[str]:
    """The dotted paths of three or more parts inside a string of several words (none in a one-word string,
    which `record_string` reads whole)."""
    if len(text) > MAX_EMBEDDING_TEXT or not any(c.isspace() for c in text.strip()):
        return []
    return EMBEDDED_PATH.findall(text)


def record_embedded_paths(sink: RefSink, text: str, line: int, via: str) -> None:
    """Record the dotted paths inside a string of several words (`embedded_paths`) as `record_string` records a
    whole one, but never by their last name alone (`"torch.npu.device_count() returned 0"` is no use of any
    project's `device_count`)."""
    for path in embedded_paths(text):
        _record_path(sink, path, line, via, last_name=False)


def _record_path(sink: RefSink, path: str, line: int, via: str, last_name: bool) -> None:
    """A dotted path (`pkg.mod.Name`, `pkg.mod:Name`): whole, its module, and (`last_name`) its last name."""
    module, _, attr = path.partition(":")
    sink.add(path, line, via)
    if attr:
        sink.add(module, line, via)
        sink.add(f"{module}.{attr}", line, via)
    else:
        module, _, attr = path.rpartition(".")
        sink.add(module, line, via)
    if last_name:
        sink.add(attr.rpartition(".")[2], line, via)


def record_string(sink: RefSink, text: str, line: int, via: str) -> None:
    """Record a string that may name code: whole, and split when it is a dotted path."""
    text = text.strip()
    if not text or len(text) > MAX_TOKEN_LENGTH:
        return
    if DOTTED_PATH.match(text):
        _record_path(sink, text, line, via, last_name=True)
        return
    if KEY_LIKE.match(text):
        sink.add(text, line, via)


def files_by_key(files: Iterable[tuple[str, Iterable[str]]]) -> dict[str, list[str]]:
    """key -> the files that hold it, from each file's keys (one pass; the inverted table of a search index)."""
    found: dict[str, list[str]] = {}
    for rel, keys in files:
        for key in keys:
            bucket = found.get(key)
            if bucket is None:
                found[key] = [rel]
            else:
                bucket.append(rel)
    return found


GLOBAL_STATEMENT = re.compile(r"^\s*global\s+([\w\s,]+?)\s*(?:#.*)?$")


def declared_globals(lines: Iterable[str]) -> list[str]:
    """The names the `global` statements among `lines` declare (a function's body: what it rebinds at module level)."""
    return sorted({name for line in lines if (found := GLOBAL_STATEMENT.match(line))
                   for name in re.split(r"\s*,\s*", found.group(1))})
