"""What a module binds at its top level: the export table the reference graph resolves through.

- `bindings`: name -> [kind, target] for every module-level name: `class`, `def`,
  `import` (target: the dotted path it binds), `alias` (`X = pkg.mod.Y`: target the
  chain), `var` (anything else: tables, constants). Names bound inside a top-level
  `if`/`try` (optional imports, `TYPE_CHECKING` blocks) count too.
- `alternatives`: name -> the other import targets of a name that exclusive top-level
  branches bind (`if nvtx: from .nvtx import mark ... else: from .base import mark`):
  `bindings` keeps the last one, and a use of the name uses each of them; and the `else`
  arm of a conditional alias (`Base = A if ok else B`: `bindings` keeps `A`).
- `all`: the names `__all__` lists (re-exports, not uses).
- `only_imports`: the top level is nothing but imports (a re-export module).
- `lazy`: a lazy-export package's names -> the dotted path its `__getattr__` loads:
  `{"Name": ".module"}` / `{"Name": "pkg.mod:Attr"}` tables read by `__getattr__`, and
  `if name == "Name": from .mod import Name` chains.
"""

from __future__ import annotations

import ast
from typing import Any, Iterator

from pylint_omni.index.scan.ast_helpers import dotted, literal_str, walk_nodes

MODULE_PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:")


def absolute_module(base: str | None, level: int, package: str) -> str:
    """`from ..x import y` seen from `package`: the absolute module it names."""
    if not level:
        return base or ""
    anchor = package.split(".") if package else []
    if level > 1:
        anchor = anchor[: len(anchor) - (level - 1)]
    return ".".join([*anchor, base] if base else anchor)


def top_level_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, looking inside top-level `if`/`try`/`with` blocks."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            yield from top_level_statements(stmt.body)
            yield from top_level_statements(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            yield from top_level_statements(stmt.body)
            for handler in stmt.handlers:
                yield from top_level_statements(handler.body)
            yield from top_level_statements(stmt.orelse)
            yield from top_level_statements(stmt.finalbody)
        elif isinstance(stmt, ast.With):
            yield from top_level_statements(stmt.body)
        else:
            yield stmt


def branch_alternatives(body: list[ast.stmt], package: str) -> dict[str, list[str]]:
    """Names that the branches of one top-level `if`/`try` import from different places: name -> the targets
    before the last one (which `module_bindings` keeps). Only one of the branches runs, and which depends on the
    machine, so every target is live when the name is."""
    found: dict[str, list[str]] = {}
    for stmt in top_level_statements_with_branches(body):
        branches = [stmt.body, stmt.orelse] if isinstance(stmt, ast.If) else [stmt.body, *(h.body for h in stmt.handlers)]
        targets: dict[str, list[str]] = {}
        for branch in branches:
            for name, target in _branch_imports(branch, package):
                if target not in targets.setdefault(name, []):
                    targets[name].append(target)
        for name, seen in targets.items():
            if len(seen) > 1:
                found.setdefault(name, []).extend(t for t in seen[:-1] if t not in found[name])
    return found


def conditional_aliases(tree: ast.Module, module: str, bindings: dict[str, list[str]],
                        imports: dict[str, str]) -> dict[str, list[str]]:
    """`Base = Qwen2VLForConditionalGeneration if deps_available else nn.Module`: name -> the `else` arm's target.
    `module_bindings` (whose `bindings` and `imports` these are) keeps the first arm as the alias; a class built on
    the name extends either."""
    known = imports.keys() | {name for name, bound in bindings.items() if name != "*" and bound[0] in ("class", "def")}
    found: dict[str, list[str]] = {}
    for stmt in top_level_statements(tree.body):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.IfExp) and len(stmt.targets) == 1:
            target, other = stmt.targets[0], dotted(stmt.value.orelse)
            if isinstance(target, ast.Name) and other and other.partition(".")[0] in known:
                found[target.id] = [resolve_written(imports, module, set(bindings), other)]
    return found


