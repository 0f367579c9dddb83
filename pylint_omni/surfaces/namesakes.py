"""Mentions of a surface's name in docs that are another package's class or function of that name.

A docs page writing `diffusers.models.embeddings.PatchEmbed`, a page whose code block imports
`PatchEmbed` from another package, or a bare `PatchEmbed` in a project whose production code
imports `PatchEmbed` from another package (the name the project's own code means by it): none
is a consumer of the project's `PatchEmbed`. (Python files need no such rule: a name bound by an
import from outside the project resolves there, `edges`.)
"""

from __future__ import annotations

import re

from pylint_omni.index.derived import Derived, Table
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.lines import file_line, file_lines

_PAGE_IMPORTS: Table[str, frozenset[str]] = Table("surfaces.page_imports")


def _foreign(index: ProjectIndex) -> tuple[frozenset[str], frozenset[str]]:
    """(top-level packages imported from outside the project, names production binds by such imports)."""
    tops = graph_of(index).tops
    packages: set[str] = set()
    names: set[str] = set()
    for rel, facts in index.python_files():
        for local, target in facts.get("imports", {}).items():
            top = target.partition(".")[0]
            if top and top not in tops:
                packages.add(top)
                if index.location(rel) is Location.PRODUCTION and target.rpartition(".")[2] == local:
                    names.add(local)
    return frozenset(packages), frozenset(names)


_FOREIGN: Derived[tuple[frozenset[str], frozenset[str]]] = Derived("surfaces.foreign_names", _foreign)


def namesake_in_docs(index: ProjectIndex, path: str, line: int, name: str, owners: frozenset[str] = frozenset()) -> bool:
    """The docs mention of `name` at `path:line` is another package's `name` (see the module docstring), or, for a
    method (`owners`: the class names of its lineage), another class's method of that name: `Other.name` on the
    line and no `Owner.name` of its own lineage."""
    packages, names = _FOREIGN.of(index)
    if name in names:
        return True
    qualifiers = [m.group(1) for m in re.finditer(rf"\b([A-Za-z_][\w.]*)\.{re.escape(name)}\b", file_line(index, path, line))]
    if any(q.partition(".")[0] in packages for q in qualifiers):
        return True
    classes = [q.rpartition(".")[2] for q in qualifiers if q.rpartition(".")[2][:1].isupper()]
    if owners and classes and not set(classes) & owners:
        return True
    return name in _imported_in_page(index, path, packages)


FROM_IMPORT = re.compile(r"^\s*from\s+([\w.]+)\s+import\s+(?:\(([^)]*)\)|([\w ,]+))", re.MULTILINE)


def _imported_in_page(index: ProjectIndex, path: str, packages: frozenset[str]) -> frozenset[str]:
    """Names a docs page's code blocks import from outside packages (memoised per page)."""
    def imported() -> frozenset[str]:
        text = "\n".join(file_lines(index, path))
        return frozenset(
            word.split(" as ")[0].strip() for m in FROM_IMPORT.finditer(text) if m.group(1).partition(".")[0] in packages
            for word in (m.group(2) or m.group(3)).split(","))

    return _PAGE_IMPORTS.of(index, path, imported)
