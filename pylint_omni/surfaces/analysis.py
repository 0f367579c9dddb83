"""One analysis per index state: surfaces, edges, roots, both walks and the chains they leave.

`analysis_of(index)` is computed on the first question of a run and shared by every
module the checker visits (and by `explain`): production surfaces no walk reached
are *dead*; those only the validation walk reached are *test-only*. Each status is
grouped into chains (`chains`), looked up by the surface they are shown at.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Derived
from pylint_omni.index.graph import ReferenceGraph, graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.chains import Chain, find_chains
from pylint_omni.surfaces.conventions import Conventions
from pylint_omni.surfaces.edges import Edges, build_edges
from pylint_omni.surfaces.reach import PRODUCTION, VALIDATION, Reachability
from pylint_omni.surfaces.roots import Roots, find_roots
from pylint_omni.surfaces.table import SurfaceTable, build_table

DEAD, TEST_ONLY = "dead", "test-only"
TRIVIAL_MODULE_LINES = 20  # a dead module shorter than this with no definition is a marker or a stub, not an audit line


@dataclass
class SurfaceAnalysis:
    """Everything the surfaces family knows of one index state."""

    table: SurfaceTable
    edges: Edges
    roots: Roots
    reach: Reachability
    conventions: Conventions
    chains: dict[str, tuple[str, Chain]] = field(default_factory=dict)  # shown-at surface -> (status, chain)
    seconds: float = 0.0
    _by_path: dict[str, list[tuple[str, Chain]]] | None = None

    def chains_in(self, relpath: str) -> list[tuple[str, Chain]]:
        """The chains shown in one file, by line."""
        if self._by_path is None:
            by_path: dict[str, list[tuple[str, Chain]]] = {}
            for dotted, found in self.chains.items():
                by_path.setdefault(self.table.surfaces[dotted].path, []).append(found)
            self._by_path = {p: sorted(c, key=lambda f: self.table.surfaces[f[1].root].line) for p, c in by_path.items()}
        return self._by_path.get(relpath, [])

    def status(self, dotted: str) -> str | None:
        phase = self.reach.phase.get(dotted)
        return None if phase == PRODUCTION else TEST_ONLY if phase == VALIDATION else DEAD


def _drop_registry_patterns(table: SurfaceTable, edges: Edges, roots: Roots) -> None:
    """Qualnames built from a registry's own rows (`f"pkg.models.{folder}.{module}:{cls}"` in a loop over the
    table) reach what the registry names, which are roots already, not everything the shape could name."""
    shapes = {shape for out in edges.out.values() for shape in out.patterns}
    fed: set[tuple[str, str]] = set()
    for module, shape in shapes:
        wanted = re.compile("^" + "[^.]*".join(re.escape(part) for part in shape.replace(":", ".").split("*")) + "$")
        if any(len(targets) >= 2 and all(wanted.match(t) for t in targets) for targets in roots.registered.values()):
            fed.add((module, shape))
    if fed:
        for out in edges.out.values():
            out.patterns -= fed


def _emptied_modules(index: ProjectIndex, graph: ReferenceGraph, table: SurfaceTable, roots: Roots,
                     dead: set[str]) -> list[str]:
    """Imported modules none of whose definitions anything uses: the module goes with them.

    Not a package `__init__`, a root (a script, an entry point), nor a module whose
    import does something (registers entries, assigns over another module's names)."""
    rooted = {d for d, _ in roots.production}
    found = []
    for rel, module in table.module_of_path.items():
        surface = table.surfaces[module]
        children = table.children.get(module, [])
        if (not surface.production or rel.endswith("__init__.py") or module in rooted or module in dead
                or not any(table.surfaces[c].kind != "module" for c in children)):
            continue
        if not all(c in dead for c in children if table.surfaces[c].kind != "module"):
            continue
        if index.facts(rel).get("registries") or graph.resolutions.get(rel, {}).get("subst"):
            continue
        if _imported_value(index, graph, module, rel, [c for c in children if table.surfaces[c].kind != "module"]):
            continue
        found.append(module)
    return found


def _imported_value(index: ProjectIndex, graph: ReferenceGraph, module: str, rel: str, definitions: list[str]) -> str | None:
    """A module-level value (a constant, a table) another production file reads: the module stays for it."""
    inside = tuple(f"{d}." for d in definitions)
    for target in graph.targets_under(module):
        if target == module or target in definitions or target.startswith(inside):
            continue
        for ref in graph.refs_to(target):
            if ref.path != rel and ref.via != "store" and index.location(ref.path) is Location.PRODUCTION:
                return f"{ref.path}:{ref.line}"
    return None


def analysis_of(index: ProjectIndex) -> SurfaceAnalysis:
    """The analysis of the index's current state (memoised until the index changes)."""
    return _ANALYSIS.of(index)


def _analyse(index: ProjectIndex) -> SurfaceAnalysis:
    started = time.perf_counter()
    graph = graph_of(index)
    table = build_table(index)
    edges = build_edges(index, graph, table)
    roots = find_roots(index, graph, table, edges)
    _drop_registry_patterns(table, edges, roots)
    conventions = Conventions(index, table)
    reach = Reachability(table, edges, conventions, class_graph(index))
    reach.run(PRODUCTION, roots.production, roots.production_owners)
    reach.run(VALIDATION, roots.validation, roots.validation_owners)
    found = SurfaceAnalysis(table, edges, roots, reach, conventions)
    production = [d for d, s in table.surfaces.items() if s.production]
    dead = {d for d in production if d not in reach.phase}
    test_only = {d for d in production if reach.phase.get(d) == VALIDATION}
    dead.update(_emptied_modules(index, graph, table, roots, dead))
    # A module only tests import is judged by its definitions: each has its own evidence (one may be documented).
    test_only -= {m for m in test_only if table.surfaces[m].kind == "module"
                  and any(table.surfaces[c].kind != "module" for c in table.children.get(m, ()))}
    for status, members in ((DEAD, dead), (TEST_ONLY, test_only)):
        for chain in find_chains(table, edges, reach, members):
            root = table.surfaces[chain.root]
            if root.kind == "module" and not chain.members and not table.children.get(chain.root) and root.lines < TRIVIAL_MODULE_LINES:
                continue  # an empty package marker or a few lines of script: lint, not an audit line
            found.chains[chain.root] = (status, chain)
    for root in [r for r, (_, chain) in found.chains.items() if _marker_of_modules_judged_apart(table, chain, found.chains)]:
        del found.chains[root]  # deleting the marker alone drops its modules from the package (tpu-inference): they say it
    found.seconds = time.perf_counter() - started
    return found


def _marker_of_modules_judged_apart(table: SurfaceTable, chain: Chain, chains: dict[str, tuple[str, Chain]]) -> bool:
    """A package's `__init__.py` that defines nothing, reported alone (no member goes with it) while a module under
    it has a finding of its own: the package goes only with its modules, which say so. A package finding with
    members, or one whose modules have no finding apart, stays."""
    root = table.surfaces[chain.root]
    children = table.children.get(chain.root, ())
    return (root.kind == "module" and root.path.endswith("__init__.py") and not chain.members and bool(children)
            and all(table.surfaces[c].kind == "module" for c in children)
            and any(inner in chains for inner in table.contained(chain.root)))


_ANALYSIS: Derived[SurfaceAnalysis] = Derived("surfaces.analysis", _analyse)


def short_name(analysis: SurfaceAnalysis, dotted: str) -> str:
    """`pkg.mod.Cls.meth` -> `Cls.meth`; a module stays dotted; a shadowed definition keeps its line."""
    surface = analysis.table.surfaces[dotted]
    if surface.kind == "module":
        return dotted
    module = analysis.table.module_of_path.get(surface.path, "")
    return dotted[len(module) + 1:] if module and dotted.startswith(module + ".") else dotted


def names_of(analysis: SurfaceAnalysis, dotted: list[str], most: int = 3, home: str = "") -> str:
    """`A.x, B.y, C.z and 2 more`; a name defined outside the file `home` says its module (`helper (in pkg.util)`):
    a short name alone would send the reader looking in the wrong file."""
    def named(name: str) -> str:
        surface = analysis.table.surfaces[name]
        if not home or surface.path == home or surface.kind == "module":
            return short_name(analysis, name)
        return f"{short_name(analysis, name)} (in {analysis.table.module_of_path.get(surface.path) or surface.path})"
    shown = ", ".join(named(d) for d in dotted[:most])
    return shown + (f" and {len(dotted) - most} more" if len(dotted) > most else "")


def chain_surfaces(analysis: SurfaceAnalysis, chain: Chain) -> list[str]:
    """The chain's units, the overrides that go with them and everything they contain."""
    units = [*chain.units, *chain.overrides]
    return [*units, *(c for u in units for c in analysis.table.contained(u))]


def owner_at(analysis: SurfaceAnalysis, relpath: str, line: int) -> str | None:
    """The innermost surface of a file whose span holds `line`."""
    best: tuple[int, str] | None = None
    for first, last, dotted in analysis.table.spans.get(relpath, ()):
        if first <= line <= last and (best is None or first >= best[0]):
            best = (first, dotted)
    return best[1] if best is not None else None
