"""Who implements an abstraction, counted the way a careful reviewer would, on the class graph.

`implementations_of` turns the project's class hierarchy (`index.class_graph`) into
what a reviewer counts: the concrete leaves, split into production and validation
(tests) ones, with null objects and still-abstract layers set apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pylint_omni.index.facts import ClassFact
from pylint_omni.index.class_graph import ClassGraph, abstract_methods
from pylint_omni.index.project_index import Definition
from pylint_omni.index.paths import Location

# A second implementation with one of these names, or whose methods all do nothing,
# is a null object: a deliberate stand-in, not a competing implementation.
NULL_OBJECT_NAME = re.compile(r"^_*(Null|Noop|NoOp|Nop|Dummy|Disabled|Empty|Passthrough|PassThrough|Identity|Trivial|No(?=[A-Z]))")

def is_abstraction(data: ClassFact) -> bool:
    return bool(abstract_methods(data) or data.get("protocol")) and not data.get("enum")



@dataclass
class Implementations:
    """What implements one abstraction inside the project."""

    production: list[Definition]
    validation: list[Definition]
    null_objects: list[Definition]
    intermediates: list[Definition]


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


def instantiated_at(graph: ClassGraph, definition: Definition) -> str | None:
    """Where a class is called by name: its own file, an import of it, or a project-unique name."""
    index = graph.index
    name = definition.data["name"]
    unique = sum(1 for d in index.definitions_named(name) if d.kind == "class") == 1
    for hit in index.hits(name):
        if hit.via != "call":
            continue
        if hit.path == definition.path and definition.data["line"] <= hit.line <= definition.data["end"]:
            continue
        imported = index.facts(hit.path).get("imports", {}).get(name)
        if unique or hit.path == definition.path or (imported and graph.lookup(imported) == definition.dotted):
            return f"{hit.path}:{hit.line}"
    return None


def _concrete_middle(graph: ClassGraph, name: str, base: str) -> bool:
    """A class between the base and the leaves that is an implementation in its own right."""
    data = graph.nodes[name].definition.data
    if is_abstraction(data):
        return False
    return not graph.implements_nothing(name, base) or instantiated_at(graph, graph.nodes[name].definition) is not None


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
        elif is_null_object(definition):
            nulls.append(definition)
        elif not _still_an_interface(definition.data) and not graph.implements_nothing(name, dotted):
            production.append(definition)
    return Implementations(production, validation, nulls, intermediates)


