"""How a module uses tables: the read and write sites of registries, with the key of each read.

A use is recorded as `[chain, line, role, detail]`: `chain` the table's dotted path
(`pkg.mod.TABLE`, `pkg.mod.Cls._creators`), `role` one of `lookup` (subscript, `.get`),
`membership` (`in`, `len`), `enumerate` (iteration, `.items()`, `list(T)`, `**T`, an
assignment of the whole table), `write` (`T[k] = v`, `.update`, `.register*`, `.append`),
`call:METHOD` (another method of a registry object: `MODELS.build(cfg)`) or `passed`
(handed to a call, returned, yielded, carried in a tuple, list, set or dict value: `container`); `detail` the key source of a read
(`scan.key_sources`), or for an enumeration why it happens: `message` (an error text,
a module `__dir__`: it informs), `transfer:pkg.mod.NAME` (copied into that table),
`transfer` (copied into a local table) or `passed`.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from pylint_omni.index.scan.ast_helpers import dotted, walk_nodes
from pylint_omni.index.scan.key_sources import FunctionScope, key_source

TABLE_TAIL = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
ENUMERATING_CALLS = frozenset({"list", "sorted", "tuple", "set", "dict", "iter", "enumerate", "frozenset"})
MESSAGE_CALLS = frozenset({"error", "warning", "info", "debug", "exception", "print", "warn", "critical"})
GET_METHODS = frozenset({"get", "pop", "__getitem__", "setdefault", "__contains__"})
ENUM_METHODS = frozenset({"items", "keys", "values", "copy"})
LIST_WRITES = frozenset({"update", "add", "append", "extend", "insert"})  # a set or list registry grows this way too


class TableUses:
    """The table part of `link_scan.LinkScanner` (it provides the attributes used here)."""

    module: str
    bindings: dict[str, list[str]]
    constants: dict[str, str]
    classes: list[tuple[str, set[str]]]
    functions: list[FunctionScope]
    parents: list[ast.AST]
    tables: list[list[Any]]
    statement_target: str | None

    def scope(self) -> FunctionScope | None:
        return self.functions[-1] if self.functions else None

    def chain_of(self, node: ast.AST) -> str | None:  # pragma: no cover - provided by LinkScanner
        raise NotImplementedError

    def _in_module_getattr(self) -> bool:
        scope = self.scope()
        return scope is not None and scope.dotted == f"{self.module}.__getattr__"

    def _transfer(self) -> str:
        return f"transfer:{self.module}.{self.statement_target}" if self.statement_target and not self.functions else "transfer"

    def _is_table(self, node: ast.AST, chain: str) -> bool:
        if isinstance(node, ast.Name):
            kind = self.bindings.get(node.id, [""])[0]
            return kind in ("var", "alias") or (kind == "import" and bool(TABLE_TAIL.match(node.id)))
        return bool(TABLE_TAIL.match(chain.rpartition(".")[2])) or chain.startswith(tuple(c for c, _ in self.classes))

    def _table_use(self, node: ast.AST, chain: str) -> None:
        """Record a use of a table; a lookup or an iteration of any name counts (`Enum[name]`, `for m in Enum`)."""
        parent = self.parents[-1] if self.parents else None
        role = self._table_role(node, parent)
        if role is None or (role[0] not in ("lookup", "enumerate") and not self._is_table(node, chain)):
            return
        self.tables.append([chain, node.lineno, *role])

    def _table_role(self, node: ast.AST, parent: ast.AST | None) -> tuple[str, str] | None:
        scope = self.scope()
        grand = self.parents[-2] if len(self.parents) > 1 else None
        if isinstance(parent, ast.Subscript) and parent.value is node:
            # A table of tables (`T[kind][name] = cls`, `T[kind][name]`): the entry is the innermost mapping's, keyed by
            # the last subscript; the first ones choose a section.
            level = 1  # `parent` is parents[-level]
            while len(self.parents) > level and isinstance(outer := self.parents[-level - 1], ast.Subscript) \
                    and outer.value is self.parents[-level]:
                parent, level = outer, level + 1
            if isinstance(parent.ctx, ast.Store):
                return "write", key_source(parent.slice, scope, self.constants)
            if self._in_module_getattr():
                return "lookup", "attribute"
            return "lookup", key_source(parent.slice, scope, self.constants)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            if not (isinstance(grand, ast.Call) and grand.func is parent):
                return None
            arg = grand.args[0] if grand.args else None
            if parent.attr in GET_METHODS:
                if self._in_module_getattr():
                    return "lookup", "attribute"
                return "lookup", key_source(arg, scope, self.constants)
            if parent.attr in ENUM_METHODS:
                return "enumerate", self._enumeration_purpose()
            if parent.attr in LIST_WRITES or parent.attr.startswith("register"):
                return "write", key_source(arg, scope, self.constants)
            return f"call:{parent.attr}", key_source(arg, scope, self.constants) if arg is not None else "none"
        if isinstance(parent, ast.Compare) and node is not parent.left and any(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops):
            if self._in_module_getattr():
                return "membership", "attribute"
            return "membership", key_source(parent.left, scope, self.constants)
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and parent.iter is node:
            return "enumerate", self._enumeration_purpose()
        if isinstance(parent, ast.Call) and node in parent.args:
            tail = (dotted(parent.func) or "").rpartition(".")[2]
            if tail in ("len", "isinstance", "id", "bool", "callable"):
                return "membership", "none"
            if tail in ENUMERATING_CALLS:
                return "enumerate", self._enumeration_purpose()
            return "passed", f"{self.chain_of(parent.func) or tail}:{parent.args.index(node)}"
        if isinstance(parent, (ast.Return, ast.Yield, ast.keyword, ast.Starred)):
            return "passed", self._enumeration_purpose()
        # An element of a tuple, list or set, or a dict's value (`groups = [("qwen2", QWEN2_PATCHES), ...]`): the
        # table travels whole inside another value, and whoever unpacks it may read any key (`{**T}` is a copy).
        if isinstance(parent, (ast.Tuple, ast.List, ast.Set)) and not isinstance(getattr(parent, "ctx", None), ast.Store) \
                or isinstance(parent, ast.Dict) and any(v is node and k is not None for k, v in zip(parent.keys, parent.values)):
            return "passed", "container"
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and getattr(parent, "value", None) is node:
            return "enumerate", self._transfer()
        # A default (`tokens if tokens is not None else SPECIAL_TOKENS`, `tokens or SPECIAL_TOKENS`): the table flows on
        # whole as the expression's value (torchtune's tokenizer keeps it as `self.special_tokens`).
        if isinstance(parent, ast.IfExp) and node is not parent.test or isinstance(parent, ast.BoolOp):
            return "passed", "default"
        return None

    def _enumeration_purpose(self) -> str:
        """Why a table is enumerated: a message (it informs), a copy (`transfer`), or exposure."""
        if self.functions and self.functions[-1].dotted.endswith(".__dir__"):
            return "message"
        for ancestor in reversed(self.parents):
            if isinstance(ancestor, (ast.Raise, ast.JoinedStr)):
                return "message"
            if isinstance(ancestor, ast.Call) and (dotted(ancestor.func) or "").rpartition(".")[2] in MESSAGE_CALLS:
                return "message"
            if isinstance(ancestor, (ast.DictComp, ast.Dict)):
                return self._transfer()
            if isinstance(ancestor, ast.stmt):
                break
        return "passed"


def writer_params(tree: ast.Module, module: str) -> dict[str, list[int]]:
    """Module-level functions' parameters used only as `param[key] = value` targets.

    Passing a table to such a function adds entries; it does not hand the table out.
    One walk per function: count each name's uses and its subscript-store uses.
    """
    writers: dict[str, list[int]] = {}
    for stmt in tree.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in stmt.args.posonlyargs + stmt.args.args]
        uses: dict[str, int] = {}
        stores: dict[str, int] = {}
        for node in walk_nodes(stmt):
            if isinstance(node, ast.Name):
                uses[node.id] = uses.get(node.id, 0) + 1
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
                stores[node.value.id] = stores.get(node.value.id, 0) + 1
        found = [i for i, p in enumerate(params) if uses.get(p) and uses[p] == stores.get(p)]
        if found:
            writers[f"{module}.{stmt.name}"] = found
    return writers
