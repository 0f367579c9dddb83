"""Reachability: which surfaces production roots reach, and which only validation code reaches.

A worklist over the edges (`edges`): a reached surface reaches what it uses, its
container (a class needs its module imported, a module its package), and:
- a module reaches what it registers when it runs: definitions whose decorator
  hands them to a framework (`decorators`), classes whose project base registers
  its subclasses (`__init_subclass__`) or whose `__subclasses__()` a reached surface
  enumerates;
- a class reaches the methods a framework calls on it (`conventions`), the methods
  whose name a reached surface mentions on an object of unknown class, and the
  methods reached members resolve to on its lineage: a call resolved to `Base.m`
  may run any override of `m` below `Base`, `Sub.m` may run the `m` `Sub`
  inherits (an `@abstractmethod` declaration lives and dies with its overrides),
  a mixin's `self.m()` may run a sibling mixin's `m` in a class combining both,
  and a call resolved to a project `Protocol`'s method may run the method of any
  class that implements the protocol structurally;
- a name mentioned by a reached surface (a string, a YAML value, `getattr(x, "n")`)
  reaches the classes and functions of that name.
Production roots come first (`roots`); then validation roots (tests, docs,
examples, benchmarks) continue the same walk. `phase` says which walk reached a
surface: 1 production, 2 validation only; unreached surfaces are dead.
"""

from __future__ import annotations

from typing import Iterable

from pylint_omni.index.class_graph import ClassGraph
from pylint_omni.surfaces.conventions import DUNDER, FRAMEWORK_INNER_CLASSES, Conventions
from pylint_omni.surfaces.edges import Edges, Outgoing, pattern_targets
from pylint_omni.surfaces.table import SurfaceTable

PRODUCTION, VALIDATION = 1, 2
LOADED_BY = "loaded by a computed import of"  # why a module a computed import may load is reached
DUNDER_NAMES = frozenset({"__init__", "__call__", "__repr__", "__eq__", "__hash__"})


