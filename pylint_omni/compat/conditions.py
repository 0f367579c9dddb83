"""The compat scanner: every environment test of a module, as JSON-ready facts (stdlib `ast`).

Handed to the index as `compat.conditions` (see `checker.AUDITED_SCANNERS`), so it runs
once per audited file (tests aside) and is cached with the file. Per module it records:
- `sites`: `if`/`elif` statements and conditional expressions whose test compares a
  version (`sys.version_info`, `torch.__version__`, `importlib.metadata.version`,
  version flags and helpers, see `subjects`) or probes a third-party module for a
  feature (`hasattr(vllm.utils, "cdiv")`), and `try` statements whose body only
  imports and whose handlers only catch `ImportError`/`ModuleNotFoundError` (`guards`);
- `names`: module-level names bound to a version (`TORCH_VERSION = version.parse(torch.__version__)`)
  or to a version test (`IS_TORCH_2 = ...`), including `"NAME": lambda: ...` entries
  of a table read through a module `__getattr__`;
- `helpers`: module-level functions, named for it, that compare a version with a parameter
  (`def vllm_version_is(v): return Version(vllm.__version__) == Version(v)`);
- `imports`/`bound`/`raises`: the module's unconditional imports, the names it binds
  and whether it raises `ImportError` itself, to judge whether importing it can fail.
Tests are kept symbolic (`and`/`or`/`not`, comparisons, calls, references to other
modules); the checker evaluates them against what the project declares.
"""

from __future__ import annotations

import ast
import functools
import re
from typing import Any

from pylint_omni.compat.guards import IMPORT_ERRORS, import_facts, short, span, try_site
from pylint_omni.compat.subjects import Subject, comparison, op_helper_call, subject_of, threshold_of, VERSION_PARSERS, FLIPPED, OPS
from pylint_omni.index.scan.ast_helpers import child_nodes, dotted, literal_str, walk_nodes
from pylint_omni.index.scanners import ModuleContext

# A module whose text has none of these tests no environment (checked before any walk).
MAY_TEST_ENVIRONMENT = re.compile(r"(\b|_)version|ImportError|ModuleNotFoundError|at_?least|_\d+_\d+\b|hasattr\(\w+[.,]", re.I)
# Imported names worth resolving as version flags (`TORCH_VERSION_AT_LEAST_2_4`, `IS_TORCH_2`, `envs.PY311`).
FLAG_NAME = re.compile(r"version|at_?least|newer|older|_(ge|gt|lt|le)_|torch|vllm|python|py3|transformers|triton|\d_\d", re.I)
Sym = dict[str, Any]
UNKNOWN: Sym = {"t": "?"}


def has_atoms(sym: Sym) -> bool:
    kind = sym.get("t")
    if kind in ("cmp", "call", "ref", "has"):
        return True
    if kind in ("and", "or"):
        return any(has_atoms(a) for a in sym["a"])
    if kind == "not":
        return has_atoms(sym["a"])
    return False


