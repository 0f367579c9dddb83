"""Single-branch factories: a function whose only job is to choose an implementation, with one choice.

Two shapes are recognised, on the function's astroid node:
- an `if` on a kind (`kind == "x"`, `cfg.backend is Backend.X`, `kind in ("x",)`)
  whose body returns a class or an instance of one, and nothing else: no `elif`,
  and every other path raises (an earlier `if kind == "old": kind = "new"` that
  renames a deprecated kind is not a second choice);
- a lookup by the kind in a one-entry mapping of classes (`{"x": XImpl}[kind]`,
  `_IMPLS.get(kind)`), in a short function.
Each choice names the parameter the kind comes from (and the field of it, for
`config.backend`), so that `factory_callers` can judge the kind at the call sites.
"""

from __future__ import annotations

from dataclasses import dataclass

from astroid import nodes
from astroid.util import UninferableBase

from pylint_omni.index.scan.key_sources import EXTERNAL_MARKERS as EXTERNAL_SOURCES

MAX_MAPPING_FACTORY_STATEMENTS = 6  # a factory longer than this does more than map a kind to a class
SETUP_STATEMENTS = (nodes.Assign, nodes.AnnAssign, nodes.Import, nodes.ImportFrom, nodes.Expr)


@dataclass(frozen=True)
class FactoryChoice:
    """The one choice of a factory: the key it tests and the implementation it returns."""

    key: str
    implementation: str
    line: int
    external_kind: bool = False  # the kind is read from outside data (a checkpoint's model_type, ...)
    param: str = ""  # the parameter the kind comes from
    field: str = ""  # the kind is this attribute of the parameter (`config.backend` -> "backend"), else ""


def _statements(func: nodes.FunctionDef) -> list[nodes.NodeNG]:
    body = list(func.body)
    if body and isinstance(body[0], nodes.Expr) and isinstance(body[0].value, nodes.Const) and isinstance(body[0].value.value, str):
        body = body[1:]
    return body


def _root_name(node: nodes.NodeNG) -> str | None:
    while isinstance(node, nodes.Attribute):
        node = node.expr
    return node.name if isinstance(node, nodes.Name) else None


def _is_kind(node: nodes.NodeNG, params: set[str]) -> bool:
    """A parameter, or an attribute chain rooted at one (`config.backend`)."""
    return _root_name(node) in params


def _class_name(node: nodes.NodeNG | None) -> str | None:
    """`XImpl`, `mod.XImpl` or `XImpl(...)`: a name that denotes a class (inferred, else capitalised)."""
    if isinstance(node, nodes.Call):
        node = node.func
    if not isinstance(node, (nodes.Name, nodes.Attribute)):
        return None
    name = node.name if isinstance(node, nodes.Name) else node.attrname
    try:
        inferred = next(node.infer(), None)
    except Exception:  # astroid raises many kinds of inference errors; fall back to the spelling
        inferred = None
    if isinstance(inferred, nodes.ClassDef):
        return name
    unknown = inferred is None or isinstance(inferred, UninferableBase)
    return name if unknown and name[:1].isupper() else None


def _kind_test(test: nodes.NodeNG, params: set[str], negated: bool = False) -> str | None:
    """The key of `kind == "x"` / `kind is K.X` / `kind in ("x",)` (or their negations), else None."""
    if not isinstance(test, nodes.Compare) or len(test.ops) != 1 or not _is_kind(test.left, params):
        return None
    op, right = test.ops[0]
    equal, member = ("!=", "is not"), "not in"
    if not negated:
        equal, member = ("==", "is"), "in"
    # A kind is a name: a string or an enum member. `x.ndim != 1` is a validation, not a choice.
    if op in equal and (isinstance(right, nodes.Attribute) or (isinstance(right, nodes.Const) and isinstance(right.value, str))):
        return right.as_string()
    if op == member and isinstance(right, (nodes.Tuple, nodes.List, nodes.Set)) and right.elts:
        return right.as_string()
    return None


def _raises(statements: list[nodes.NodeNG]) -> bool:
    return len(statements) == 1 and isinstance(statements[0], nodes.Raise)


def _returned_class(statements: list[nodes.NodeNG]) -> str | None:
    """The class a block returns when it only sets up and returns it."""
    if not statements or not isinstance(statements[-1], nodes.Return):
        return None
    if not all(isinstance(s, SETUP_STATEMENTS) for s in statements[:-1]):
        return None
    return _class_name(statements[-1].value)


def _derived_kinds(setup: list[nodes.NodeNG], params: set[str]) -> dict[str, nodes.NodeNG]:
    """Locals read from a parameter before the choice (`model_type = config.model_type`), with their value."""
    derived: dict[str, nodes.NodeNG] = {}
    for stmt in setup:
        if isinstance(stmt, nodes.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], nodes.AssignName):
            if _is_kind(stmt.value, params | set(derived)):
                derived[stmt.targets[0].name] = stmt.value
    return derived