class Reachability:
    """The walk, its state, and why each root or convention-reached surface is alive."""

    def __init__(self, table: SurfaceTable, edges: Edges, conventions: Conventions, graph: ClassGraph) -> None:
        self.table = table
        self.edges = edges
        self.conventions = conventions
        self.graph = graph
        self.phase: dict[str, int] = {}
        self.why: dict[str, str] = {}
        self.names: set[str] = set()
        self.bare: set[str] = set()
        self.prefixes: set[str] = set()
        self.members: dict[str, set[str]] = {}  # method name -> classes a resolved member reference named
        self.enumerated: set[str] = set()  # classes whose __subclasses__() a reached surface calls
        self.reached_from: dict[str, str] = {}  # surface -> the surface or file whose use reached it first
        self._from = ""
        self._current = PRODUCTION
        self._queue: list[str] = []
        self._done_owners: set[str] = set()
        self._lineage: dict[str, frozenset[str]] = {}
        self._instances: dict[str, list[str]] | None = None
        self._protocols_of: dict[str, list[str]] | None = None

    # -- state ---------------------------------------------------------------------------
    def live(self, dotted: str) -> bool:
        return dotted in self.phase

    def mark(self, dotted: str, why: str | None = None) -> None:
        if dotted in self.phase or dotted not in self.table.surfaces:
            return
        self.phase[dotted] = self._current
        self.reached_from[dotted] = self._from
        if why is not None:
            self.why[dotted] = why
        self._queue.append(dotted)

    def _made_by(self) -> dict[str, list[str]]:
        """Project metaclass -> the classes that name it (`class Config(metaclass=Meta)`) and their subclasses."""
        if self._instances is None:
            self._instances = {}
            for dotted, node in self.graph.nodes.items():
                if node.metaclass:
                    self._instances.setdefault(node.metaclass, []).extend([dotted, *self.graph.descendants(dotted)])
        return self._instances

    def lineage(self, class_dotted: str) -> frozenset[str]:
        """The classes whose method `self.m()` in `class_dotted` may run: its ancestors, its descendants, the
        other bases of every descendant (a mixin's `self.m()` runs the sibling mixin's `m` in a class that combines
        both: Python looks `m` up along the combined class's MRO), and its project metaclass with its bases."""
        found = self._lineage.get(class_dotted)
        if found is None:
            related = [class_dotted]
            if class_dotted in self.graph.nodes:
                descendants = self.graph.descendants(class_dotted)
                related += self.graph.ancestors(class_dotted) + descendants
                related += [base for d in descendants for base in self.graph.ancestors(d)]
                # `Config.flag = True` on a class whose metaclass defines the `flag` property runs the metaclass's
                # setter; and the other way round, a metaclass's member is reached through the classes it makes
                metaclasses = [m for c in [class_dotted, *self.graph.ancestors(class_dotted)]
                               if (m := self.graph.nodes[c].metaclass if c in self.graph.nodes else None)]
                related += [a for m in metaclasses for a in [m, *self.graph.ancestors(m)]]
                related += [c for m in [class_dotted, *descendants] for c in self._made_by().get(m, ())]
                related += self._implementing(class_dotted)
                related += self._implemented().get(class_dotted, [])
            found = self._lineage[class_dotted] = frozenset(related)
        return found

    def _implemented(self) -> dict[str, list[str]]:
        """Class -> the project Protocols it implements structurally (a member reached through the protocol before
        the class was reached is the class's too, once it is)."""
        if self._protocols_of is None:
            self._protocols_of = {}
            for protocol in self.graph.nodes:
                for implementer in self._implementing(protocol):
                    self._protocols_of.setdefault(implementer, []).append(protocol)
        return self._protocols_of

    def _implementing(self, protocol: str) -> list[str]:
        """The project classes that implement a project `typing.Protocol` structurally (they define every method it
        declares): a call through a parameter typed by the protocol runs theirs, though none subclasses it."""
        node = self.graph.nodes.get(protocol)
        written = node.definition.data.get("bases", []) if node is not None else []
        if not any(base.partition("[")[0].rpartition(".")[2] == "Protocol" for base in written):
            return []
        names = {self.table.surfaces[m].name for m in self.table.methods(protocol)} - DUNDER_NAMES
        owners = [{self.table.surfaces[m].container for m in self.table.methods_by_name.get(name, ())} for name in names]
        return sorted(c for c in set.intersection(*owners) - {protocol, None} if c) if owners else []

    # -- the walk ------------------------------------------------------------------------
    def run(self, phase: int, roots: Iterable[tuple[str, str]], owners: Iterable[str]) -> None:
        """Mark `roots` (surface, why) and walk; `owners` are non-surface owners (files) whose uses are roots."""
        self._current = phase
        for dotted, why in roots:
            self.mark(dotted, why)
        for owner in owners:
            self._from = owner
            self._use(self.edges.out.get(owner))
        while self._queue:
            self._visit(self._queue.pop())

    def _visit(self, dotted: str) -> None:
        self._from = dotted
        surface = self.table.surfaces[dotted]
        if surface.container is not None:
            self.mark(surface.container)
        self._use(self.edges.out.get(dotted))
        if surface.kind == "class":
            for method in self.table.methods(dotted):
                reason = self._method_reason(dotted, method)
                if reason is not None:
                    self.mark(method, reason or None)
        if surface.kind in ("module", "class"):
            for child in self.table.children.get(dotted, ()):
                kind = self.table.surfaces[child].kind
                if kind in ("function", "class", "shadowed") and self.conventions.decorator_kind(child) != "transparent":
                    # A decorator that hands the definition to a framework registers it as it runs, even when a
                    # later definition takes the name (`@app.post("/a") def api` then `@app.post("/b") def api`).
                    self.mark(child, "registered by its decorator when its module runs")
                elif kind == "class" and self._registered_subclass(child):
                    self.mark(child, "registered when defined (its base's __init_subclass__, or __subclasses__() enumeration)")
                elif kind == "function" and DUNDER.match(self.table.surfaces[child].name):
                    self.mark(child, "a module hook Python calls (`__getattr__`, `__dir__`)")
                elif (kind == "class" and surface.kind == "class" and self.table.surfaces[child].name in FRAMEWORK_INNER_CLASSES
                      and self.conventions.graph.extends_outside(dotted)):
                    self.mark(child, f"its framework reads the inner class {self.table.surfaces[child].name} of a class it "
                                     "handles (pydantic's `Config`, Django's and marshmallow's `Meta`)")

    def _use(self, out: Outgoing | None) -> None:
        if out is None:
            return
        for node in out.nodes:
            self.mark(node)
        for class_dotted, name in out.members:
            self._member(class_dotted, name)
        for name in out.names:
            self._name(name, attribute=True)
        for name in out.bare:
            self._name(name, attribute=False)
        for prefix in out.prefixes:
            self._prefix(prefix)
        for prefix in out.module_prefixes:
            for module in self.table.modules_under(prefix):
                self.mark(module, f"{LOADED_BY} {prefix}*")
        for module, shape in out.patterns:
            for target in pattern_targets(self.table, module, shape):
                self.mark(target, f"named by a qualname built over {module} ({shape})")

    def _registered_subclass(self, class_dotted: str) -> bool:
        """A class its project base registers as it is defined (`__init_subclass__`) or enumerates."""
        if class_dotted not in self.graph.nodes:
            return False
        for base in self.graph.ancestors(class_dotted):
            if base in self.enumerated or any(self.table.surfaces[m].name == "__init_subclass__"
                                              for m in self.table.methods(base) if m in self.table.surfaces):
                return True
        return False

    def _member(self, class_dotted: str, name: str) -> None:
        reached = self.members.setdefault(name, set())
        if class_dotted in reached:
            return
        reached.add(class_dotted)
        if name == "__subclasses__" and class_dotted in self.graph.nodes:
            self.enumerated.add(class_dotted)
            for sub in self.graph.descendants(class_dotted):
                module = self.table.surfaces[sub].container if sub in self.table.surfaces else None
                if module is not None and self.live(module):
                    self.mark(sub, f"enumerated by {class_dotted.rpartition('.')[2]}.__subclasses__()")
        related = self.lineage(class_dotted)
        for method in self.table.methods_by_name.get(name, ()):
            owner = self.table.surfaces[method].container or ""
            if owner in related and self.live(owner):
                self.mark(method)

    def _name(self, name: str, attribute: bool) -> None:
        seen = self.names if attribute else self.bare
        if name in seen:
            return
        seen.add(name)
        for dotted in self.table.by_name.get(name, ()):
            # A name is no import: production code saying `parser.parse_args()` never runs a test file's own
            # `parse_args` (TorchServe: that chain made a test mock's store "reached from production").
            if self._current == PRODUCTION and not self.table.surfaces[dotted].production:
                continue
            self.mark(dotted)
        if attribute:
            for method in self.table.methods_by_name.get(name, ()):
                if self.live(self.table.surfaces[method].container or ""):
                    self.mark(method)

    def _prefix(self, prefix: str) -> None:
        if prefix in self.prefixes:
            return
        self.prefixes.add(prefix)
        for name, methods in self.table.methods_by_name.items():
            if name.startswith(prefix):
                for method in methods:
                    if self.live(self.table.surfaces[method].container or ""):
                        self.mark(method, f"named by an attribute built at run time ({prefix}...)")

    def _method_reason(self, class_dotted: str, method: str) -> str | None:
        """Why a method of a live class runs ("" for a plain use), or None when nothing reaches it yet."""
        name = self.table.surfaces[method].name
        if name in self.names or any(name.startswith(p) for p in self.prefixes):
            return ""
        reached = self.members.get(name)
        if reached and reached & self.lineage(class_dotted):
            return ""
        return self.conventions.called_by_framework(class_dotted, name, method)
