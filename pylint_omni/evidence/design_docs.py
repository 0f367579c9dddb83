"""Where documentation names a symbol, and whether it names it as an extension point.

- Design pages and their status come from `contracts`: a page under `archive/` or
  whose front matter says archived/deprecated/superseded is history, not a contract.
- A mention names an extension point when extension wording (extension, plugin,
  pluggable, boundary, out-of-tree, subclass, ...) appears within two lines of it,
  or when an active contract lists the symbol under `extension_points`/`boundaries`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylint_omni.evidence.contracts import contracts_of, is_design_page
from pylint_omni.index.project_index import ProjectIndex

NEARBY_LINES = 2  # lines around a design page's mention where its owner must be named
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


def _has_wording_near(index: ProjectIndex, relpath: str, line: int) -> bool:
    for word in EXTENSION_WORDS:
        for variant in (word, word.capitalize(), word.upper()):
            if any(abs(found - line) <= NEARBY_LINES for found, _ in index.occurrences(relpath, variant)):
                return True
    return False


def doc_mentions(index: ProjectIndex, name: str) -> list[DocMention]:
    """Documentation lines naming `name`, archived design pages left out."""
    found: list[DocMention] = []
    history = contracts_of(index).history
    for hit in index.hits(name):
        if hit.via != "doc" or hit.path in history:
            continue
        design = is_design_page(hit.path)
        declared = design and any(
            c.path == hit.path and name in {p.rpartition(".")[2] for p in c.extension_points}
            for c in contracts_of(index).active
        )
        wording = declared or _has_wording_near(index, hit.path, hit.line)
        found.append(DocMention(hit.path, hit.line, design, wording))
    return found
