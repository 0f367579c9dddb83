"""What of a copied block can move into a shared helper whole: the lines a block copy claims.

A block pasted into several functions shares its statements, but sharing it deletes
only the statements a helper can take over; the others stay in each caller:
- a local import (kept local on purpose, often to break an import cycle or load lazily);
- a statement that controls the enclosing function: an early `return`, a `yield`, a
  `break` or `continue` of a loop around the block (a `return` ending the function's
  body moves: the caller returns what the helper returns; so do early returns when they
  are the block's only exits and it binds nothing read after it, a chain of checks:
  the caller returns the helper's answer when there is one);
- when the block binds more than `MAX_OUTPUTS` locals the function reads after it (or,
  in a loop, in the next turn), the statements binding them (a helper returning a long
  tuple is not simpler than the copy).
The claim also names the locals bound before the block that it only passes on to calls
unchanged: a helper would take each as an argument (`doubts`: many make it no simpler).
A block whose movable part is below the block minimum is no copy worth a helper.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from pylint_omni.copies.drift import parsed, project_source
from pylint_omni.copies.members import Member
from pylint_omni.copies.normalize import FUNCTIONS, is_message
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.ast_helpers import walk_nodes

MAX_OUTPUTS = 3  # locals a helper may hand back to its caller
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
LOOPS = (ast.For, ast.AsyncFor, ast.While)


@dataclass(frozen=True)
class Claim:
    """The part of one block copy that moves: lines and statements, and what stays in the caller."""

    statements: int  # statements that move and do something (not a log line, an import, `pass`)
    stay: tuple[int, ...] = ()  # lines that stay in the caller
    why: tuple[str, ...] = ()  # what stays, in words
    relayed: tuple[str, ...] = ()  # locals bound before the block that it only hands on to calls, unchanged

    def lines(self, member: Member) -> int:
        return member.lines - len(self.stay)


def _walk(node: ast.AST, loops: int = 0):
    """Nodes under `node` with the number of loops around them inside it; nested scopes are not entered."""
    for name, value in ast.iter_fields(node):
        children = value if isinstance(value, list) else [value]
        inner = loops + (1 if isinstance(node, LOOPS) and name == "body" else 0)
        for child in children:
            if isinstance(child, ast.AST):
                yield child, inner
                if not isinstance(child, SCOPES):
                    yield from _walk(child, inner)


def _exit(statement: ast.stmt, final: bool) -> str | None:
    """The control transfer out of the block in `statement`, in words (`final`: a `return` there ends the function)."""
    if isinstance(statement, ast.Return) and final:
        return None
    nodes = [(statement, 0), *_walk(statement)]
    for node, loops in nodes:
        if isinstance(node, ast.Return) and not (final and node is statement):
            return f"the early `return` at line {node.lineno}"
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return f"the `yield` at line {node.lineno}"
        if isinstance(node, (ast.Break, ast.Continue)) and loops == 0:
            return f"the `{type(node).__name__.lower()}` at line {node.lineno}"
    return None


def _bound(statement: ast.stmt) -> dict[str, int]:
    """Locals a statement binds in its function, each with the first line binding it (names bound inside
    comprehensions or nested scopes are theirs); a name updated in place (`x += 1`) also reads itself: line 0."""
    found = {statement.name: statement.lineno} if isinstance(statement, (*FUNCTIONS, ast.ClassDef)) else {}
    skip: set[int] = set()
    for node, _ in [(statement, 0), *_walk(statement)]:
        if isinstance(node, ast.comprehension):
            skip.update(id(n) for n in walk_nodes(node.target))
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            found.setdefault(node.target.id, 0)
            skip.add(id(node.target))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) and id(node) not in skip:
            found.setdefault(node.id, node.lineno)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.setdefault(node.name, node.lineno)
    return found


def _outputs(function: ast.AST, loop: ast.AST | None, bound: dict[str, int], end: int) -> set[str]:
    """Locals of `bound` read after the block (line > `end`), or in the loop around it before the block binds them
    (the next turn reads them)."""
    found = set()
    for node in walk_nodes(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in bound and node.lineno > end:
            found.add(node.id)
    if loop is not None:
        for node in walk_nodes(loop):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.lineno <= bound.get(node.id, -1):
                found.add(node.id)
        found.update(name for name, line in bound.items() if line == 0)
    return found


def _lines(node: ast.stmt) -> range:
    return range(node.lineno, (node.end_lineno or node.lineno) + 1)


def claim(index: ProjectIndex, member: Member) -> Claim | None:
    """What of the block `member` moves into a helper; None when its file cannot be read again."""
    stream = parsed(index, project_source(index, member.path))
    if stream is None or member.last >= len(stream.statements):
        return None
    records = stream.statements
    top = records[member.first]
    parent, loop = top.parent, None
    while parent >= 0 and not isinstance(records[parent].node, FUNCTIONS):
        if loop is None and isinstance(records[parent].node, LOOPS):
            loop = records[parent].node
        parent = records[parent].parent
    if parent < 0:
        return None
    function = records[parent].node
    own = [i for i in range(member.first, member.last + 1) if records[i].list_id == top.list_id]
    ends_function = top.parent == parent and function.body[-1] is records[own[-1]].node
    stay: set[int] = set()
    why: list[str] = []
    imports = [records[i].node for i in range(member.first, member.last + 1)
               if isinstance(records[i].node, (ast.Import, ast.ImportFrom))]
    for node in imports:
        stay.update(_lines(node))
    if imports:
        why.append(f"{len(imports)} local import{'s' if len(imports) > 1 else ''}")
    bound = {i: _bound(records[i].node) for i in own}
    every: dict[str, int] = {}
    for names in bound.values():
        for name, line in names.items():
            every[name] = min(line, every.get(name, line))
    outputs = sorted(_outputs(function, loop, every, member.end))
    exits = {i: found for position, i in enumerate(own)
             if (found := _exit(records[i].node, ends_function and position == len(own) - 1))}
    if outputs or not all(found.startswith("the early `return`") for found in exits.values()):
        for i, found in exits.items():
            stay.update(_lines(records[i].node))
            why.append(found)
    binders = {i: set(names) & set(outputs) for i, names in bound.items()}
    if len(outputs) > MAX_OUTPUTS:
        for i, names in binders.items():
            if names:
                stay.update(_lines(records[i].node))
        why.append(f"{len(outputs)} locals read after the block ({', '.join(outputs[:MAX_OUTPUTS])}, …)")
    stay &= set(range(member.line, member.end + 1))
    moving = sum(1 for i in range(member.first, member.last + 1)
                 if not stay.issuperset(_lines(records[i].node)) and _does_something(records[i].node))
    return Claim(moving, tuple(sorted(stay)), tuple(why), _relayed(records[parent].bound, [records[i].node for i in own], every))


def _relayed(function_locals: frozenset[str], block: list[ast.stmt], bound: dict[str, int]) -> tuple[str, ...]:
    """The function's locals, bound before the block, that the block only passes on as whole arguments of calls
    (`group.append(dtype_act)`): a helper would take each as an argument and do nothing else with it."""
    uses: dict[str, list[bool]] = {}
    for statement in block:
        nodes = [(statement, 0), *_walk(statement)]
        passed = {id(arg) for node, _ in nodes if isinstance(node, ast.Call)
                  for arg in [*node.args, *(k.value for k in node.keywords)]}
        for node, _ in nodes:
            if (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in function_locals
                    and not 0 < bound.get(node.id, 10**9) < node.lineno):
                uses.setdefault(node.id, []).append(id(node) in passed)
    return tuple(name for name, passes in uses.items() if all(passes) and name not in ("self", "cls"))


def _does_something(node: ast.stmt) -> bool:
    return not (is_message(node) or isinstance(node, (ast.Import, ast.ImportFrom, ast.Pass)))
