"""Find a module's registries: string-keyed tables whose values name code.

Forms recognised (module level only, where a registry is declared):
- `dict`: `NAME = {"key": Target, ...}`; a value is a class/function reference, a
  dotted import string, a tuple of strings that assembles a module path, a
  `partial(Target, ...)`, or a lambda;
- `table`: `NAME = [("key", Target, ...), ...]` (list or tuple of tuples);
- `enum`: an Enum whose member values are all import strings;
- `decorator`: `@register_x("key")` on a class or function;
- `setitem`: `NAME["key"] = Target`;
- `register-call`: `NAME.register("key", Target)` or `register_x("key", Target)`;
- `update`: `NAME.update({"key": Target, ...})` at module level;
- `merged`: `NAME = {**A, **B}` (a table made only of other tables: one pseudo-entry `*`);
- `lazy-export`: a package `__getattr__` serving names from `{"Name": ".module"}` or
  `if name == "Name": from .mod import Name` (`scan.bindings`);
- `custom-op`: `direct_register_custom_op("name", fn)` / `@torch.library.custom_op("ns::name")`,
  which a framework turns into `torch.ops.NS.name`.
Each entry keeps its key, position, the target (a dotted path, possibly only a
suffix of the real module path) and the span of lines that belong to the entry itself.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from pylint_omni.index.scan.ast_helpers import dotted, literal_str
from pylint_omni.index.scan.bindings import lazy_branches, lazy_tables
from pylint_omni.index.scan.tokens import DOTTED_PATH

CONSTANT_NAME = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")
REGISTER_CALL = re.compile(r"^_?register\w*$|^\w+_register$|^add_\w+$")
MIN_TABLE_ENTRIES = 2
KEY_KEYWORDS = ("name", "key", "alias", "type_name")
CUSTOM_OP_CALLS = frozenset({"direct_register_custom_op", "register_custom_op"})
CUSTOM_OP_DECORATORS = frozenset({"custom_op", "register_custom_op"})


class _Targets:
    """Turns a table value into a target path, through the module's imports."""

    def __init__(self, imports: dict[str, str], module: str, local_defs: set[str], constants: dict[str, str] | None = None) -> None:
        self.imports = imports
        self.module = module
        self.local_defs = local_defs
        self.constants = constants or {}

    def _fstring(self, node: ast.JoinedStr) -> str | None:
        """`f"{_MODELS}.llama.Llama"` with `_MODELS = "pkg.models"`: the assembled path."""
        parts = []
        for part in node.values:
            text = literal_str(part)
            if text is None and isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name):
                text = self.constants.get(part.value.id)
            if text is None:
                return None
            parts.append(text)
        return "".join(parts)

    def name(self, written: str) -> str:
        head, _, rest = written.partition(".")
        if head in self.imports:
            return self.imports[head] + ("." + rest if rest else "")
        if head in self.local_defs:
            return f"{self.module}.{written}"
        return written

    def of(self, node: ast.AST) -> dict[str, Any] | None:
        """Target of a value that names code, or None when the value is plain data."""
        if isinstance(node, (ast.Name, ast.Attribute)):
            written = dotted(node)
            if not written or CONSTANT_NAME.match(written.rpartition(".")[2]):
                return None
            return {"target": self.name(written), "suffix": False}
        text = literal_str(node) if not isinstance(node, ast.JoinedStr) else self._fstring(node)
        if text is not None:
            if DOTTED_PATH.match(text):
                return {"target": text.replace(":", "."), "suffix": False}
            return None
        if isinstance(node, (ast.Tuple, ast.List)):
            parts = [literal_str(elt) for elt in node.elts]
            # `("llama", "LlamaForCausalLM")` names code; a list of names (`["encoder_hidden_states", "hidden_states"]`,
            # the output keys a block returns) is data unless its last name is a class's
            if isinstance(node, ast.List) and not (parts and parts[-1] and parts[-1][:1].isupper()):
                return None
            if len(parts) >= 2 and all(p is not None and all(IDENTIFIER.match(x) for x in p.replace(":", ".").split(".")) for p in parts):
                return {"target": ".".join(p.replace(":", ".") for p in parts), "suffix": True}  # type: ignore[union-attr]
            return None
        if isinstance(node, ast.Call):
            func = dotted(node.func) or ""
            if func.rpartition(".")[2] == "partial" and node.args:
                return self.of(node.args[0])
            parts = [literal_str(a) for a in node.args]
            if len(parts) >= 2 and all(parts):
                return {"target": ".".join(parts), "suffix": True}  # type: ignore[arg-type]
            return None
        if isinstance(node, ast.Lambda):
            return {"target": None, "suffix": False}
        return None


