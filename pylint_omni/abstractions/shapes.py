"""The class shapes a reviewer recognises as indirection, read from the class statement (astroid).

- a *data-holder base*: no abstract methods, its body only stores attributes —
  class attributes, an `__init__` that only assigns `self.x` (and calls the parent's),
  an `__init_subclass__` that only sets `cls.x`; with one subclass it is a layer
  that could be the subclass's own fields;
- a *static-method holder*: a class whose only member is one `@staticmethod`,
  a namespace around a function;
- a *restating Protocol*: a Protocol declaring methods that a concrete class next
  to it (same module, else same package) already has, with every class that matches
  the Protocol being that class or one of its subclasses (`restated_class`, on the
  class graph).
Exceptions, enums, typed dicts and named tuples are never data holders: their
hierarchy is what catching, matching and serialising read.
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.index.class_graph import ClassGraph, protocol_methods
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Definition

NOT_HOLDERS = frozenset({
    "builtins.BaseException", "enum.Enum", "typing.TypedDict", "typing_extensions.TypedDict",
    "typing.NamedTuple", "typing.Protocol", "typing.Generic",
})
HOLDER_METHODS = frozenset({"__init__", "__init_subclass__"})


def _is_docstring(stmt: nodes.NodeNG) -> bool:
    return isinstance(stmt, nodes.Expr) and isinstance(stmt.value, nodes.Const) and isinstance(stmt.value.value, str)


def _is_super_call(stmt: nodes.NodeNG) -> bool:
    """`super().__init__(...)` / `super().__init_subclass__(**kw)` / `Parent.__init__(self, ...)`."""
    if not isinstance(stmt, nodes.Expr) or not isinstance(stmt.value, nodes.Call):
        return False
    func = stmt.value.func
    return isinstance(func, nodes.Attribute) and func.attrname in HOLDER_METHODS


def _stores_only(func: nodes.FunctionDef, receiver: str) -> bool:
    """Every statement assigns an attribute of `receiver` (or is a docstring or the parent's call)."""
    for stmt in func.body:
        if _is_docstring(stmt) or _is_super_call(stmt) or isinstance(stmt, nodes.Pass):
            continue
        targets = stmt.targets if isinstance(stmt, nodes.Assign) else [stmt.target] if isinstance(stmt, nodes.AnnAssign) else None
        if not targets or not all(
            isinstance(t, nodes.AssignAttr) and isinstance(t.expr, nodes.Name) and t.expr.name == receiver for t in targets
        ):
            return False
    return True


def _excluded_ancestry(node: nodes.ClassDef) -> bool:
    try:
        ancestors = {a.qname() for a in node.ancestors()}
    except Exception:  # astroid raises many kinds of inference errors: then we do not know, so no
        return True
    return bool(ancestors & NOT_HOLDERS) or any(d.as_string().endswith(("dataclass_json", "total_ordering"))
                                                for d in (node.decorators.nodes if node.decorators else []))


def is_dataclass(node: nodes.ClassDef) -> bool:
    """Decorated `@dataclass` / `@dataclasses.dataclass(...)` (pydantic's too)."""
    decorators = node.decorators.nodes if node.decorators else []
    return any((d.func if isinstance(d, nodes.Call) else d).as_string().rpartition(".")[2] == "dataclass" for d in decorators)


def stored_attributes(node: nodes.ClassDef) -> list[str] | None:
    """The attributes a data-holder base stores, or None when the class is not one."""
    if _excluded_ancestry(node):
        return None
    stored: list[str] = []
    for stmt in node.body:
        if _is_docstring(stmt) or isinstance(stmt, nodes.Pass):
            continue
        if isinstance(stmt, nodes.AnnAssign) and isinstance(stmt.target, nodes.AssignName):
            stored.append(stmt.target.name)
        elif isinstance(stmt, nodes.Assign) and all(isinstance(t, nodes.AssignName) for t in stmt.targets):
            stored += [t.name for t in stmt.targets if isinstance(t, nodes.AssignName)]
        elif isinstance(stmt, nodes.FunctionDef) and stmt.name in HOLDER_METHODS and not stmt.decorators:
            receiver = stmt.args.args[0].name if stmt.args.args else ""
            if not _stores_only(stmt, receiver):
                return None
            stored += [t.attrname for t in stmt.nodes_of_class(nodes.AssignAttr) if t.attrname not in stored]
        else:
            return None
    return [name for name in dict.fromkeys(stored) if not name.startswith("__")] or None


def static_member(node: nodes.ClassDef) -> nodes.FunctionDef | None:
    """The one `@staticmethod` of a class that has no other member, no base and no decorator."""
    if node.decorators or node.bases or node.keywords:
        return None
    members = [s for s in node.body if not _is_docstring(s) and not isinstance(s, nodes.Pass)]
    if len(members) != 1 or not isinstance(members[0], nodes.FunctionDef):
        return None
    method = members[0]
    decorators = method.decorators.nodes if method.decorators else []
    if len(decorators) == 1 and isinstance(decorators[0], nodes.Name) and decorators[0].name == "staticmethod":
        return method
    return None


def restated_class(graph: ClassGraph, protocol: str) -> Definition | None:
    """The concrete class beside a Protocol that already has every method it declares, when each match
    of the Protocol is that class or one of its subclasses."""
    node = graph.nodes[protocol]
    wanted = protocol_methods(node.definition.data)
    if not wanted or graph.descendants(protocol):
        return None
    matches = set(graph.structural_matches(protocol))
    if not matches:
        return None
    folder = node.definition.path.rpartition("/")[0]
    beside = sorted(
        (d for d in graph.nodes.values() if d.definition.path.rpartition("/")[0] == folder and d.definition.dotted in matches),
        key=lambda d: (d.definition.path != node.definition.path, d.definition.path, d.definition.data["line"]),
    )
    index = graph.index
    for candidate in beside:
        dotted = candidate.definition.dotted
        if any(a in matches for a in graph.ancestors(dotted)):
            continue  # a subclass: its topmost matching ancestor is the one restated
        tree = {dotted, *graph.descendants(dotted)}
        outside = [m for m in matches - tree if index.location(graph.nodes[m].definition.path) is not Location.VALIDATION]
        if not outside:
            return candidate.definition
    return None
