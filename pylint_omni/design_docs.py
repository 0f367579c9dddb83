"""Where documentation names a symbol, and whether it names it as an extension point.

Small and self-contained on purpose (a shared design-contract module may replace
it): it reads only what the index already holds, the words of each document with
their lines (`via == "doc"`) and the document paths.
- A design page is a document under `docs/design/`; it is active unless it sits
  under an `archive/` folder or its front matter says `status: archived` (or
  deprecated, superseded, obsolete).
- A mention names an extension point when extension wording (extension, plugin,
  pluggable, boundary, out-of-tree, subclass, ...) appears within two lines of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylint_omni.index import ProjectIndex

DESIGN_FOLDER = "docs/design/"
INACTIVE_STATUSES = ("archived", "deprecated", "superseded", "obsolete", "historical")
FRONT_MATTER_LINES = 40
NEARBY_LINES = 2
EXTENSION_WORDS = (
    "extension", "extensions", "extensible", "extend", "extending", "plugin", "plugins", "plug-in",
    "pluggable", "boundary", "boundaries", "out-of-tree", "third-party", "subclass", "subclasses",
    "subclassing", "hook", "hooks", "backends",
)


@dataclass(frozen=True)
class DocMention:
    """One documentation line naming a symbol."""

    path: str
    line: int
    design: bool  # an active docs/design/ page
    extension_wording: bool

    def describe(self) -> str:
        return f"{self.path}:{self.line}"


def is_design_page(relpath: str) -> bool:
    return relpath.startswith(DESIGN_FOLDER) or f"/{DESIGN_FOLDER}" in relpath


def is_archived(index: ProjectIndex, relpath: str) -> bool:
    """Archived design pages are history, not contracts."""
    if "/archive/" in f"/{relpath}" or "/archived/" in f"/{relpath}":
        return True
    status_lines = {line for line, _ in index.occurrences(relpath, "status") if line <= FRONT_MATTER_LINES}
    inactive = {line for word in INACTIVE_STATUSES for line, _ in index.occurrences(relpath, word) if line in status_lines}
    for line in inactive:
        # `status: archived` holds two words; prose that merely mentions both holds more.
        words = sum(1 for _, occurrences in index.file_occurrences(relpath) for found, _ in occurrences if found == line)
        if words <= 2:
            return True
    return False


def _has_wording_near(index: ProjectIndex, relpath: str, line: int) -> bool:
    for word in EXTENSION_WORDS:
        for variant in (word, word.capitalize(), word.upper()):
            if any(abs(found - line) <= NEARBY_LINES for found, _ in index.occurrences(relpath, variant)):
                return True
    return False


def doc_mentions(index: ProjectIndex, name: str) -> list[DocMention]:
    """Documentation lines naming `name`, archived design pages left out."""
    found: list[DocMention] = []
    for hit in index.hits(name):
        if hit.via != "doc":
            continue
        design = is_design_page(hit.path)
        if design and is_archived(index, hit.path):
            continue
        found.append(DocMention(hit.path, hit.line, design, _has_wording_near(index, hit.path, hit.line)))
    return found