def _entry(key: str, node: ast.AST, span: tuple[int, int], target: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "key": key,
        "line": node.lineno,
        "col": node.col_offset,
        "span": list(span),
        "target": target["target"] if target else None,
        "suffix": bool(target and target["suffix"]),
    }


def _dict_registry(name: str, stmt: ast.stmt, value: ast.Dict, targets: _Targets) -> dict[str, Any] | None:
    if len(value.keys) < MIN_TABLE_ENTRIES or any(k is None or literal_str(k) is None for k in value.keys):
        return None
    entries = []
    for key, val in zip(value.keys, value.values):
        target = targets.of(val)
        if target is None:
            return None
        entries.append(_entry(literal_str(key), key, (key.lineno, val.end_lineno or key.lineno), target))  # type: ignore[arg-type]
    return {"name": name, "form": "dict", "line": stmt.lineno, "end": stmt.end_lineno, "entries": entries}


def _table_registry(name: str, stmt: ast.stmt, value: ast.List | ast.Tuple, targets: _Targets) -> dict[str, Any] | None:
    if len(value.elts) < MIN_TABLE_ENTRIES:
        return None
    entries = []
    for row in value.elts:
        if not isinstance(row, (ast.Tuple, ast.List)) or len(row.elts) < 2 or literal_str(row.elts[0]) is None:
            return None
        rest = row.elts[1:]
        target = targets.of(rest[0]) or (targets.of(ast.Tuple(elts=rest)) if len(rest) >= 2 else None)
        if target is None:
            return None
        entries.append(_entry(literal_str(row.elts[0]), row.elts[0], (row.lineno, row.end_lineno or row.lineno), target))  # type: ignore[arg-type]
    return {"name": name, "form": "table", "line": stmt.lineno, "end": stmt.end_lineno, "entries": entries}


def _enum_registry(cls: ast.ClassDef) -> dict[str, Any] | None:
    if not any((dotted(b) or "").endswith("Enum") for b in cls.bases):
        return None
    entries = []
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            text = literal_str(stmt.value)
            if text is None or not DOTTED_PATH.match(text):
                return None
            target = {"target": text.replace(":", "."), "suffix": False}
            entries.append(_entry(stmt.targets[0].id, stmt.targets[0], (stmt.lineno, stmt.end_lineno or stmt.lineno), target))
    if len(entries) < MIN_TABLE_ENTRIES:
        return None
    return {"name": cls.name, "form": "enum", "line": cls.lineno, "end": cls.end_lineno, "entries": entries}


def _decorator_key(deco: ast.Call) -> str | None:
    """The key of `@register("key")` or `@REG.register_module(name="key")`."""
    if deco.args:
        return literal_str(deco.args[0])
    for keyword in deco.keywords:
        if keyword.arg in KEY_KEYWORDS:
            return literal_str(keyword.value)
    return None


