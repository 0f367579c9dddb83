"""Dead chains: one finding per chain of unreached surfaces, at its root, naming the rest.

Among the surfaces of one status (dead, or reached only by validation code):
- a surface inside another of the same status goes with it (a class's methods, a
  module's classes): the outermost one is the *unit*;
- methods of one name on one class lineage are one unit (an `@abstractmethod`
  declaration and its overrides are judged together), shown at the topmost class;
- units use each other (resolved references, members on the lineage, a name only
  one surface bears); the strongly connected parts of that graph are found, and
  each part nothing else of the status uses is a chain *root* (a dead cycle is
  shown at its largest member). A unit used only from one chain belongs to it; a
  unit that several chains use is its own finding, naming them (it goes only
  when they all do).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pylint_omni.surfaces.edges import Edges
from pylint_omni.surfaces.reach import Reachability
from pylint_omni.surfaces.table import SurfaceTable


@dataclass
class Chain:
    """One finding: the unit it is shown at, the other units that go with it, and their lines."""

    root: str
    units: list[str]  # every unit of the chain, the root's first
    overrides: list[str] = field(default_factory=list)  # other methods of the root's unit (overrides)
    used_by: list[str] = field(default_factory=list)  # for a shared unit: the chain roots that use it
    lines: int = 0
    cycle: bool = False

    @property
    def members(self) -> list[str]:
        return self.units[1:]


class _Units:
    """Union of surfaces into units (containment and override families)."""

    def __init__(self, table: SurfaceTable, status: set[str], reach: Reachability) -> None:
        self.table = table
        self.parent: dict[str, str] = {}
        self.unit_of: dict[str, str] = {}
        for dotted in status:
            top = dotted
            container = table.surfaces[top].container
            while container is not None and container in status:
                top = container
                container = table.surfaces[top].container
            self.unit_of[dotted] = top
        methods: dict[str, list[str]] = {}
        for unit in set(self.unit_of.values()):
            if table.surfaces[unit].kind == "method":
                methods.setdefault(table.surfaces[unit].name, []).append(unit)
        for group in methods.values():
            for first in group:
                related = reach.lineage(table.surfaces[first].container or "")
                for other in group:
                    if other != first and table.surfaces[other].container in related:
                        self.union(first, other)

    def find(self, dotted: str) -> str:
        while self.parent.get(dotted, dotted) != dotted:
            dotted = self.parent[dotted]
        return dotted

    def union(self, a: str, b: str) -> None:
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[max(a, b)] = min(a, b)

    def of(self, dotted: str) -> str | None:
        unit = self.unit_of.get(dotted)
        return self.find(unit) if unit is not None else None


def _strong_components(nodes: list[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components come out in reverse topological order."""
    index_of: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index_of:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index_of[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index_of:
                    index_of[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index_of[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index_of[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                found.append(component)
    return found


def _unit_edges(table: SurfaceTable, edges: Edges, units: _Units, reach: Reachability) -> dict[str, set[str]]:
    members_of: dict[str, list[str]] = {}
    for dotted in units.unit_of:
        members_of.setdefault(units.of(dotted) or dotted, []).append(dotted)
    found: dict[str, set[str]] = {}
    for unit, members in members_of.items():
        targets: set[str] = set()
        for dotted in members:
            out = edges.out.get(dotted)
            if out is None:
                continue
            targets.update(t for t in (units.of(n) for n in out.nodes) if t)
            for class_dotted, name in out.members:
                related = reach.lineage(class_dotted)
                targets.update(t for m in table.methods_by_name.get(name, ()) if table.surfaces[m].container in related
                               for t in [units.of(m)] if t)
            for name in out.names | out.bare:
                # A bare name is never a method: ChatLearn's local `offset` is no use of `ShardedTensorInfo.offset`.
                named = [*table.by_name.get(name, ()), *(table.methods_by_name.get(name, ()) if name in out.names else ())]
                if len(named) == 1 and (target := units.of(named[0])):
                    targets.add(target)
        targets.discard(unit)
        found[unit] = targets
    return found


def _lines(table: SurfaceTable, units: _Units, unit_ids: list[str]) -> int:
    wanted = set(unit_ids)
    return sum(table.surfaces[d].lines for d, u in units.unit_of.items() if u == d and units.find(d) in wanted)


def find_chains(table: SurfaceTable, edges: Edges, reach: Reachability, status: set[str]) -> list[Chain]:
    """The findings for the surfaces of one status (see the module docstring)."""
    units = _Units(table, status, reach)
    graph = _unit_edges(table, edges, units, reach)
    incoming: dict[str, set[str]] = {}
    for source, targets in graph.items():
        for target in targets:
            incoming.setdefault(target, set()).add(source)
    components = _strong_components(sorted(graph), graph)
    component_of = {unit: i for i, component in enumerate(components) for unit in component}
    owner: dict[int, int] = {}  # component -> the root component whose chain it joins
    chains: dict[int, Chain] = {}
    for position in reversed(range(len(components))):  # topological order: users first
        component = components[position]
        sources = {component_of[s] for u in component for s in incoming.get(u, ()) if component_of[s] != position}
        roots = {owner[s] for s in sources if s in owner}
        if len(roots) == 1:
            root = roots.pop()
            owner[position] = root
            chains[root].units.extend(sorted(component))
            continue
        owner[position] = position
        ordered = sorted(component, key=lambda u: (-table.surfaces[u].lines, u))
        chain = Chain(ordered[0], ordered, cycle=len(component) > 1)
        if sources:
            chain.used_by = sorted({chains[owner[s]].root for s in sources if s in owner})
        chains[position] = chain
    for chain in chains.values():
        chain.lines = _lines(table, units, chain.units)
        chain.overrides = sorted(d for d, u in units.unit_of.items() if u == d and d != chain.root
                                 and units.find(d) == units.find(chain.root))
        chain.root = _shown_at(table, reach, [chain.root, *chain.overrides])
        if chain.root in chain.overrides:
            chain.overrides = sorted(d for d in [chain.units[0], *chain.overrides] if d != chain.root)
    return sorted(chains.values(), key=lambda c: c.root)


def _shown_at(table: SurfaceTable, reach: Reachability, methods: list[str]) -> str:
    """The topmost declaration of an override family: the method of the class with the fewest ancestors."""
    if len(methods) == 1:
        return methods[0]

    def depth(method: str) -> tuple[int, str, int]:
        surface = table.surfaces[method]
        owner = surface.container or ""
        return (len(reach.graph.ancestors(owner)) if owner in reach.graph.nodes else 0, surface.path, surface.line)

    return min(methods, key=depth)
