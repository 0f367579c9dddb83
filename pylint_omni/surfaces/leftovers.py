"""Production imports of a surface that nothing else uses: they go with it.

A module that imports a function and never uses the name (`from .rope import repeat_rope`,
left behind when the last call went) keeps no one alive (an import is not a use, `edges`),
but deleting the function breaks that import. The fix says to delete it too (with its `__all__` entry when the
module re-exports it), and the benefit counts its line.
"""

from __future__ import annotations

import re

from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import SurfaceAnalysis
from pylint_omni.surfaces.chains import Chain


def _listed_in_all(text: str, name: str) -> bool:
    """The module re-exports `name` (`__all__ = [..., "name"]`): its entry goes with the import, or `import *` breaks."""
    return "__all__" in text and re.search(rf"""["']{re.escape(name)}["']""", text) is not None


def leftover_imports(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain) -> list[str]:
    """`path:line` of each production import of the chain's classes and functions, in a file that has no
    other reference to them and is not the chain's own module."""
    graph, table = graph_of(index), analysis.table
    units = [d for d in [*chain.units, *chain.overrides] if table.surfaces[d].kind in ("class", "function", "module")]
    own = {table.surfaces[d].path for d in units}
    found: list[str] = []
    for dotted in units:
        by_file: dict[str, list[str]] = {}
        for ref in graph.refs_to(dotted):
            by_file.setdefault(ref.path, []).append(ref.via)
        for ref in graph.refs_to(dotted):
            if (ref.via == "import" and ref.path not in own and set(by_file[ref.path]) == {"import"}
                    and index.location(ref.path) is Location.PRODUCTION):
                exported = _listed_in_all(index.text(ref.path) or "", table.surfaces[dotted].name)
                found.append(f"{ref.path}:{ref.line}" + (" (and its `__all__` entry)" if exported else ""))
    return sorted(set(found))