class _Scope:
    """Names assigned in one function body (nested definitions excluded), read on first use."""

    def __init__(self, body: list[ast.stmt]) -> None:
        self.body = body

    @functools.cached_property
    def values(self) -> dict[str, list[ast.AST]]:
        values: dict[str, list[ast.AST]] = {}
        stack: list[ast.AST] = list(self.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                values.setdefault(node.targets[0].id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                values.setdefault(node.target.id, []).append(node.value)
            if isinstance(node, ast.stmt):
                stack.extend(n for n in child_nodes(node) if isinstance(n, ast.stmt))
        return values


class _Reader:
    """Turns expressions of one module into subjects and symbolic conditions."""

    def __init__(self, tree: ast.Module, context: ModuleContext) -> None:
        self.module = context.module
        self.package_top = context.module.partition(".")[0]
        self.imports = context.imports
        self.scopes: list[_Scope] = []
        self.module_scope = _Scope([s for s in tree.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))])
        self.helpers: dict[str, dict[str, Any]] = {}
        self.functions = {s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self._busy: set[str] = set()

    def is_project(self, module: str) -> bool:
        return module == self.package_top or module.startswith(self.package_top + ".")

    def lookup(self, name: str) -> Subject | None:
        """The version a local or module name holds (any assignment that reads one)."""
        if name in self._busy:
            return None
        self._busy.add(name)
        try:
            for scope in [*self.scopes[-1:], self.module_scope]:
                values = scope.values.get(name)
                if values:
                    found = [s for s in (subject_of(v, self.imports, self.lookup, self.is_project) for v in values) if s]
                    return found[0] if found and all(f == found[0] for f in found) else None
            return None
        finally:
            self._busy.discard(name)

    def flag(self, name: str) -> Sym | None:
        """The version test a local or module name holds (`IS_TORCH_2 = ...`)."""
        if name in self._busy:
            return None
        for scope in [*self.scopes[-1:], self.module_scope]:
            values = scope.values.get(name)
            if values:
                if len(values) != 1:
                    return None
                self._busy.add(name)
                try:
                    found = self.cond(values[0])
                finally:
                    self._busy.discard(name)
                return {**found, "flag": name} if has_atoms(found) else None
        return None

    def cond(self, node: ast.AST) -> Sym:
        if isinstance(node, ast.BoolOp):
            return {"t": "and" if isinstance(node.op, ast.And) else "or", "a": [self.cond(v) for v in node.values]}
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return {"t": "not", "a": self.cond(node.operand)}
        if isinstance(node, ast.Compare):
            parts = []
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                found = comparison(left, op, right, self.imports, self.lookup, self.is_project)
                parts.append({**found, "src": short(node)} if found else UNKNOWN)
                left = right
            return parts[0] if len(parts) == 1 else {"t": "and", "a": parts}
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Name):
            found = self.flag(node.id)
            if found is not None:
                return found
            target = self.imports.get(node.id)
            if target and FLAG_NAME.search(node.id) and self.is_project(target.rpartition(".")[0]):
                return {"t": "ref", "to": target, "src": node.id}
            return UNKNOWN
        if isinstance(node, ast.Attribute):
            target = dotted(node)
            head = (target or "").partition(".")[0]
            if target and FLAG_NAME.search(node.attr) and head in self.imports and self.is_project(self.imports[head]):
                resolved = self.imports[head] + target[len(head):]
                return {"t": "ref", "to": resolved, "src": target}
        return UNKNOWN

    def _call(self, node: ast.Call) -> Sym:
        found = op_helper_call(node, self.imports)
        if found is not None:
            return {**found, "src": short(node)}
        name = dotted(node.func) or ""
        if name == "hasattr" and len(node.args) == 2 and literal_str(node.args[1]) and dotted(node.args[0]):
            target = dotted(node.args[0]) or ""
            head = target.partition(".")[0]
            if head in self.imports and not self.is_project(self.imports[head]):
                module = self.imports[head] + target[len(head):]
                return {"t": "has", "mod": module, "name": literal_str(node.args[1]), "src": short(node)}
            return UNKNOWN
        args = [literal_str(a) for a in node.args]
        if not args or node.keywords or any(a is None for a in args) or not any(threshold_of(a) for a in node.args):
            return UNKNOWN
        if name in self.functions:
            return {"t": "call", "f": f"{self.module}.{name}", "args": args, "src": short(node)}
        head = name.partition(".")[0]
        if head in self.imports:
            target = self.imports[head] + name[len(head):]
            if self.is_project(target.rpartition(".")[0]):
                return {"t": "call", "f": target, "args": args, "src": short(node)}
        return UNKNOWN

    def helper(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, Any] | None:
        """`{"s": subject, "op": "==", "param": 0}` when the function compares a version with a parameter."""
        params = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
        if not params:
            return None
        self.scopes.append(_Scope(func.body))
        try:
            for node in walk_nodes(func):
                if not (isinstance(node, ast.Return) and isinstance(node.value, ast.Compare) and len(node.value.ops) == 1):
                    continue
                compare = node.value
                symbol = OPS.get(type(compare.ops[0]))
                for subject_side, param_side, flip in ((compare.left, compare.comparators[0], False), (compare.comparators[0], compare.left, True)):
                    subject = subject_of(subject_side, self.imports, self.lookup, self.is_project)
                    param = _param_of(param_side, params)
                    if subject is not None and param is not None and symbol:
                        return {"s": {k: v for k, v in subject.items() if k != "str"}, "op": FLIPPED[symbol] if flip else symbol, "param": param}
            return None
        finally:
            self.scopes.pop()


def _param_of(node: ast.AST, params: list[str]) -> int | None:
    while isinstance(node, ast.Call) and len(node.args) == 1 and (dotted(node.func) or "").rpartition(".")[2] in VERSION_PARSERS:
        node = node.args[0]
    if isinstance(node, ast.Attribute) and node.attr in ("release", "base_version"):
        return _param_of(node.value, params)
    if isinstance(node, ast.Name) and node.id in params:
        return params.index(node.id)
    return None


