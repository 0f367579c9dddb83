"""Signs that a surface only tests call is a hook for a caller outside the repository.

An RL trainer calling `quant_method.restore_weights_for_rl_loading(layer)` through
`getattr`, a plugin host calling a callback: nothing in the repository calls them, yet
deleting them breaks the outside caller. Two signs in the code itself:
- its own docstring describes the caller ("must be called before ...", "called by",
  "required by", "hook", "callback", "RL", "veRL", "external", "third-party");
- prose elsewhere in its package's production code (a docstring or comment of another
  surface) names it: a documented contract (`Use restore_weights_for_rl_loading() before
  weight reload`).
Either makes the finding medium and says so; neither proves a caller.
"""

from __future__ import annotations

import re

from pylint_omni.index.derived import Built, Table
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.tokens import COMMENT_OR_STRING, numbered
from pylint_omni.surfaces.lines import file_lines
from pylint_omni.surfaces.table import Surface, SurfaceTable

CALLER_WORDS = re.compile(
    r"\b(?:called|used|invoked|required|needed) by\b(?!\s+(?:the\s+)?(?:unit\s+)?tests?\b)|\bmust be called\b"
    r"|\bhooks?\b|\bcallbacks?\b|\bexternal(?:ly)?\b|\bthird[- ]party\b|\bverl\b", re.IGNORECASE)
RL = re.compile(r"\bRL\b")
DOCSTRING = re.compile(r"^\s*[rRuU]?(\"\"\"|''')(.*?)\1", re.DOTALL | re.MULTILINE)
OUTSIDE_DOUBTS = ("its docstring describes an outside caller", "production prose names it")  # how its doubts begin
DOCSTRING_WITHIN = 12  # lines after the `def` (a long signature) where the docstring may start

_PROSE: Table[str, list[tuple[int, str]]] = Table("surfaces.prose")
_PRODUCTION_FOLDERS: Built[dict[str, list[str]]] = Built("surfaces.production_folders")


def own_docstring(index: ProjectIndex, surface: Surface) -> str:
    lines = file_lines(index, surface.path)[surface.line - 1:surface.end]
    body = "\n".join(lines[1:])
    found = DOCSTRING.search(body)
    return found.group(2) if found and body[:found.start()].count("\n") <= DOCSTRING_WITHIN else ""


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line, text) of each comment and multi-word string literal of a Python source text."""
    return [(line, token.group(0)) for line, token in numbered(COMMENT_OR_STRING, text)
            if token.group(1) is not None or " " in token.group(0)]


def _prose(index: ProjectIndex, rel: str) -> list[tuple[int, str]]:
    """`prose_lines` of one file, read once per index state."""
    return _PROSE.of(index, rel, lambda: prose_lines(index.text(rel) or ""))


def _production_by_folder(index: ProjectIndex, table: SurfaceTable) -> dict[str, list[str]]:
    def by_folder() -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for rel in sorted(table.module_of_path):
            if index.location(rel) is Location.PRODUCTION:
                found.setdefault(rel.rpartition("/")[0], []).append(rel)
        return found

    return _PRODUCTION_FOLDERS.of(index, by_folder)


def _prose_mentions(index: ProjectIndex, table: SurfaceTable, surface: Surface, spans: list[tuple[str, int, int]]) -> str | None:
    """`path:line` of a comment or docstring in the surface's package's production code naming it, outside `spans`."""
    word = re.compile(rf"\b{re.escape(surface.name)}\b")
    for rel in _production_by_folder(index, table).get(surface.path.rpartition("/")[0], []):
        text = index.text(rel) or ""
        if surface.name not in text or not word.search(text):
            continue  # only files naming it as a word
        for line, text in _prose(index, rel):
            if word.search(text) and not any(p == rel and s <= line <= e for p, s, e in spans):
                return f"{rel}:{line}"
    return None


def outside_caller_doubt(index: ProjectIndex, table: SurfaceTable, surface: Surface, spans: list[tuple[str, int, int]]) -> str | None:
    """Why the surface may be a hook for code outside the repository (see the module docstring), or None."""
    docstring = own_docstring(index, surface)
    said = CALLER_WORDS.search(docstring) or RL.search(docstring)
    if said:
        return f'its docstring describes an outside caller ("{said.group(0)}"): a hook for code outside the repository?'
    where = _prose_mentions(index, table, surface, spans)
    if where:
        return f"production prose names it ({where}): a documented contract, maybe for callers outside the repository"
    return None