def top_level_statements_with_branches(body: list[ast.stmt]) -> Iterator[ast.If | ast.Try]:
    """Top-level `if`/`try` statements, nested ones included (an `elif` is an `if` in the `else`)."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            yield stmt
            yield from top_level_statements_with_branches(stmt.body)
            yield from top_level_statements_with_branches(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            yield stmt
            yield from top_level_statements_with_branches(stmt.body)
            for handler in stmt.handlers:
                yield from top_level_statements_with_branches(handler.body)


def imported_names(stmt: ast.Import | ast.ImportFrom, package: str) -> Iterator[tuple[str, str]]:
    """(local name, dotted target) each alias of an import binds; `from x import *` binds no one name."""
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            head = alias.name.split(".")[0]
            yield (alias.asname, alias.name) if alias.asname else (head, head)
        return
    base = absolute_module(stmt.module, stmt.level, package)
    for alias in stmt.names:
        if alias.name != "*":
            yield alias.asname or alias.name, f"{base}.{alias.name}" if base else alias.name


def _branch_imports(branch: list[ast.stmt], package: str) -> Iterator[tuple[str, str]]:
    """(local name, dotted target) of the imports one branch runs, nested branches included."""
    for stmt in top_level_statements(branch):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            yield from imported_names(stmt, package)


def resolve_written(imports: dict[str, str], module: str, defined: set[str], written: str) -> str:
    """`written` (`mod.Name`) as the dotted path it spells through the module's imports and its own definitions."""
    head, _, rest = written.partition(".")
    if head in imports:
        return imports[head] + ("." + rest if rest else "")
    if head in defined:
        return f"{module}.{written}"
    return written


def module_bindings(tree: ast.Module, module: str, package: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """(bindings, module-level imports) of a module."""
    bindings: dict[str, list[str]] = {}
    imports: dict[str, str] = {}
    statements = list(top_level_statements(tree.body))
    defined = {s.name for s in statements if isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))}
    for stmt in statements:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            if isinstance(stmt, ast.ImportFrom) and any(alias.name == "*" for alias in stmt.names):
                bindings.setdefault("*", []).append(absolute_module(stmt.module, stmt.level, package))
            for local, target in imported_names(stmt, package):
                imports[local] = target
                bindings[local] = ["import", target]
        elif isinstance(stmt, ast.ClassDef):
            bindings[stmt.name] = ["class", ""]
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bindings[stmt.name] = ["def", ""]
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            value = stmt.value
            for target in targets:
                if not isinstance(target, ast.Name) or target.id == "__all__":
                    continue
                chain = dotted(value.body if isinstance(value, ast.IfExp) else value) if value is not None else None
                if chain and chain.partition(".")[0] in (imports.keys() | defined | bindings.keys()):
                    bindings[target.id] = ["alias", resolve_written(imports, module, defined | set(bindings), chain)]
                elif target.id not in bindings or bindings[target.id][0] == "var":
                    bindings[target.id] = ["var", ""]
    return bindings, imports


def rebound_imports(tree: ast.Module) -> dict[str, int]:
    """Imported names a later module-level `def` or `class` binds again: name -> the last line of that definition.

    Python looks a global name up when the code runs: a function body (run after the module has loaded) and any
    module-level code after the definition (a default argument, a decorator, a call) use the definition, not the
    import (`from .shared import regenerate` then `def regenerate(...)`: the local one is the live one). The
    definition's own decorators, defaults and bases run before it binds the name: they use the import
    (`def get_items(items = Depends(get_items))`, FastAPI's way to name a route after its dependency)."""
    imported: dict[str, int] = {}
    rebound: dict[str, int] = {}
    for stmt in top_level_statements(tree.body):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                local = alias.asname or alias.name.split(".")[0]
                imported[local] = stmt.lineno
                rebound.pop(local, None)  # imported again after the definition: the import is the last binding
        elif isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in imported:
            rebound[stmt.name] = stmt.end_lineno or stmt.lineno
    return rebound


def only_imports(tree: ast.Module) -> bool:
    """The module's top level is imports, a docstring and `__all__`, nothing else: an export table."""
    def export_statement(stmt: ast.stmt) -> bool:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            return True
        if isinstance(stmt, ast.Expr):
            return isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
        return bool(targets) and all(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)
    return any(isinstance(s, (ast.Import, ast.ImportFrom)) for s in tree.body) and all(map(export_statement, tree.body))


