"""The comments of a module, read without Python's tokenizer.

Two checkers read comments (a copy explained on its line, an alias documented as
kept for compatibility). pylint tokenizes every module it lints, but a split run's
helper (`evidence.split_run`) visits modules pylint's main process has not reached:
tokenizing them again there was a third of the helper's time (`tokenize` is pure
Python up to 3.11). The regular expression that finds prose does it here
(`index.scan.tokens.COMMENT_OR_STRING`): it skips every string literal and takes
every `#` outside one to the end of its line, the tokenizer's answer for any
source that parses; every process (main, helper, `-j N` worker) reads comments
this one way, so their findings agree.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from astroid import nodes

from pylint_omni.index.scan.tokens import COMMENT_OR_STRING, numbered


@dataclass(frozen=True)
class Comment:
    """One comment: its line, its text from the `#`, and whether code precedes it on that line."""

    line: int
    text: str
    own_line: bool


def comments_in(source: str) -> list[Comment]:
    """Every comment of Python source, in order."""
    if "#" not in source:
        return []
    found: list[Comment] = []
    for line, match in numbered(COMMENT_OR_STRING, source):
        if match.group(1) is not None:
            start = match.start()
            found.append(Comment(line, match.group(1), source[source.rfind("\n", 0, start) + 1:start].strip() == ""))
    return found


@dataclass(frozen=True)
class ModuleComments:
    """A module's comments by line, and the lines where a comment stands alone (no code before it)."""

    by_line: dict[int, str]
    own_lines: frozenset[int]


@functools.lru_cache(maxsize=1)  # the module last asked about: every checker that reads comments asks in turn
def module_comments(module: nodes.Module) -> ModuleComments:
    """The comments of a module's text (an editor buffer's under `--from-stdin`); none when it cannot be read."""
    try:
        with module.stream() as stream:
            data = stream.read()
    except (OSError, AttributeError):  # no file and no buffer (a module built from a string)
        return ModuleComments({}, frozenset())
    text = data if isinstance(data, str) else data.decode(module.file_encoding or "utf-8", errors="replace")
    comments = comments_in(text)
    return ModuleComments({c.line: c.text for c in comments}, frozenset(c.line for c in comments if c.own_line))
