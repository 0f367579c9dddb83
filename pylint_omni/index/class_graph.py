"""The project's class hierarchy, resolved once per index state from the index's class facts.

`ClassGraph` resolves every class's bases (through imports and package re-exports)
to project classes, third-party classes or neutral ones (`object`, `abc.ABC`,
`typing.Protocol`, builtins, the standard library), then answers:
- the transitive subclasses and ancestors of a class;
- the classes that match a Protocol structurally (they define all its methods,
  inherited ones included, without inheriting from it);
- the upstream (third-party) classes a class descends from, and the standard-library
  ones (neutral for the hierarchy, but a framework such as `logging` calls their hooks).
The graph is built once per index state and shared by every module of a run.
"""

from __future__ import annotations

import builtins
import sys
import weakref
from dataclasses import dataclass, field

from pylint_omni.index.facts import ClassFact, PythonFacts
from pylint_omni.index.project_index import Definition, ProjectIndex

NEUTRAL_MODULES = frozenset({"abc", "typing", "typing_extensions", "builtins"})
BUILTIN_TYPES = frozenset(n for n in dir(builtins) if isinstance(getattr(builtins, n), type))
MAX_REEXPORT_HOPS = 5


def abstract_methods(data: ClassFact) -> list[str]:
    """Methods a subclass is expected to provide: `@abstractmethod` or `raise NotImplementedError` only."""
    return [*data.get("abstract", []), *data.get("notimpl", [])]


@dataclass
class ClassNode:
    """One project class with its bases sorted by where they come from."""

    definition: Definition
    parents: list[str] = field(default_factory=list)  # dotted paths of project classes
    upstream: list[str] = field(default_factory=list)  # third-party bases
    unresolved: list[str] = field(default_factory=list)  # project names the index cannot place
    stdlib: list[str] = field(default_factory=list)  # standard-library bases (neutral, but their hooks get called)
    metaclass: str | None = None  # a project metaclass: attributes read or set on the class object are its own