def _kind_source(node: nodes.NodeNG, derived: dict[str, nodes.NodeNG]) -> tuple[str, str]:
    """(parameter, attribute path) the kind expression reads: `config.backend` -> ("config", "backend")."""
    fields: list[str] = []
    for _ in range(len(derived) + 1):
        while isinstance(node, nodes.Attribute):
            fields.insert(0, node.attrname)
            node = node.expr
        if isinstance(node, nodes.Name) and node.name in derived:
            node = derived[node.name]
            continue
        break
    return (node.name if isinstance(node, nodes.Name) else "", ".".join(fields))


def _renames_kind(stmt: nodes.NodeNG, params: set[str]) -> bool:
    """`if kind == "old": kind = "new"` (a deprecated alias, maybe with a warning): not a choice."""
    if not isinstance(stmt, nodes.If) or stmt.orelse or _kind_test(stmt.test, params) is None:
        return False
    assigns = [s for s in stmt.body if not isinstance(s, nodes.Expr)]
    return bool(assigns) and all(
        isinstance(s, nodes.Assign) and all(isinstance(t, nodes.AssignName) and t.name in params for t in s.targets)
        for s in assigns
    )


def _if_choice(func: nodes.FunctionDef, params: set[str]) -> FactoryChoice | None:
    """`if kind == "x": return X(...)` + raise, or `if kind != "x": raise ...` + `return X(...)`."""
    body = [stmt for stmt in _statements(func) if not _renames_kind(stmt, params)]
    branches = [i for i, stmt in enumerate(body) if isinstance(stmt, nodes.If)]
    if len(branches) != 1 or not all(isinstance(s, SETUP_STATEMENTS) for s in body[: branches[0]]):
        return None
    derived = _derived_kinds(body[: branches[0]], params)
    params = params | set(derived)
    branch = body[branches[0]]
    rest = body[branches[0] + 1:]
    if _raises(branch.body) and not branch.orelse:  # guard clause: reject every other kind first
        key = _kind_test(branch.test, params, negated=True)
        returning = rest
    else:
        if branch.orelse:
            if rest or not _raises(branch.orelse):
                return None
        elif not _raises(rest):
            return None
        key = _kind_test(branch.test, params)
        returning = branch.body
    if not key or not isinstance(branch.test, nodes.Compare):
        return None  # before inferring the returned class: most functions with one `if` choose no kind
    chosen = _returned_class(returning)
    if not chosen:
        return None
    source = " ".join(stmt.as_string() for stmt in body[: branches[0]]) + branch.test.as_string()
    external = any(marker in source for marker in EXTERNAL_SOURCES)
    param, field = _kind_source(branch.test.left, derived)
    return FactoryChoice(key, chosen, branch.lineno, external, param, field)


def _one_entry_mapping(node: nodes.NodeNG) -> nodes.Dict | None:
    if isinstance(node, nodes.Dict):
        return node if len(node.items) == 1 else None
    if isinstance(node, nodes.Name):
        _, assignments = node.lookup(node.name)
        if len(assignments) == 1 and isinstance(assignments[0], nodes.AssignName):
            value = getattr(assignments[0].parent, "value", None)
            if isinstance(value, nodes.Dict) and len(value.items) == 1:
                return value
    return None


def _mapping_choice(func: nodes.FunctionDef, params: set[str]) -> FactoryChoice | None:
    if len(_statements(func)) > MAX_MAPPING_FACTORY_STATEMENTS:
        return None
    for node in func.nodes_of_class((nodes.Subscript, nodes.Call)):
        if isinstance(node, nodes.Subscript):
            table, key = node.value, node.slice
        elif isinstance(node.func, nodes.Attribute) and node.func.attrname == "get" and node.args:
            table, key = node.func.expr, node.args[0]
        else:
            continue
        mapping = _one_entry_mapping(table)
        if mapping is None or not _is_kind(key, params):
            continue
        entry_key, entry_value = mapping.items[0]
        chosen = _class_name(entry_value)
        if chosen and isinstance(entry_key, nodes.Const):
            param, field = _kind_source(key, {})
            return FactoryChoice(entry_key.as_string(), chosen, mapping.lineno, False, param, field)
    return None


def single_choice(func: nodes.FunctionDef) -> FactoryChoice | None:
    """The one implementation a factory-shaped function can return, or None."""
    params = {a.name for a in func.args.arguments if a.name not in ("self", "cls")}
    if not params:
        return None
    return _if_choice(func, params) or _mapping_choice(func, params)
