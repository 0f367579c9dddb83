"""The project's class hierarchy, and which other classes in it claim a field.

A derivable field or a mirror copy is only one owner's business when no other class
of its hierarchy touches the field: a base class that assigns it, or reads it as a
slot its subclasses fill, and a subclass that assigns it (an override of the setup
method) would all break on a setter-less property or a deleted copy. The hierarchy
comes from the index's class facts (bases resolved through imports), the claims
from its `attr-store` / `attr` mentions inside each class's span; nothing here reads
a file. Built once per index refresh.

The lineage as astroid infers it (the class being linted and its ancestors) answers
two more questions about its fields: is it an exception (handlers read `err.X` on
the caught object), and does it route attribute access (`__getattr__`/`__setattr__`
forwarding fields to a wrapped object)?
"""

from __future__ import annotations

from dataclasses import dataclass

from astroid import nodes
from astroid.exceptions import InferenceError

from pylint_omni.index.derived import Derived
from pylint_omni.index.project_index import Definition, ProjectIndex

ClassKey = tuple[str, int]  # (relpath, line of the `class` statement)
EXCEPTION_QNAMES = frozenset({"builtins.BaseException", "builtins.Exception"})
# Hooks that intercept every read or write, wherever in the lineage they are defined;
# `__getattr__` only sees missing names, so it counts on the class itself only.
ATTRIBUTE_HOOKS = frozenset({"__getattribute__", "__setattr__"})


@dataclass(frozen=True)
class Claim:
    """Another class of the hierarchy that writes (or, for a base, reads) the field."""

    relation: str  # "base" | "subclass"
    class_name: str
    path: str
    line: int
    access: str  # "assigns" | "reads"

    def describe(self, field: str) -> str:
        slot = "" if self.access == "assigns" else " as a slot its subclasses fill"
        return f"the {self.relation} {self.class_name} {self.access} .{field}{slot} ({self.path}:{self.line})"


class ClassGraph:
    """Bases and subclasses of every project class, by (path, line)."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self.records: dict[ClassKey, dict] = {}
        self.bases: dict[ClassKey, list[ClassKey]] = {}
        self.subclasses: dict[ClassKey, list[ClassKey]] = {}
        for rel, facts in index.python_files():
            for record in facts.get("classes", []):
                self.records[(rel, record["line"])] = record
        for key, record in self.records.items():
            for base in record.get("bases", []):
                for parent in self._resolve(key[0], base):
                    if parent != key:
                        self.bases.setdefault(key, []).append(parent)
                        self.subclasses.setdefault(parent, []).append(key)

    def _resolve(self, rel: str, base: str) -> list[ClassKey]:
        """The project classes a written base names (none when it is ambiguous or external)."""
        base = base.split("[")[0]
        tail = base.rpartition(".")[2]
        found = self.index.resolve_target(base) if "." in base else None
        if found is not None and found.kind == "class":
            return [_key(found)]
        named = [d for d in self.index.definitions_named(tail) if d.kind == "class"]
        same_file = [d for d in named if d.path == rel]
        if "." not in base and same_file:
            return [_key(same_file[0])]
        head = base.rpartition(".")[0]
        if head:
            named = [d for d in named if d.module == head or d.module.startswith(head + ".")]
        return [_key(named[0])] if len(named) == 1 else []

    def _walk(self, start: ClassKey, edges: dict[ClassKey, list[ClassKey]]) -> list[ClassKey]:
        seen: list[ClassKey] = []
        queue = list(edges.get(start, []))
        while queue:
            current = queue.pop(0)
            if current in seen or current == start:
                continue
            seen.append(current)
            queue.extend(edges.get(current, []))
        return seen

    def family(self, rel: str, line: int) -> set[str]:
        """Names of the class at (rel, line), its project bases and its subclasses: one owner's classes."""
        start = (rel, line)
        if start not in self.records:
            return set()
        keys = [start, *self._walk(start, self.bases), *self._walk(start, self.subclasses)]
        return {self.records[key]["name"] for key in keys}

    def claims(self, rel: str, line: int, field: str) -> list[Claim]:
        """Other classes of the hierarchy of the class at (rel, line) that claim `field`."""
        start = (rel, line)
        if start not in self.records:
            return []
        found = []
        for relation, keys in (("base", self._walk(start, self.bases)), ("subclass", self._walk(start, self.subclasses))):
            for key in keys:
                record = self.records[key]
                inside = [(line, via) for line, via in self.index.occurrences(key[0], field) if record["line"] <= line <= record["end"]]
                writes = [line for line, via in inside if via == "attr-store"]
                reads = [line for line, via in inside if via == "attr"] if relation == "base" else []
                if writes or reads:
                    found.append(Claim(relation, record["name"], key[0], (writes or reads)[0], "assigns" if writes else "reads"))
        # A write is the stronger reason: name it first.
        return sorted(found, key=lambda c: c.access != "assigns")


def _key(definition: Definition) -> ClassKey:
    return (definition.path, definition.data["line"])


def class_graph(index: ProjectIndex) -> ClassGraph:
    """The graph of this index refresh (built on the first question)."""
    return _CLASS_GRAPH.of(index)


def hierarchy_claims(index: ProjectIndex, rel: str, line: int, field: str) -> list[Claim]:
    """Other classes of the hierarchy of the class at (rel, line) that claim `field`, writes first."""
    return class_graph(index).claims(rel, line, field)


def attribute_hook(klass: nodes.ClassDef) -> str | None:
    """The class (or a project base) routes attribute access: fields may be read by name or forwarded."""
    try:
        lineage = [klass, *klass.ancestors()]
    except (InferenceError, RecursionError):
        lineage = [klass]
    for owner in lineage:
        if owner.qname().startswith("builtins."):
            continue
        hooks = sorted((ATTRIBUTE_HOOKS | ({"__getattr__"} if owner is klass else set())) & set(owner.locals))
        if hooks:
            via = "" if owner is klass else f" (through its base {owner.name})"
            return f"{klass.name} defines {hooks[0]}{via}: fields may be read by name or forwarded to another object"
    return None


def is_exception(klass: nodes.ClassDef) -> bool:
    """A subclass of BaseException (inferred, or a base written `...Error`/`...Exception`)."""
    try:
        if any(ancestor.qname() in EXCEPTION_QNAMES for ancestor in klass.ancestors()):
            return True
    except (InferenceError, RecursionError):
        pass
    return any(base.as_string().split("[")[0].endswith(("Error", "Exception")) for base in klass.bases)


_CLASS_GRAPH: Derived[ClassGraph] = Derived("state.class_graph", ClassGraph)
