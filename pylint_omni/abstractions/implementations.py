"""Who implements an abstraction, counted the way a careful reviewer would, on the class graph.

`implementations_of` turns the project's class hierarchy (`index.class_graph`) into
what a reviewer counts: the concrete leaves, split into production and test (validation)
ones, with null objects and still-abstract layers set apart. `collapse_chain` then
reads one subclass chain (`Base -> Middle -> Leaf`) as one implementation when the
reference graph shows that only its leaf is ever created: the middles are layers.
Instantiation is a resolved call of the class (`ReferenceGraph.refs_to`, via `call`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pylint_omni.abstractions.value_uses import value_lines
from pylint_omni.index.class_graph import ClassGraph, abstract_methods
from pylint_omni.index.facts import ClassFact
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Definition, ProjectIndex

# A second implementation with one of these names, or whose methods all do nothing,
# is a null object: a deliberate stand-in, not a competing implementation.
NULL_OBJECT_NAME = re.compile(r"^_*(Null|Noop|NoOp|Nop|Dummy|Disabled|Empty|Passthrough|PassThrough|Identity|Trivial|No(?=[A-Z]))")
# Besides a call, a class is handed out to be created elsewhere through these.
HANDED_VIAS = frozenset({"str", "yaml-value", "yaml-key", "json", "toml", "resolver", "import_module", "getattr", "fstr"})


def is_abstraction(data: ClassFact) -> bool:
    return bool(abstract_methods(data) or data.get("protocol")) and not data.get("enum")


def empty_methods(data: ClassFact) -> list[str]:
    """The methods of an interface written with empty bodies (`pass`, `...`, a docstring): every method
    but `__init__` does nothing. With subclasses such a class is an abstraction in practice."""
    methods = [m for m in data.get("methods", []) if m != "__init__"]
    if not methods or data.get("defaulted") and set(data["defaulted"]) - {"__init__"} or abstract_methods(data):
        return []
    return methods if not data.get("enum") and not data.get("protocol") else []


@dataclass
class Implementations:
    """What implements one abstraction inside the project."""

    production: list[Definition]
    validation: list[Definition]
    null_objects: list[Definition]
    intermediates: list[Definition]
    collapsed: bool = False  # a chain read as one implementation (only its leaf is created)


def is_null_object(definition: Definition) -> bool:
    """A do-nothing stand-in: named so (`_Null…`, `Noop…`), or every method has an empty body."""
    data = definition.data
    if NULL_OBJECT_NAME.match(data["name"]):
        return True
    methods = [m for m in data.get("methods", []) if m != "__init__"]
    return bool(methods) and not data.get("defaulted") and not data.get("notimpl")


def _still_an_interface(data: ClassFact) -> bool:
    """A leaf that is itself a Protocol or keeps `@abstractmethod`s implements nothing yet."""
    return bool(data.get("protocol") or data.get("abstract") or data["name"].endswith("Protocol"))


def _first_production_ref(index: ProjectIndex, definition: Definition, via: str, skipped: list[Definition]) -> str | None:
    """`path:line` of the first production reference to the class by `via` outside the bodies of `skipped`."""
    spans = [(d.path, d.data["line"], d.data["end"]) for d in skipped]
    for ref in graph_of(index).refs_to(definition.dotted):
        if ref.via != via or index.location(ref.path) is Location.VALIDATION:
            continue
        if any(ref.path == path and first <= ref.line <= last for path, first, last in spans):
            continue
        return f"{ref.path}:{ref.line}"
    return None


def instantiated_at(index: ProjectIndex, definition: Definition) -> str | None:
    """A production place that calls the class (resolved through imports and re-exports), outside its body."""
    return _first_production_ref(index, definition, "call", [definition])


def annotated_at(index: ProjectIndex, definition: Definition, graph: ClassGraph) -> str | None:
    """A production annotation naming the class outside its own body and its subclasses' (a field, a parameter)."""
    subclasses = [graph.nodes[c].definition for c in graph.descendants(definition.dotted)]
    return _first_production_ref(index, definition, "annot", [definition, *subclasses])


def handed_out_at(index: ProjectIndex, definition: Definition) -> str | None:
    """A production place that uses the class as a value (returned, passed, stored), not as a type."""
    name = definition.data["name"]
    for ref in graph_of(index).refs_to(definition.dotted):
        if ref.via != "load" or index.location(ref.path) is Location.VALIDATION:
            continue
        if ref.line in value_lines(index, ref.path, name):
            return f"{ref.path}:{ref.line}"
    return None


def _handed_out(index: ProjectIndex, definition: Definition) -> bool:
    """Created elsewhere: called, named by a string, or passed as a value (a `*_cls` slot, a registry)."""
    for ref in graph_of(index).refs_to(definition.dotted):
        if index.location(ref.path) is Location.VALIDATION:
            continue
        if ref.via in HANDED_VIAS or ref.via.startswith("entry-point:"):
            return True
    return instantiated_at(index, definition) is not None


def _concrete_middle(graph: ClassGraph, name: str, base: str) -> bool:
    """A class between the base and the leaves that is an implementation in its own right."""
    definition = graph.nodes[name].definition
    if is_abstraction(definition.data):
        return False
    return not graph.implements_nothing(name, base) or instantiated_at(graph.index, definition) is not None


def implementations_of(graph: ClassGraph, dotted: str) -> Implementations:
    """Concrete implementations of a class: leaves of its subclass tree, concrete middles, Protocol matches."""
    index = graph.index
    names = graph.descendants(dotted)
    if graph.nodes[dotted].definition.data.get("protocol"):
        names += [m for m in graph.structural_matches(dotted) if m not in names]
    members = set(names)
    leaves = [n for n in names if not any(c in members for c in graph.children.get(n, []))]
    leaves += [n for n in names if n not in leaves and _concrete_middle(graph, n, dotted)]
    intermediates = [graph.nodes[n].definition for n in names if n not in leaves]
    production: list[Definition] = []
    validation: list[Definition] = []
    nulls: list[Definition] = []
    for name in leaves:
        definition = graph.nodes[name].definition
        if index.location(definition.path) is Location.VALIDATION:
            validation.append(definition)
        elif is_null_object(definition) and any(c in members for c in graph.children.get(name, [])):
            intermediates.append(definition)  # an empty middle layer, not a stand-in
        elif is_null_object(definition):
            nulls.append(definition)
        elif not _still_an_interface(definition.data) and (
                not graph.implements_nothing(name, dotted) or instantiated_at(index, definition) is not None):
            production.append(definition)  # a created leaf implements the base, if only through attributes
    return Implementations(production, validation, nulls, intermediates)


def collapse_chain(graph: ClassGraph, found: Implementations) -> Implementations:
    """One subclass chain whose only created class is its leaf is one implementation (the leaf).

    The production implementations must form a single line of inheritance
    (`Middle -> Leaf`), the leaf must be created somewhere the graph resolves, and no
    middle may be created, named by a string or handed out: then the middles only
    share code with the leaf, and folding the chain deletes every layer.
    """
    if len(found.production) < 2 or found.null_objects:
        return found
    ordered = sorted(found.production, key=lambda d: len(graph.ancestors(d.dotted)))
    for upper, lower in zip(ordered, ordered[1:]):
        if upper.dotted not in graph.ancestors(lower.dotted):
            return found
    leaf, middles = ordered[-1], ordered[:-1]
    index = graph.index
    if instantiated_at(index, leaf) is None or any(_handed_out(index, m) for m in middles):
        return found
    return replace(found, production=[leaf], intermediates=[*found.intermediates, *middles], collapsed=True)