def _sites(tree: ast.Module, reader: _Reader, context: ModuleContext) -> list[dict[str, Any]]:
    sites: list[dict[str, Any]] = []

    def walk(node: ast.AST) -> None:
        entered = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        if entered:
            reader.scopes.append(_Scope(node.body))  # type: ignore[attr-defined]
        if isinstance(node, ast.If):
            test = reader.cond(node.test)
            if has_atoms(test):
                sites.append({"k": "if", "line": node.lineno, "col": node.col_offset, "test": test, "src": short(node.test), "body": span(node.body),
                              "orelse": span(node.orelse), "elif": len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If),
                              "refuses": isinstance(node.body[-1], ast.Raise) and not node.orelse})
        elif isinstance(node, ast.IfExp):
            test = reader.cond(node.test)
            if has_atoms(test):
                sites.append({"k": "ifexp", "line": node.lineno, "col": node.col_offset, "test": test, "src": short(node.test),
                              "body": [node.body.lineno, node.body.end_lineno], "orelse": [node.orelse.lineno, node.orelse.end_lineno],
                              "body_src": short(node.body), "orelse_src": short(node.orelse)})
        elif isinstance(node, ast.Try):
            site = try_site(node, tree, context)
            if site is not None:
                sites.append(site)
        for child in child_nodes(node):
            walk(child)
        if entered:
            reader.scopes.pop()

    walk(tree)
    return sites


def _module_names(tree: ast.Module, reader: _Reader) -> dict[str, Any]:
    names: dict[str, Any] = {}
    has_getattr = any(isinstance(s, ast.FunctionDef) and s.name == "__getattr__" for s in tree.body)
    for stmt in tree.body:
        if not (isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in (t for t in targets if isinstance(t, ast.Name)):
            subject = reader.lookup(target.id)
            if subject is not None:
                names[target.id] = {"subject": {k: v for k, v in subject.items()}}
            else:
                flag = reader.flag(target.id)
                if flag is not None:
                    names[target.id] = {"cond": flag}
        if has_getattr and isinstance(stmt.value, ast.Dict):
            for key, value in zip(stmt.value.keys, stmt.value.values):
                name = literal_str(key)
                if name and isinstance(value, ast.Lambda):
                    subject = subject_of(value.body, reader.imports, reader.lookup, reader.is_project)
                    if subject is not None:
                        names[name] = {"subject": subject}
    return names


def _may_raise_import_error(tree: ast.Module) -> bool:
    for stmt in tree.body:
        for node in ([stmt] if not isinstance(stmt, ast.If) else [stmt, *stmt.body, *stmt.orelse]):
            if isinstance(node, ast.Raise) and node.exc is not None:
                func = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if (dotted(func) or "").rpartition(".")[2] in IMPORT_ERRORS:
                    return True
    return False


def _module_level_statements(tree: ast.Module) -> list[ast.stmt]:
    """Statements that run when the module is imported (function and class bodies excluded)."""
    found: list[ast.stmt] = []
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        stmt = stack.pop()
        found.append(stmt)
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                stack.extend(getattr(stmt, field, ()))
            if isinstance(stmt, ast.ExceptHandler):
                stack.extend(stmt.body)
    return found


def _bound_names(tree: ast.Module) -> set[str]:
    """Names the module binds at import time: definitions, imports, assignment targets."""
    bound: set[str] = set()
    for stmt in _module_level_statements(tree):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name.partition(".")[0]) for a in stmt.names)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign, ast.For)) \
                else [i.optional_vars for i in stmt.items if i.optional_vars is not None]
            for target in targets:
                bound.update(n.id for n in walk_nodes(target) if isinstance(n, ast.Name))
    return bound


def scan_compat(tree: ast.Module, context: ModuleContext) -> dict[str, Any]:
    """The compat facts of one module (see the module docstring)."""
    # Kept small: every run loads these facts of every module from the cache. `imports` is always present.
    module_imports = import_facts([s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))], context.module, context.is_package)
    facts: dict[str, Any] = {"imports": [item[:2] for item in module_imports], "bound": sorted(_bound_names(tree))}
    if _may_raise_import_error(tree):
        facts["raises"] = True
    if not MAY_TEST_ENVIRONMENT.search(context.source):
        return facts  # most modules test no environment: one regex instead of a walk
    reader = _Reader(tree, context)
    helpers = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and FLAG_NAME.search(stmt.name):
            found = reader.helper(stmt)
            if found is not None:
                helpers[stmt.name] = found
    found_sites, names = _sites(tree, reader, context), _module_names(tree, reader)
    facts.update({key: value for key, value in (("sites", found_sites), ("names", names), ("helpers", helpers)) if value})
    return facts
