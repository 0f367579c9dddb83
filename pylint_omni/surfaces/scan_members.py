"""Per-method facts of a module's classes, for the surfaces family (`scan.scan_surface_facts`).

- `super_calls`: qualnames of the methods whose body calls `super().<own name>(...)`: an
  override, which runs wherever the base's callers call the base method;
- `edits`: `[class qual, method, attr, op, line, key]` for each change of a container the
  class holds in `self.<attr>`: `fill` (`.add/.append/.extend/.update/.insert/.setdefault`,
  `self.x[k] = v`), `prune` (`.discard/.remove/.pop(k)/.difference_update/...`, `del self.x[k]`,
  `self.x -= ...`), `drain` (`.clear()`, `.pop()`, `.pop(0)`, `.popleft()`: whatever is there, as an
  eviction loop does) or `reset` (`self.x = ...` outside `__init__`); `key` is the
  dotted source of the removed key, or of the collection a loop draws it from
  (`for rid in out.finished_ids: self.ids.discard(rid)` -> `out.finished_ids`), so that a
  reader can tell a prune on completion from one on a decision.
"""

from __future__ import annotations

import ast
from typing import Any

from pylint_omni.index.scan.ast_helpers import dotted, walk_nodes

FILLS = frozenset({"add", "append", "appendleft", "extend", "update", "insert", "setdefault"})
PRUNES = frozenset({"discard", "remove", "pop", "popitem", "popleft", "clear", "difference_update",
                    "intersection_update", "symmetric_difference_update"})
DRAINS = frozenset({"pop", "popleft", "popitem", "clear"})  # without a key: whatever is there
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _index(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, int)


def _self_attr(node: ast.AST) -> str | None:
    """`x` of `self.x`."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _loop_sources(nodes: list[ast.AST]) -> dict[str, str]:
    """Loop variable -> the dotted source of what it iterates (`for rid in out.finished: ...`)."""
    found: dict[str, str] = {}
    loops = [(n.target, n.iter) for n in nodes if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension))]
    for target, source in loops:
        for name in walk_nodes(target):
            if isinstance(name, ast.Name):
                found[name.id] = dotted(source) or ""
    return found


def _key(node: ast.AST | None, loops: dict[str, str]) -> str:
    if node is None:
        return ""
    if isinstance(node, ast.Name) and node.id in loops:
        return loops[node.id]
    return dotted(node) or ""


def _method_edits(qual: str, method: ast.AST, nodes: list[ast.AST], out: list[list[Any]]) -> None:
    name = getattr(method, "name", "")
    loops = _loop_sources(nodes)
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = _self_attr(node.func.value)
            op = "fill" if node.func.attr in FILLS else "prune" if node.func.attr in PRUNES else None
            if op == "prune" and node.func.attr in DRAINS and (not node.args or _index(node.args[0])):
                op = "drain"
            if attr and op:
                out.append([qual, name, attr, op, node.lineno, _key(node.args[0] if node.args else None, loops)])
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                attr = _self_attr(target.value) if isinstance(target, ast.Subscript) else None
                if attr:
                    out.append([qual, name, attr, "prune", node.lineno, _key(target.slice, loops)])
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Sub) and _self_attr(node.target):
            out.append([qual, name, _self_attr(node.target), "prune", node.lineno, _key(node.value, loops)])
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Subscript) and _self_attr(target.value):
                    out.append([qual, name, _self_attr(target.value), "fill", node.lineno, ""])
                elif _self_attr(target) and name != "__init__":
                    out.append([qual, name, _self_attr(target), "reset", node.lineno, ""])


def _calls_own_super(method: ast.AST, nodes: list[ast.AST]) -> bool:
    name = getattr(method, "name", "")
    for node in nodes:
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == name
                and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Name)
                and node.func.value.func.id == "super"):
            return True
    return False


def scan_members(tree: ast.Module) -> dict[str, list[Any]]:
    """The `super_calls` and `edits` of every class of a module (nested classes too)."""
    super_calls: list[str] = []
    edits: list[list[Any]] = []
    stack: list[tuple[str, ast.ClassDef]] = [(n.name, n) for n in tree.body if isinstance(n, ast.ClassDef)]
    while stack:
        qual, cls = stack.pop()
        for stmt in cls.body:
            if isinstance(stmt, ast.ClassDef):
                stack.append((f"{qual}.{stmt.name}", stmt))
            elif isinstance(stmt, FUNCTIONS):
                nodes = list(walk_nodes(stmt))  # walked once: each question below reads the list
                if _calls_own_super(stmt, nodes):
                    super_calls.append(f"{qual}.{stmt.name}")
                _method_edits(qual, stmt, nodes, edits)
    return {"super_calls": super_calls, "edits": edits}
