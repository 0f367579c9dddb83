"""ImportError guards of the compat scanner: a `try` whose body only imports (and calls what it imported) and whose
handlers only catch `ImportError`/`ModuleNotFoundError`, as JSON-ready facts; and how a scanned statement is shown.

Split from `conditions` (version tests) to keep modules small; `conditions.scan_compat` calls `try_site` for each
`try` it walks.
"""

from __future__ import annotations

import ast
from typing import Any

from pylint_omni.index.scan.ast_helpers import dotted, walk_nodes
from pylint_omni.index.scanners import ModuleContext

IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})
MAX_SOURCE = 90  # characters of a condition shown in a message


def span(statements: list[ast.stmt]) -> list[int] | None:
    if not statements:
        return None
    return [statements[0].lineno, max(s.end_lineno or s.lineno for s in statements)]


def short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= MAX_SOURCE else text[: MAX_SOURCE - 1] + "…"



def _catches_only_import_errors(handler: ast.ExceptHandler) -> bool:
    """Handlers of `ImportError`/`ModuleNotFoundError` only, that do not re-raise for some modules
    (`if exc.name != "vllm": raise` targets one missing module on purpose, e.g. documentation builds)."""
    if any(isinstance(n, ast.If) and any(isinstance(r, ast.Raise) for r in walk_nodes(n)) for n in handler.body):
        return False
    kind = handler.type
    names = [dotted(e) for e in kind.elts] if isinstance(kind, ast.Tuple) else [dotted(kind)] if kind is not None else [None]
    return all(n is not None and n.rpartition(".")[2] in IMPORT_ERRORS for n in names)


def _import_only(statements: list[ast.stmt]) -> bool:
    """A try body that can raise ImportError only through its imports (and the calls of what they bound)."""
    saw_import = False
    imported: set[str] = set()
    for stmt in statements:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            saw_import = True
            imported.update((alias.asname or alias.name).partition(".")[0] for alias in stmt.names)
        elif isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            continue
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, (ast.Constant, ast.Name)):
            continue
        elif not _uses_only(stmt, imported):
            return False
    return saw_import


def _uses_only(stmt: ast.stmt, imported: set[str]) -> bool:
    """`setproctitle.setproctitle("x")` after `import setproctitle`: one call of what the try imported."""
    value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    if not isinstance(value, ast.Call):
        return False
    head = dotted(value.func)
    return head is not None and head.partition(".")[0] in imported


def _calls_after_imports(statements: list[ast.stmt]) -> int:
    """How many statements of an import-only try body call what it imported (each could raise ImportError itself)."""
    return sum(1 for stmt in statements if isinstance(stmt, (ast.Expr, ast.Assign)) and isinstance(stmt.value, ast.Call))


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    package = module if is_package else module.rpartition(".")[0]
    parts = package.split(".") if package else []
    parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
    return ".".join([*parts, node.module] if node.module else parts)


def import_facts(statements: list[ast.stmt], module: str, is_package: bool) -> list[list[Any]]:
    """`[module, names or None, line, as written]` of each import statement."""
    found: list[list[Any]] = []
    for stmt in statements:
        if isinstance(stmt, ast.Import):
            found += [[alias.name, None, stmt.lineno, f"import {alias.name}"] for alias in stmt.names]
        elif isinstance(stmt, ast.ImportFrom):
            found.append([_absolute(stmt, module, is_package), [a.name for a in stmt.names], stmt.lineno, short(stmt)])
    return found


def _assigned_names(statements: list[ast.stmt]) -> list[str]:
    names: list[str] = []
    for stmt in statements:
        for node in walk_nodes(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.append(node.id)
    return names


def _fallback_checks(tree: ast.Module, names: set[str]) -> dict[str, list[int]]:
    """Lines that test a fallback name (`x is None`, `not HAS_X`, `if HAS_X:`)."""
    found: dict[str, list[int]] = {}
    for node in walk_nodes(tree):
        tested: ast.AST | None = None
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            if isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None:
                tested = node.left
        elif isinstance(node, (ast.If, ast.IfExp, ast.While)):
            tested = node.test.operand if isinstance(node.test, ast.UnaryOp) and isinstance(node.test.op, ast.Not) else node.test
        if isinstance(tested, ast.Name) and tested.id in names:
            lines = found.setdefault(tested.id, [])
            if node.lineno not in lines:
                lines.append(node.lineno)
    return found



def try_site(node: ast.Try, tree: ast.Module, context: ModuleContext) -> dict[str, Any] | None:
    """The facts of an ImportError guard, or None when the `try` is something else."""
    if not node.handlers or not _import_only(node.body):
        return None
    handlers = [h for h in node.handlers if _catches_only_import_errors(h)]
    if not handlers or len(handlers) != len(node.handlers):
        return None
    fallback = set(_assigned_names([s for h in handlers for s in h.body]))
    inside = {line for h in handlers for line in range(h.lineno, (h.end_lineno or h.lineno) + 1)}
    checks = {name: [line for line in lines if line not in inside] for name, lines in _fallback_checks(tree, fallback).items()}
    return {
        "k": "try", "line": node.lineno, "col": node.col_offset,
        "imports": import_facts(node.body, context.module, context.is_package),
        "handlers": [[h.lineno, h.col_offset, *(span(h.body) or [h.lineno, h.lineno])] for h in handlers],
        "orelse": span(node.orelse), "fallback": sorted(fallback), "checks": {k: v for k, v in checks.items() if v},
        **({"calls": calls} if (calls := _calls_after_imports(node.body)) else {}),
    }
