"""Where a class is used as a value — returned, passed, stored, called through a variable — rather than as a type.

The reference graph records a class named inside `X | None` or `tuple[..., X]` as a
plain load; a data-holder base named only in annotations, `isinstance` checks and
`class` statements is still a layer, while one handed out as a value may be created
wherever it lands. This reads the few files that load such a base (with `ast`,
never importing them) and keeps the lines where the name is a value.
"""

from __future__ import annotations

import ast

from pylint_omni.index.derived import Table
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.ast_helpers import parse_source, walk_nodes

TYPE_CALLS = frozenset({"isinstance", "issubclass", "cast", "super", "TypeVar", "type"})

_VALUE_LINES: Table[tuple[str, str], set[int]] = Table("abstractions.value_lines")


def _type_positions(tree: ast.AST) -> set[int]:
    """ids of the nodes that sit in a type position: annotations, bases, type checks, `except` clauses."""
    inside: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            inside.update(id(child) for child in walk_nodes(node))

    for node in walk_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            mark(node.returns)
            for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg]:
                mark(arg.annotation if arg is not None else None)
        elif isinstance(node, ast.AnnAssign):
            mark(node.annotation)
        elif isinstance(node, ast.ClassDef):
            for base in node.bases:
                mark(base)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TYPE_CALLS:
            for arg in node.args[1:] if node.func.id != "super" else node.args:
                mark(arg)
        elif isinstance(node, ast.ExceptHandler):
            mark(node.type)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            inside.add(id(node))
    return inside


def value_lines(index: ProjectIndex, relpath: str, name: str) -> set[int]:
    """Lines of `relpath` where `name` (a bare name or an attribute's last part) is used as a value."""
    memo = _VALUE_LINES.values(index)
    key = (relpath, name)
    if key in memo:
        return memo[key]
    text = index.text(relpath)
    try:
        tree = parse_source(text) if text is not None else None
    except (SyntaxError, ValueError, RecursionError):
        tree = None
    if tree is None:
        memo[key] = set()
        return memo[key]
    types = _type_positions(tree)
    found: set[int] = set()
    for node in walk_nodes(tree):
        named = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if named == name and isinstance(node.ctx, ast.Load) and id(node) not in types:  # type: ignore[union-attr]
            found.add(node.lineno)
    memo[key] = found
    return found