def _custom_op(call: ast.Call, targets: _Targets, stmt: ast.stmt) -> dict[str, Any] | None:
    """`direct_register_custom_op(op_name="x", op_func=f, target_lib=...)`: key `x`, target `f`."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    name_node = keywords.get("op_name") or (call.args[0] if call.args else None)
    func_node = keywords.get("op_func") or (call.args[1] if len(call.args) > 1 else None)
    key = literal_str(name_node)
    if key is None or name_node is None:
        return None
    target = targets.of(func_node) if func_node is not None else None
    return _entry(key, name_node, (stmt.lineno, stmt.end_lineno or stmt.lineno), target)


def _op_decorator(deco: ast.AST, module: str, stmt: ast.stmt) -> dict[str, Any] | None:
    """`@torch.library.custom_op("ns::name", ...)` on a function: key `name`."""
    if not isinstance(deco, ast.Call) or (dotted(deco.func) or "").rpartition(".")[2] not in CUSTOM_OP_DECORATORS:
        return None
    qualified = literal_str(deco.args[0]) if deco.args else None
    if not qualified:
        return None
    key = qualified.rpartition("::")[2]
    target = {"target": f"{module}.{stmt.name}", "suffix": False}  # type: ignore[attr-defined]
    return _entry(key, deco.args[0], (deco.lineno, deco.end_lineno or deco.lineno), target)


def _lazy_registries(tree: ast.Module, package: str) -> list[dict[str, Any]]:
    """Lazy-export maps of a package: one registry per table, one for `if name == ...` branches."""
    found = []
    for name, table in lazy_tables(tree, package).items():
        entries = [
            _entry(key, ast.Constant(key, lineno=line, col_offset=col), (line, line), {"target": target, "suffix": False})
            for key, (target, line, col) in table["entries"].items()
        ]
        found.append({"name": name, "form": "lazy-export", "line": table["line"], "end": table["end"], "entries": entries})
    branches = lazy_branches(tree, package)
    if branches:
        entries = [
            _entry(key, ast.Constant(key, lineno=line, col_offset=col), (line, line), {"target": target, "suffix": False})
            for key, (target, line, col) in branches.items()
        ]
        first = min(e["line"] for e in entries)
        found.append({"name": "__getattr__", "form": "lazy-export", "line": first, "end": max(e["line"] for e in entries), "entries": entries})
    return found


def _merged(name: str, stmt: ast.stmt, target: ast.Name, value: ast.Dict) -> dict[str, Any] | None:
    """`NAME = {**A, **B}`: a table made only of other tables."""
    if not value.keys or any(k is not None for k in value.keys) or not all(isinstance(v, (ast.Name, ast.Attribute)) for v in value.values):
        return None
    entry = _entry("*", target, (stmt.lineno, stmt.end_lineno or stmt.lineno), None)
    return {"name": name, "form": "merged", "line": stmt.lineno, "end": stmt.end_lineno, "entries": [entry]}


def find_registries(
    tree: ast.Module,
    imports: dict[str, str],
    module: str,
    is_package: bool = False,
    decorator_pattern: re.Pattern[str] = REGISTER_CALL,
) -> list[dict[str, Any]]:
    """All registries declared at module level of `tree`."""
    local_defs = {
        s.name for s in tree.body if isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
    }
    constants = {
        s.targets[0].id: text for s in tree.body
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and (text := literal_str(s.value)) is not None
    }
    targets = _Targets(imports, module, local_defs, constants)
    found: dict[str, dict[str, Any]] = {}

    def add_entry(name: str, form: str, entry: dict[str, Any], stmt: ast.stmt) -> None:
        reg = found.setdefault(name, {"name": name, "form": form, "line": stmt.lineno, "end": stmt.end_lineno, "entries": []})
        reg["entries"].append(entry)

    for stmt in tree.body:
        target_name, value = None, None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target_name, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target_name, value = stmt.target, stmt.value
        if isinstance(target_name, ast.Name) and target_name.id != "__all__":
            reg = None
            if isinstance(value, ast.Dict):
                reg = _dict_registry(target_name.id, stmt, value, targets) or _merged(target_name.id, stmt, target_name, value)
            elif isinstance(value, (ast.List, ast.Tuple)):
                reg = _table_registry(target_name.id, stmt, value, targets)
            if reg:
                found[reg["name"]] = reg
        elif isinstance(target_name, ast.Subscript) and isinstance(target_name.value, ast.Name):
            key = literal_str(target_name.slice)
            target = targets.of(value) if value is not None else None
            if key is not None and target is not None:
                entry = _entry(key, stmt, (stmt.lineno, stmt.end_lineno or stmt.lineno), target)
                add_entry(target_name.value.id, "setitem", entry, stmt)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            func = dotted(call.func) or ""
            owner, _, tail = func.rpartition(".")
            key = literal_str(call.args[0]) if call.args else None
            rest = call.args[1:]
            # register("key", Target) or register("key", "pkg.module", "ClassName")
            target = targets.of(ast.Tuple(elts=rest)) if len(rest) >= 2 else (targets.of(rest[0]) if rest else None)
            if tail in CUSTOM_OP_CALLS:
                entry = _custom_op(call, targets, stmt)
                if entry is not None:
                    add_entry("torch.ops", "custom-op", entry, stmt)
            elif key is not None and target is not None and decorator_pattern.match(tail):
                entry = _entry(key, call, (stmt.lineno, stmt.end_lineno or stmt.lineno), target)
                add_entry(func, "register-call", entry, stmt)
            elif tail == "update" and owner and "." not in owner and len(call.args) == 1 and isinstance(call.args[0], ast.Dict):
                update = _dict_registry(owner, stmt, call.args[0], targets)
                for entry in (update or {}).get("entries", []):
                    add_entry(owner, "update", entry, stmt)
        elif isinstance(stmt, ast.ClassDef):
            reg = _enum_registry(stmt)
            if reg:
                found[reg["name"]] = reg
        if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in stmt.decorator_list:
                op = _op_decorator(deco, module, stmt)
                if op is not None:
                    add_entry("torch.ops", "custom-op", op, stmt)
                    continue
                if not isinstance(deco, ast.Call):
                    continue
                func = dotted(deco.func) or ""
                key = _decorator_key(deco)
                if key is None or not decorator_pattern.match(func.rpartition(".")[2]):
                    continue
                target = {"target": f"{module}.{stmt.name}", "suffix": False}
                entry = _entry(key, deco, (deco.lineno, deco.end_lineno or deco.lineno), target)
                add_entry(func, "decorator", entry, stmt)
    package = module if is_package else module.rpartition(".")[0]
    lazy = _lazy_registries(tree, package)
    lazy_names = {reg["name"] for reg in lazy}
    return [*(r for r in found.values() if r["name"] not in lazy_names), *lazy]