def all_names(tree: ast.Module) -> list[str] | None:
    for stmt in tree.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and stmt.value is not None:
            names = [literal_str(e) for e in getattr(stmt.value, "elts", [])]
            return [n for n in names if n]
    return None


def _module_getattr(tree: ast.Module) -> ast.FunctionDef | None:
    for stmt in top_level_statements(tree.body):
        if isinstance(stmt, ast.FunctionDef) and stmt.name == "__getattr__":
            return stmt
    return None


def _lazy_value(text: str, key: str, package: str) -> str | None:
    """`.module` / `pkg.module` / `pkg.module:Attr` -> the dotted path of the exported object."""
    if not text or not set(text) <= MODULE_PATH_CHARS:
        return None
    module_part, _, attr = text.partition(":")
    level = len(module_part) - len(module_part.lstrip("."))
    module_path = absolute_module(module_part.lstrip(".") or None, level, package) if level else module_part
    if not module_path:
        return None
    return f"{module_path}.{attr or key}"


def lazy_tables(tree: ast.Module, package: str) -> dict[str, dict[str, Any]]:
    """Module-level `{"Name": ".module"}` tables that the module's `__getattr__` reads.

    name -> {"line": table line, "entries": {key: (dotted target, line, col)}}.
    """
    getattr_def = _module_getattr(tree)
    if getattr_def is None:
        return {}
    read = {n.id for n in walk_nodes(getattr_def) if isinstance(n, ast.Name)}
    # `import_module(f"{__name__}.{module_name}")`: a bare value (`"feature_store"`) is a submodule of this package.
    relative = any(isinstance(n, ast.JoinedStr) and n.values and isinstance(n.values[0], ast.FormattedValue)
                   and isinstance(n.values[0].value, ast.Name) and n.values[0].value.id in ("__name__", "__package__")
                   for n in walk_nodes(getattr_def))
    found: dict[str, dict[str, Any]] = {}
    for stmt in top_level_statements(tree.body):
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else getattr(stmt, "target", None)
        value = getattr(stmt, "value", None)
        if not isinstance(target, ast.Name) or target.id not in read or not isinstance(value, ast.Dict):
            continue
        entries: dict[str, tuple[str, int, int]] = {}
        for key_node, val in zip(value.keys, value.values):
            key, text = literal_str(key_node), literal_str(val)
            if isinstance(val, (ast.Tuple, ast.List)) and val.elts:
                parts = [literal_str(e) for e in val.elts]
                text = ":".join(parts) if all(parts) and len(parts) == 2 else None  # type: ignore[arg-type]
            if relative and text and not text.startswith(".") and "." not in text and ":" not in text:
                text = "." + text
            resolved = _lazy_value(text or "", key or "", package) if key else None
            if key is None or resolved is None:
                entries = {}
                break
            entries[key] = (resolved, key_node.lineno, key_node.col_offset)
        if entries:
            found[target.id] = {"line": stmt.lineno, "end": stmt.end_lineno or stmt.lineno, "entries": entries}
    return found


def lazy_branches(tree: ast.Module, package: str) -> dict[str, tuple[str, int, int]]:
    """`if name == "X": from .mod import X; return X` inside a module `__getattr__`."""
    getattr_def = _module_getattr(tree)
    if getattr_def is None or not getattr_def.args.args:
        return {}
    param = getattr_def.args.args[0].arg
    found: dict[str, tuple[str, int, int]] = {}
    for node in walk_nodes(getattr_def):
        if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
            continue
        test = node.test
        if not (isinstance(test.left, ast.Name) and test.left.id == param and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
            continue
        key = literal_str(test.comparators[0])
        if key is None:
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.ImportFrom):
                base = absolute_module(stmt.module, stmt.level, package)
                for alias in stmt.names:
                    if (alias.asname or alias.name) == key or alias.name == key:
                        found[key] = (f"{base}.{alias.name}", test.comparators[0].lineno, test.comparators[0].col_offset)
    return found


def lazy_exports(tree: ast.Module, package: str) -> dict[str, str]:
    """Every name a lazy-export package serves through `__getattr__` -> its dotted target."""
    exports = {key: target for key, (target, _, _) in lazy_branches(tree, package).items()}
    for table in lazy_tables(tree, package).values():
        exports.update({key: target for key, (target, _, _) in table["entries"].items()})
    return exports
