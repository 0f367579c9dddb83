"""The class of each instance attribute a class sets, where one statement says it (for `self.x.attr` reads).

Read from the class's own statements only (the link scan resolves the names):
- a class-body annotation (`od_config: OmniDiffusionConfig`, dataclass and pydantic fields);
- in a method, `self.x: Cls = ...`, `self.x = Cls(...)`, and `self.x = param` for a
  parameter annotated with a class (`def __init__(self, od_config: OmniDiffusionConfig)`).
Only the statements directly in a method's body count (not those under `if`, loops or
`try`), and an attribute set anywhere so to another class or to an expression of
unknown class has no class (`self.x = None` does not count against one). Attributes
set by a base class, in another file, are not known.

`assigned_classes` answers a wider question for calls through a held object
(`self.builder.build()`): every class any method assigns to `self.x` (`self.x = Cls(...)`,
under `if` or `try` too), since the call may run on any of them; the reference graph's
`surfaces` edges join it with the assignments of the class's bases and subclasses.
"""

from __future__ import annotations

import ast
from typing import Callable

from pylint_omni.index.scan.ast_helpers import dotted, strip_annotation, walk_nodes

UNKNOWN = ""
BOUND_DECORATORS = frozenset({"staticmethod"})


def _method_types(method: ast.FunctionDef | ast.AsyncFunctionDef, class_of: Callable[[ast.AST | None], str | None]) -> list[tuple[str, str]]:
    """(attribute, class chain or UNKNOWN) for each `self.x = ...` directly in a method's body."""
    args = method.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    decorators = {(dotted(d) or "").rpartition(".")[2] for d in method.decorator_list}
    if not params or decorators & BOUND_DECORATORS:
        return []
    self_name = params[0].arg
    annotated = {a.arg: class_of(strip_annotation(a.annotation)) for a in params[1:] if a.annotation is not None}
    found: list[tuple[str, str]] = []
    for stmt in method.body:
        if isinstance(stmt, ast.AnnAssign):
            target, value, annotation = stmt.target, stmt.value, stmt.annotation
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value, annotation = stmt.targets[0], stmt.value, None
        else:
            continue
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name):
            continue
        if isinstance(value, ast.Constant) and value.value is None and annotation is None:
            continue  # `self.x = None` until something sets it
        owner = class_of(strip_annotation(annotation)) if annotation is not None else None
        if owner is None and isinstance(value, ast.Call):
            owner = class_of(value.func)
        if owner is None and isinstance(value, ast.Name):
            owner = annotated.get(value.id)
        found.append((target.attr, owner or UNKNOWN))
    return found


def attribute_types(node: ast.ClassDef, class_of: Callable[[ast.AST | None], str | None]) -> dict[str, str]:
    """attribute -> class chain, for the attributes of `node` whose class one statement says."""
    found: dict[str, str] = {}
    for stmt in node.body:
        pairs: list[tuple[str, str]] = []
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            pairs = [(stmt.target.id, class_of(strip_annotation(stmt.annotation)) or UNKNOWN)]
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            pairs = _method_types(stmt, class_of)
        for attr, owner in pairs:
            found[attr] = owner if found.get(attr, owner) == owner else UNKNOWN
    return {attr: owner for attr, owner in found.items() if owner}


def assigned_classes(node: ast.ClassDef, class_of: Callable[[ast.AST | None], str | None]) -> dict[str, list[str]]:
    """attribute -> the class chains `self.<attribute> = Cls(...)` assigns anywhere in the class's methods."""
    found: dict[str, list[str]] = {}
    for method in node.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
            continue
        self_name = method.args.args[0].arg
        for stmt in walk_nodes(method):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
            value = getattr(stmt, "value", None)
            if not isinstance(value, ast.Call):
                continue
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name:
                    owner = class_of(value.func)
                    if owner and owner not in found.setdefault(target.attr, []):
                        found[target.attr].append(owner)
    return {attr: owners for attr, owners in found.items() if owners}