class ClassGraph:
    """Project classes and their inheritance, resolved once per index state."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self.nodes: dict[str, ClassNode] = {}
        self.children: dict[str, list[str]] = {}
        self._packages: set[str] = set()
        self._full_methods: dict[str, frozenset[str]] = {}
        by_path: dict[tuple[str, int], str] = {}
        for rel, facts in index.python_files():
            module = index.entries[rel].get("module", "")
            if module:
                self._packages.add(module.split(".")[0])
            for data in facts.get("classes", []):
                definition = Definition(rel, module, "class", data)
                self.nodes.setdefault(definition.dotted, ClassNode(definition))
                by_path[(rel, data["line"])] = definition.dotted
        self.by_position = by_path
        for dotted, node in self.nodes.items():
            self._place_bases(dotted, node)

    # -- base resolution ---------------------------------------------------------------
    def _place_bases(self, dotted: str, node: ClassNode) -> None:
        facts = self.index.facts(node.definition.path)
        data = node.definition.data
        names: list[str] = []
        for resolved, written in zip(data.get("bases", []), data.get("bases_written", [])):
            name = resolved
            if "[" in written:  # Generic[T], Base[T]: the scanner left the text unresolved
                name = self._through_imports(facts, written.partition("[")[0])
            names += self._through_aliases(facts, name)
        for name in names:
            kind, target = self._classify(node.definition, name)
            if kind == "project":
                if target != dotted:
                    node.parents.append(target)
                    self.children.setdefault(target, []).append(dotted)
            elif kind == "upstream":
                node.upstream.append(target)
            elif kind == "unresolved":
                node.unresolved.append(target)
            elif "." in target and target.partition(".")[0] in sys.stdlib_module_names:
                node.stdlib.append(target)
        for written in data.get("bases_written", []):
            if written.startswith("metaclass="):
                kind, target = self._classify(node.definition, self._through_imports(facts, written.partition("=")[2]))
                node.metaclass = target if kind == "project" else None

    @staticmethod
    def _through_aliases(facts: PythonFacts, name: str) -> list[str]:
        """A base written as a module-level alias (`Base = Qwen2VLForConditionalGeneration if ok else nn.Module`):
        what it names, each arm of a conditional one; the name itself otherwise."""
        links = facts.get("links") or {}
        binding = links.get("bindings", {}).get(name) if "." not in name else None
        if not binding or binding[0] != "alias":
            return [name]
        return [binding[1], *links.get("alternatives", {}).get(name, ())]

    @staticmethod
    def _through_imports(facts: PythonFacts, name: str) -> str:
        head, _, rest = name.partition(".")
        imported = facts.get("imports", {}).get(head)
        return imported + ("." + rest if rest else "") if imported else name

    def _classify(self, owner: Definition, name: str) -> tuple[str, str]:
        """('project'|'upstream'|'neutral'|'unresolved', dotted) for one written base."""
        if "." not in name:
            if name in BUILTIN_TYPES or name in ("Protocol", "Generic", "ABC", "object"):
                return "neutral", name
            scope = owner.data["qual"].rpartition(".")[0]
            for candidate in filter(None, (f"{owner.module}.{scope}.{name}" if scope else "", f"{owner.module}.{name}")):
                if candidate in self.nodes:
                    return "project", candidate
            return "unresolved", name
        found = self.lookup(name)
        if found:
            return "project", found
        top = name.split(".")[0]
        if top in NEUTRAL_MODULES or top in sys.stdlib_module_names:
            return "neutral", name
        if top in self._packages:
            return "unresolved", name
        return "upstream", name

    def lookup(self, dotted: str) -> str | None:
        """A project class by dotted path, following package re-exports (`from .x import Y`, and `from .x import *`:
        llm-compressor's pruning modifiers extend `LayerParamMasking` through a package that star-imports it)."""
        paths = [dotted]
        for _ in range(MAX_REEXPORT_HOPS):
            following: list[str] = []
            for current in paths:
                if current in self.nodes:
                    return current
                module, _, name = current.rpartition(".")
                path = self.index.module_file(module)
                if path is None:
                    continue
                facts = self.index.facts(path)
                imported = facts.get("imports", {}).get(name)
                if imported and imported != current:
                    following.append(imported)
                elif not imported:
                    following += [f"{star}.{name}" for star in (facts.get("links") or {}).get("bindings", {}).get("*", ())]
            paths = following
        return None

    # -- queries -----------------------------------------------------------------------
    def node_at(self, relpath: str, line: int) -> ClassNode | None:
        dotted = self.by_position.get((relpath, line))
        return self.nodes.get(dotted) if dotted else None

    def descendants(self, dotted: str) -> list[str]:
        seen: dict[str, None] = {}
        stack = list(self.children.get(dotted, []))
        while stack:
            current = stack.pop()
            if current in seen or current == dotted:
                continue
            seen[current] = None
            stack.extend(self.children.get(current, []))
        return list(seen)

    def ancestors(self, dotted: str) -> list[str]:
        seen: list[str] = []
        stack = list(self.nodes[dotted].parents) if dotted in self.nodes else []
        while stack:
            current = stack.pop()
            if current in seen or current == dotted or current not in self.nodes:
                continue
            seen.append(current)
            stack.extend(self.nodes[current].parents)
        return seen

    def upstream_bases(self, dotted: str) -> list[str]:
        """Third-party classes `dotted` descends from, directly or through project classes (none for a class the
        graph does not hold, as `ancestors`: a checker may ask by astroid's name of a class in a nested project
        root, `apps.sub.train.Mine` where that root's index says `train.Mine`)."""
        found: list[str] = []
        for name in (dotted, *self.ancestors(dotted)):
            found.extend(b for b in (self.nodes[name].upstream if name in self.nodes else ()) if b not in found)
        return found

    def stdlib_bases(self, dotted: str) -> list[str]:
        """Standard-library classes `dotted` descends from (`logging.Handler`), directly or through project classes
        (none for a class the graph does not hold: `upstream_bases`)."""
        found: list[str] = []
        for name in (dotted, *self.ancestors(dotted)):
            found.extend(b for b in (self.nodes[name].stdlib if name in self.nodes else ()) if b not in found)
        return found

    def unresolved_bases(self, dotted: str) -> list[str]:
        found: list[str] = []
        for name in (dotted, *self.ancestors(dotted)):
            found.extend(self.nodes[name].unresolved)
        return found

    def extends_outside(self, dotted: str) -> bool:
        """The class descends from a class outside the project, read by an index or not (a framework's)."""
        return bool(self.upstream_bases(dotted) or self.unresolved_bases(dotted))

    def full_methods(self, dotted: str) -> frozenset[str]:
        """Methods a class defines or inherits from project classes."""
        cached = self._full_methods.get(dotted)
        if cached is None:
            names: set[str] = set()
            for name in (dotted, *self.ancestors(dotted)):
                names.update(self.nodes[name].definition.data.get("methods", []))
            cached = self._full_methods[dotted] = frozenset(names)
        return cached

    def structural_matches(self, protocol: str) -> list[str]:
        """Classes that define every method of a Protocol without inheriting from it."""
        wanted = protocol_methods(self.nodes[protocol].definition.data)
        if not wanted:
            return []
        related = {protocol, *self.descendants(protocol), *self.ancestors(protocol)}
        return [
            dotted for dotted, node in self.nodes.items()
            if dotted not in related and not node.definition.data.get("protocol")
            and wanted <= self.full_methods(dotted)
        ]

    def implements_nothing(self, dotted: str, base: str) -> bool:
        """True when `dotted` provides none of the methods `base` leaves abstract (it only adds a layer)."""
        required = set(abstract_methods(self.nodes[base].definition.data))
        chain = [dotted, *[a for a in self.ancestors(dotted) if a != base and base in self.ancestors(a)]]
        provided: set[str] = set()
        for name in chain:
            data = self.nodes[name].definition.data
            provided |= set(data.get("methods", [])) - set(abstract_methods(data))
        return bool(required) and not required & provided


def protocol_methods(data: ClassFact) -> frozenset[str]:
    """The methods a structural match must define (public ones, and `__call__`)."""
    return frozenset(m for m in data.get("methods", []) if not m.startswith("_") or m == "__call__")


_GRAPHS: "weakref.WeakKeyDictionary[ProjectIndex, tuple[object, object, int, ClassGraph]]" = weakref.WeakKeyDictionary()


def class_graph(index: ProjectIndex) -> ClassGraph:
    """The graph of the index's current state (rebuilt after a refresh or an editor override).

    A refresh replaces `entries` and `stats`; the cache holds them, so identity
    comparison cannot be fooled by a reused id.
    """
    overrides = hash(tuple(sorted(index.overrides.items())))
    cached = _GRAPHS.get(index)
    if cached is None or cached[0] is not index.entries or cached[1] is not index.stats or cached[2] != overrides:
        cached = (index.entries, index.stats, overrides, ClassGraph(index))
        _GRAPHS[index] = cached
    return cached[3]
