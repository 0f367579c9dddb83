"""Code copied from a third-party project: every family's findings there say so, small ones are not high.

The index records each file's provenance as its comments state it
(`index.scan.provenance`): a header saying the file is adapted, copied or ported
from somewhere, the copyright holders its header names, and comments saying the
next definition is a copy (`# Copied from transformers...`). A header naming a
copyright holder that is not the project's own (the holder most files name, and any
named by at least `OWN_SHARE` of the files) marks the file copied too.

`OmniChecker.emit` consults `copied_code` for every candidate: the finding's
evidence names the provenance (the fix may belong upstream, and editing a copy
breaks resyncing it), and a micro finding there (a no-op call, one unread field) is
medium, not high.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from pylint_omni.evidence.benefit import Benefit
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.lint_excludes import lint_excluded
from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.vocabulary import VENDORED_FOLDER

OWN_SHARE = 0.15  # a copyright holder named by this share of the project's Python files is the project itself
OWN_MIN_FILES = 10  # ... and by this many at least (besides the holder most files name)
MARKER_REACH = 4  # lines between a "Copied from" comment and the definition it marks (decorators between)
SHOWN_SOURCE = 70  # a longer source is cut after its last whole word (a path or a `code span` is never cut)
URL = re.compile(r"https?://\S+")
URL_FILE = re.compile(r"^.*?/(?:blob|tree)/[^/]+/(.+)$")  # github.com/o/r/blob/main/pkg/mod.py -> pkg/mod.py
URL_TAIL = ".,;:!?'\"`*_"  # punctuation and markup after a URL (`<https://x>`_, "see https://x.")
CLOSING = {")": "(", "]": "[", "}": "{"}  # `->` in "with Llama->Mllama" is no bracket
URL_CLOSING = {**CLOSING, ">": "<"}
WORD = re.compile(r"``[^`]*``|`[^`]*`|\S+")  # a word, or a whole code span (it may hold spaces)


@dataclass(frozen=True)
class Provenance:
    """Where the code at a line comes from, as the file says."""

    source: str  # what the comment says it is copied from (or the third-party copyright holder)
    line: int  # the comment's line
    scope: str  # "file", "definition", "copyright" (a third party's header), "vendored" (a vendored folder) or
    # "generated" (the header says a generator wrote the file)

    def describe(self) -> str:
        if self.scope == "vendored":
            return f"vendored in {self.source}"
        if self.scope == "generated":
            return "generated (its header says so)"
        return f"copied from {self.source}" if self.scope != "copyright" else f"under {self.source}'s copyright"


VAGUE = frozenset({"its", "the", "this", "that", "a", "an", "our", "their", "original", "here"})
NAMES_CODE = re.compile(r"`|/|\w\.\w")  # a path, a dotted name or a code span: the text names a source
DANGLING = frozenset({"and", "or", "with", "of", "the", "in", "from", "for", "to", "by", "a", "an", "at", "on", "see"})


def _url(url: str) -> str:
    """A URL as its page names it: what follows it in the comment (a closing bracket it does not open, a full
    stop, RST's `>`_) is not part of it, as autolinkers read it; a file's URL shortens to the file's path."""
    while url and (url[-1] in URL_TAIL or (url[-1] in URL_CLOSING and url.count(url[-1]) > url.count(URL_CLOSING[url[-1]]))):
        url = url[:-1]
    url = url.split("://", 1)[1]
    found = URL_FILE.match(url)
    return found.group(1) if found else url


def balanced(text: str) -> str:
    """`text` with every bracket and backtick paired: a closing one nothing opens is dropped, and the text ends
    before an opening one nothing closes (a cut parenthesis); an odd backtick drops the code marks."""
    kept: list[str] = []
    opened: list[int] = []  # positions in `kept` of the brackets still open
    for char in text:
        if char in CLOSING:
            if not opened or kept[opened[-1]] != CLOSING[char]:
                continue
            opened.pop()
        elif char in CLOSING.values():
            opened.append(len(kept))
        kept.append(char)
    if opened:
        kept = kept[:opened[0]] if "".join(kept[:opened[0]]).strip() else [c for c in kept if c not in CLOSING.values()]
    result = "".join(kept).strip(" ,;:")
    return result.replace("`", "") if result.count("`") % 2 else result


def _trimmed(words: list[str]) -> list[str]:
    """Never end on "with", "and", "at", ... (a cut, or a sentence the header goes on with on its next line)."""
    while len(words) > 1 and words[-1].lower() in DANGLING:
        words = words[:-1]
    return words


def shortened(text: str, limit: int = SHOWN_SOURCE) -> str:
    """`text` cut after its last whole word within `limit` characters (its first word whatever its length: a path,
    a dotted name or a code span is never cut), marked `…`."""
    words = WORD.findall(text)
    kept = words[:1]
    for word in words[1:]:
        if len(" ".join([*kept, word])) > limit:
            return balanced(" ".join(_trimmed(kept))) + " …"  # a cut inside a parenthesis ends before it
        kept.append(word)
    return " ".join(_trimmed(kept))


def _source(text: str) -> str:
    """`Adapted from https://github.com/o/r/blob/main/pkg/mod.py` -> `pkg/mod.py` (short enough for a message,
    and well formed: the message wraps it in `[in code copied from ...]`).

    A header that names no source ("modified from its original forms") says only that
    the code is a third party's.
    """
    match = URL.search(text)
    if match:
        text = _url(match.group(0))
    else:
        text = re.sub(r"^.*?\bfrom\b[:\s]*", "", text, count=1, flags=re.IGNORECASE) or text
        if not text.strip() or (text.split()[0].lower().strip(".,:") in VAGUE and not NAMES_CODE.search(text)):
            return "a third party (its header says so)"
    text = balanced(text.strip(" .:"))
    return shortened(text) if text else "a third party (its header says so)"


def own_holders(index: ProjectIndex) -> frozenset[str]:
    """Copyright holders of the project itself (computed once per index state)."""
    return _OWN_HOLDERS.of(index)


def _own_holders(index: ProjectIndex) -> frozenset[str]:
    counts: Counter[str] = Counter()
    files = 0
    for relpath, facts in index.python_files():
        if index.location(relpath) is Location.VALIDATION:
            continue
        files += 1
        counts.update(set((facts.get("provenance") or {}).get("holders", [])))
    own = {holder for holder, count in counts.items() if count >= max(OWN_MIN_FILES, OWN_SHARE * files)}
    own.update(holder for holder, _ in counts.most_common(1))
    return frozenset(own)


_OWN_HOLDERS: Derived[frozenset[str]] = Derived("evidence.own_holders", _own_holders)


def _definition_marked(index: ProjectIndex, relpath: str, line: int, markers: list[list[Any]]) -> Provenance | None:
    facts = index.facts(relpath)
    definitions = [*facts.get("classes", []), *facts.get("functions", [])]
    for marker_line, text in markers:
        for definition in definitions:
            start, end = definition["line"], definition["end"]
            marks = marker_line < start <= marker_line + MARKER_REACH or start <= marker_line <= start + 2
            if marks and start <= line <= end:
                return Provenance(_source(str(text)), int(marker_line), "definition")
    return None


def copied_file(index: ProjectIndex, relpath: str) -> Provenance | None:
    """Where the file's own header (or its sync markers) says the whole file is copied from, else None: the one
    answer to "is this file copied?" (`index.scan.provenance` reads it once per file)."""
    copied = (index.facts(relpath).get("provenance") or {}).get("copied")
    if not copied:
        return None
    marker_line, text = copied
    return Provenance(_source(str(text)), int(marker_line), "file")


def copied_code(index: ProjectIndex, relpath: str, line: int) -> Provenance | None:
    """The provenance of the code at `relpath:line` when its file or definition says it is copied, or it lies in
    a vendored folder (`VENDORED_FOLDERS`: few vendored files carry a header saying so) or one the project's own
    linters skip (`evidence.lint_excludes`), or its header says a generator wrote it, else None."""
    vendored = VENDORED_FOLDER.match(relpath)
    if vendored:  # before the header: a vendored tree is resynced as a whole, whatever one file says of itself
        return Provenance(vendored.group(1) + "/", 1, "vendored")
    excluded = lint_excluded(index, relpath)
    if excluded is not None:  # the project keeps the folder out of its own linters: not its code to prune
        return Provenance(f"{excluded[0]}/ ({excluded[1].source} excludes it)", 1, "vendored")
    whole = copied_file(index, relpath)
    if whole is not None:
        return whole
    fact = index.facts(relpath).get("provenance")
    if not fact:
        return None
    if fact.get("generated"):  # rewritten whole by its generator: an edit here is lost at the next generation
        return Provenance("its generator", 1, "generated")
    third_party = [holder for holder in fact.get("holders", []) if holder not in own_holders(index)]
    if third_party:
        return Provenance(balanced(third_party[0]) or "a third party", 1, "copyright")
    return _definition_marked(index, relpath, line, fact.get("markers", []))


def with_provenance(verdict: Verdict, benefit: Benefit | None, provenance: Provenance) -> tuple[Verdict, bool]:
    """The verdict of a candidate found in copied code, and whether it was lowered to medium.

    Every candidate names the provenance among its unknowns; a micro one (`Benefit.micro`)
    that was high becomes medium, since its fix belongs upstream or breaks the resync, and so
    does any one in a vendored folder (a tree kept to be resynced whole) or in a generated file.
    """
    note = (f"inside code {provenance.describe()}: the fix belongs to the generator's input" if provenance.scope == "generated"
            else f"inside code {provenance.describe()} (line {provenance.line}): the fix may belong upstream, and editing "
                 "a copy breaks resyncing it")
    marked = replace(verdict, unknowns=[*verdict.unknowns, note])
    if verdict.status is Status.CANDIDATE and verdict.confidence == "high" and benefit is not None and benefit.micro:
        return replace(marked, confidence="medium", reason=f"a small finding in code {provenance.describe()}"), True
    if verdict.status is Status.CANDIDATE and verdict.confidence == "high" and provenance.scope == "vendored":
        return replace(marked, confidence="medium", reason=f"in code {provenance.describe()}: the change belongs upstream "
                       "or to the next resync"), True
    if verdict.status is Status.CANDIDATE and verdict.confidence == "high" and provenance.scope == "generated":
        return replace(marked, confidence="medium", reason="in generated code: change the generator's input (the schema) "
                       "and generate again; an edit here is overwritten"), True
    return marked, False
