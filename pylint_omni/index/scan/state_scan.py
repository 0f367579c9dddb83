"""Per-file facts about object state that other files need: builders, payloads, reflection.

`duplicated-state-field` judges a class in its own module, but part of its evidence
lives in other files:
- `attr_writes`: `obj.field = value` on another object (not `self`), with the source of
  the value when it is a plain dotted read (`config.world_size`) — a builder that
  overwrites a constructor field after construction — and the class of `obj` when
  it is known (so evidence is never borrowed from another class's same-named field);
- `bound_calls`: `var = Name(...)` with a CamelCase callee — where an object is built;
- `sent_types`: class names whose instances go through a queue, a socket or a
  serializer (`q.put(Msg(...))`, `pickle.dumps(obj)` with `obj: Msg`) — an IPC boundary;
- `reflected_types`: class names read by reflection (`asdict(obj)`, `fields(Cls)` beside a `getattr(o, name)`,
  `vars(self)`, `obj.__dict__`, table builders) — every field has a reader.
Types are inferred cheaply: a CamelCase name, `self`/`cls` (the enclosing class), a
parameter annotation, or a local bound to `Cls(...)` in the same function.
"""

from __future__ import annotations

import ast
from typing import Any

from pylint_omni.index.scan.ast_helpers import FastVisitor, dotted

SEND_CALLS = frozenset({
    "put", "put_nowait", "send", "send_pyobj", "send_multipart", "send_bytes", "send_json",
    "dumps", "dump", "serialize", "encode", "broadcast_object", "broadcast_object_list",
    "send_object", "send_object_list", "all_gather_object", "gather_object", "scatter_object_list",
    "model_dump", "model_dump_json", "to_json", "enqueue", "publish",
})
REFLECT_CALLS = frozenset({"fields", "asdict", "astuple", "vars", "DataFrame", "tabulate", "from_records"})
# `fields(Cls)` enumerates names (a `from_kwargs` filtering the keywords a constructor takes reads no value): it reads
# the values only with a `getattr(obj, name)` in the same function.
NAMES_ONLY = frozenset({"fields"})
MAX_VALUE_CHARS = 120


def _tail(node: ast.AST) -> str:
    return (dotted(node) or "").rpartition(".")[2]


def _is_class_name(name: str) -> bool:
    return bool(name) and name[0].isupper() and not name.isupper()


def annotation_type(node: ast.AST | None) -> str | None:
    """`Msg`, `mod.Msg`, `Msg | None`, `Optional[Msg]`, `"Msg"` -> `Msg`."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return annotation_type(node.left) or annotation_type(node.right)
    if isinstance(node, ast.Subscript) and _tail(node.value) == "Optional":
        return annotation_type(node.slice)
    tail = _tail(node)
    return tail if _is_class_name(tail) else None


class _StateVisitor(FastVisitor):
    """Walks functions keeping each one's local types, to name what is sent or reflected."""

    def __init__(self) -> None:
        self.classes: list[str] = []
        self.functions: list[str] = []
        self.local_types: list[dict[str, str]] = [{}]
        self.attr_writes: list[list[Any]] = []
        self.bound_calls: list[list[Any]] = []
        self.sent: set[str] = set()
        self.reflected: set[str] = set()
        self.named: list[set[str]] = [set()]  # per function: classes whose field names `fields()` enumerates
        self.dynamic_reads: list[bool] = [False]  # per function: a `getattr(obj, name)` with a computed name

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        types: dict[str, str] = {}
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            found = annotation_type(arg.annotation)
            if found:
                types[arg.arg] = found
        if self.classes:
            types.setdefault("self", self.classes[-1])
            types.setdefault("cls", self.classes[-1])
        self.functions.append(".".join([*self.classes[-1:], node.name]))
        self.local_types.append(types)
        self.named.append(set())
        self.dynamic_reads.append(False)
        self.generic_visit(node)
        self.settle_names()
        self.local_types.pop()
        self.functions.pop()

    def settle_names(self) -> None:
        """End of a function (or module): the classes `fields()` enumerated are reflected if it read values by name."""
        named, dynamic = self.named.pop(), self.dynamic_reads.pop()
        if dynamic:
            self.reflected.update(named)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _func(self) -> str:
        return self.functions[-1] if self.functions else "<module>"

    def types_of(self, node: ast.AST) -> set[str]:
        """Class names an argument expression may be an instance (or the class) of."""
        if isinstance(node, ast.Name):
            if _is_class_name(node.id):
                return {node.id}
            found = self.local_types[-1].get(node.id)
            return {found} if found else set()
        if isinstance(node, ast.Call):
            tail = _tail(node.func)
            if tail == "type" and node.args:
                return self.types_of(node.args[0])
            return {tail} if _is_class_name(tail) else set()
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return set().union(*(self.types_of(e) for e in node.elts)) if node.elts else set()
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self.types_of(node.elt)
        if isinstance(node, ast.Starred):
            return self.types_of(node.value)
        return set()

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
            callee = _tail(node.value.func)
            if _is_class_name(callee):
                self.local_types[-1][node.targets[0].id] = callee
                self.bound_calls.append([callee, node.lineno, node.targets[0].id, self._func()])
        for target in node.targets:
            self._record_write(target, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name):
            found = annotation_type(node.annotation)
            if found:
                self.local_types[-1][node.target.id] = found
        if node.value is not None:
            self._record_write(node.target, node.value)
        self.generic_visit(node)

    def _record_write(self, target: ast.AST, value: ast.AST) -> None:
        obj = dotted(target.value) if isinstance(target, ast.Attribute) else None
        if obj is None or obj in ("self", "cls"):
            return  # an object's writes to its own fields are not foreign writes
        source = dotted(value)
        if source is not None and len(source) > MAX_VALUE_CHARS:
            source = None
        owner = sorted(self.types_of(target.value))[0] if isinstance(target.value, ast.Name) and self.types_of(target.value) else ""
        self.attr_writes.append([target.attr, target.lineno, obj, source, self._func(), owner])

    def visit_Call(self, node: ast.Call) -> None:
        tail = _tail(node.func)
        arguments = [*node.args, *(kw.value for kw in node.keywords)]
        if tail in SEND_CALLS:
            for arg in arguments:
                self.sent.update(self.types_of(arg))
        elif tail in NAMES_ONLY:
            for arg in arguments:
                self.named[-1].update(self.types_of(arg))
        elif tail in REFLECT_CALLS:
            for arg in arguments:
                self.reflected.update(self.types_of(arg))
        elif tail == "getattr" and len(node.args) > 1 and not isinstance(node.args[1], ast.Constant):
            self.dynamic_reads[-1] = True
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == "__dict__":
            self.reflected.update(self.types_of(node.value))
        self.generic_visit(node)


def scan_state(tree: ast.AST) -> dict[str, Any]:
    """The state facts of one parsed module (see the module docstring)."""
    visitor = _StateVisitor()
    visitor.visit(tree)
    visitor.settle_names()  # the module level is the outermost function
    return {
        "attr_writes": visitor.attr_writes,
        "bound_calls": visitor.bound_calls,
        "sent_types": sorted(visitor.sent),
        "reflected_types": sorted(visitor.reflected),
    }
