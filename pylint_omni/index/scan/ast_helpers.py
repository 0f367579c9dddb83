"""Small `ast` helpers shared by the scanners."""

from __future__ import annotations

import ast
import re
from collections import deque
from typing import Any, Callable, Iterator

# Syntax newer than the interpreter running pylint (PEP 695, Python 3.12): `type Alias = ...`, `def f[T](...)`,
# `class C[T]:`. A project that requires 3.12 writes them; this interpreter's parser rejects the whole file, and every
# reference in it would be lost (its callees reported unused). `parse_source` rewrites them, keeping every line.
TYPE_ALIAS = re.compile(r"^(\s*)type\s+([A-Za-z_]\w*)\s*(?:\[[^\]\n]*\])?\s*=", re.MULTILINE)
TYPE_PARAMS = re.compile(r"^(\s*(?:async\s+)?(?:def|class)\s+[A-Za-z_]\w*)\[[^\]\n]*\](?=\s*[(:])", re.MULTILINE)


def parse_source(text: str, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse`, and when that fails on syntax newer than this Python (PEP 695 type aliases and type parameters),
    a parse of the text with those rewritten to what this Python reads: `type X = A | B` as `X = A | B`,
    `def f[T](x: T)` as `def f(x: T)`. Lines stay where they were. Raises what `ast.parse` raises otherwise."""
    try:
        return ast.parse(text, filename=filename)
    except SyntaxError:
        rewritten = TYPE_PARAMS.sub(r"\1", TYPE_ALIAS.sub(r"\1\2 =", text))
        if rewritten == text:
            raise
        return ast.parse(rewritten, filename=filename)


def dotted(node: ast.AST | None) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    if isinstance(node, ast.Name):
        return node.id  # most chains asked for are a bare name
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def literal_str(node: ast.AST | None) -> str | None:
    """The value of a string constant, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def strip_annotation(node: ast.AST | None) -> ast.AST | None:
    """`Optional[X]`, `X | None`, `"X"` -> X (the class a parameter holds)."""
    if node is None:
        return None
    text = literal_str(node)
    if text is not None:
        try:
            node = ast.parse(text, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = [s for s in (node.left, node.right) if not (isinstance(s, ast.Constant) and s.value is None)]
        return strip_annotation(sides[0]) if len(sides) == 1 else None
    if isinstance(node, ast.Subscript) and (dotted(node.value) or "").rpartition(".")[2] == "Optional":
        return strip_annotation(node.slice)
    return node if isinstance(node, (ast.Name, ast.Attribute)) else None


# Fields that never hold a node (names, levels, flags); `value` holds one everywhere but in a constant.
_SCALAR_FIELDS = frozenset({"ctx", "id", "attr", "name", "arg", "module", "level", "kind", "type_comment",
                            "is_async", "conversion", "simple", "tag"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold child nodes (`ctx`, names and flags left out)."""
    found = _CHILD_FIELDS.get(cls)
    if found is None:
        scalar = _SCALAR_FIELDS | ({"value"} if cls in (ast.Constant, ast.MatchSingleton) else set())
        found = _CHILD_FIELDS[cls] = tuple(f for f in getattr(cls, "_fields", ()) if f not in scalar)
    return found


def child_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.iter_child_nodes` without the fields that never hold a node (and without `ctx`)."""
    fields = _CHILD_FIELDS.get(type(node))
    for field in child_fields(type(node)) if fields is None else fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            for item in value:
                if isinstance(item, ast.AST):
                    yield item
        elif isinstance(value, ast.AST):
            yield value


def walk_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk` (breadth first, the node itself first) over `child_nodes`: no `ctx` nodes, about twice as fast."""
    todo = deque([node])
    while todo:
        current = todo.popleft()
        todo.extend(child_nodes(current))
        yield current


class FastVisitor:
    """`ast.NodeVisitor` with its per-node costs taken out (same `visit_X` protocol).

    The scanners visit every node of every file on a cold index build; the stdlib
    visitor looks its method up by string each time, walks fields through a
    generator and visits the `ctx` of every name. This one keeps, per visitor class,
    the function that visits each node type, and per node type the fields that can
    hold a node (`child_fields`); a node type with no such field and no `visit_X`
    (a name, a constant: about half of all nodes) costs one lookup. The same visits
    as the stdlib's otherwise (`ctx` is never visited).
    """

    # A subclass whose own `generic_visit` does more than visit the children sets this when
    # that work has no effect on a node without children (it only tracks the parents).
    LEAVES_NEED_NO_VISIT = False
    _visit_table: dict[type, Callable[[FastVisitor, ast.AST], None]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._visit_table = {}

    def visit(self, node: ast.AST) -> None:
        method = self._visit_table.get(type(node))
        if method is None:
            method = self._method_for(type(node))
        method(self, node)

    @classmethod
    def _method_for(cls, node_type: type) -> Callable[[FastVisitor, ast.AST], None]:
        method = getattr(cls, "visit_" + node_type.__name__, None)
        if method is None:
            leaf = not child_fields(node_type) and (cls.generic_visit is FastVisitor.generic_visit or cls.LEAVES_NEED_NO_VISIT)
            method = _visit_nothing if leaf else cls.generic_visit
        cls._visit_table[node_type] = method
        return method

    def generic_visit(self, node: ast.AST) -> None:
        # `child_nodes`' loop written out: its generator per node costs this hottest loop about a third more.
        fields = _CHILD_FIELDS.get(type(node))
        for field in child_fields(type(node)) if fields is None else fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)
            elif isinstance(value, ast.AST):
                self.visit(value)


def _visit_nothing(visitor: FastVisitor, node: ast.AST) -> None:
    """The visit of a node with no child and no method of its own."""


def fstring_parts(node: ast.JoinedStr, constants: dict[str, str]) -> list[str | None]:
    """The parts of an f-string: literal text, a module string constant it formats in (`f"{_PROC}.x"` with
    `_PROC = "pkg.mod"`), or None for a hole whose value is not known."""
    parts: list[str | None] = []
    for part in node.values:
        text = literal_str(part)
        if text is None and isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name):
            text = constants.get(part.value.id)
        parts.append(text)
    return parts
