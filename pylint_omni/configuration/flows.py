"""Where a dict of options goes inside one function: the `dicts` fact of the configuration scanner.

A parsed command-line namespace is often handed out whole: `AsyncOmni(**vars(args))`, or
`kwargs = vars(args).copy()` and then `Engine(**kwargs)`. Whether an option reaches a
reader then depends on what the receiving function does with the keywords it collects.
For each function this records the dict-like variables:
- its `**kwargs` parameter (always: a function that ignores it drops every key);
- a parameter read by literal key (`kwargs.get("k")`, `kwargs["k"]`, `"k" in kwargs`): the
  receiver of a dict handed on positionally;
- a local bound to a namespace converted whole (`vars(args)`, `vars(args).copy()`,
  `dict(vars(args))`, `args.__dict__`), and such a conversion handed straight to a call;
and for each one the keys it reads, the calls it is handed to (`**var`, a positional
argument, a keyword argument) and the first line where it escapes in any other way
(stored, returned, iterated, merged, passed to a call nobody can follow), after which
any key may be read. Callees are written through the module's imports, `self.m` as
`module.Class.m`, so that the reference graph can resolve them.

Record: `[qual, var, origin, line, "k1,k2", [[line, callee, how], ...], escape_line]`;
origin `**`, `param` or `ns:NAME`; how `**`, the position of a positional argument, or
`=keyword`; escape_line 0 when it never escapes.
"""

from __future__ import annotations

import ast
from typing import Any

from pylint_omni.index.scan.ast_helpers import child_nodes, dotted, literal_str, walk_nodes
from pylint_omni.index.scanners import ModuleContext

KEY_METHODS = frozenset({"get", "pop", "setdefault"})
WRITE_METHODS = frozenset({"update", "clear", "__setitem__"})  # change the dict, read none of its keys
# Calls that consume no option of a dict handed to them (size, type checks, logging).
HARMLESS_CALLS = frozenset({"len", "bool", "isinstance", "id", "type", "vars", "hasattr", "print",
                            "debug", "info", "warning", "warn", "error", "exception", "log"})
COPIES = frozenset({"copy", "dict", "deepcopy"})
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def namespace_of(node: ast.AST) -> str | None:
    """`vars(args)`, `vars(args).copy()`, `dict(vars(args))`, `copy.deepcopy(vars(args))`, `args.__dict__` -> `args`."""
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "copy" and not node.args:
            node = node.func.value
        elif isinstance(node, ast.Call) and (dotted(node.func) or "").rpartition(".")[2] in COPIES and len(node.args) == 1:
            node = node.args[0]
        else:
            break
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" and len(node.args) == 1:
        node = node.args[0]
    elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
        node = node.value
    else:
        return None
    written = dotted(node)
    return written.rpartition(".")[2] if written else None


class _Variable:
    """What one function does with one dict-like variable."""

    def __init__(self, origin: str, line: int) -> None:
        self.origin = origin
        self.line = line
        self.keys: list[str] = []
        self.forwards: list[list[Any]] = []
        self.escape = 0


class _Function:
    """The walk of one function body (nested functions and classes are walked on their own)."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef, module: str, owner: str | None, imports: dict[str, str]) -> None:
        self.module = module
        self.imports = imports
        args = node.args
        params = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
        self.self_name = params[0] if owner and params else None
        self.owner = owner
        self.variables: dict[str, _Variable] = {p: _Variable("param", node.lineno) for p in params if p != self.self_name}
        if args.kwarg is not None:
            self.variables[args.kwarg.arg] = _Variable("**", node.lineno)
        self.direct: list[_Variable] = []  # conversions handed straight to a call
        self.handled: set[int] = set()  # ids of Name nodes already accounted for

    def callee(self, func: ast.AST) -> str:
        written = dotted(func) or ""
        head, _, rest = written.partition(".")
        if head and head == self.self_name and self.owner:
            return f"{self.module}.{self.owner}" + ("." + rest if rest else "")
        if head in self.imports:
            return self.imports[head] + ("." + rest if rest else "")
        return f"{self.module}.{written}" if written else ""

    def walk(self, node: ast.AST) -> None:
        for child in child_nodes(node):
            if isinstance(child, SCOPES):
                self._closure(child)
                continue
            self.visit(child)
            self.walk(child)

    def _closure(self, scope: ast.AST) -> None:
        """A nested function or class that names a variable may read any of its keys."""
        for node in walk_nodes(scope):
            if isinstance(node, ast.Name) and node.id in self.variables and not self.variables[node.id].escape:
                self.variables[node.id].escape = node.lineno

    def _var(self, node: ast.AST) -> _Variable | None:
        return self.variables.get(node.id) if isinstance(node, ast.Name) else None

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = namespace_of(node.value)
            target = node.targets[0].id
            if name:
                self.variables[target] = _Variable(f"ns:{name}", node.lineno)
            elif target in self.variables and self.variables[target].origin.startswith("ns:"):
                del self.variables[target]  # rebound to something else
        elif isinstance(node, ast.Call):
            self._call(node)
        elif isinstance(node, ast.Subscript) and (var := self._var(node.value)) is not None:
            self.handled.add(id(node.value))
            key = literal_str(node.slice)
            if isinstance(node.ctx, ast.Load):
                if key is None:
                    var.escape = var.escape or node.lineno  # a computed key may be any key
                else:
                    var.keys.append(key)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            var = self._var(node.comparators[0])
            key = literal_str(node.left)
            if var is not None and key is not None:
                self.handled.add(id(node.comparators[0]))
                var.keys.append(key)
        elif isinstance(node, ast.Name) and id(node) not in self.handled and isinstance(node.ctx, ast.Load):
            var = self.variables.get(node.id)
            if var is not None and not var.escape:
                var.escape = node.lineno

    def _call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and (var := self._var(func.value)) is not None:
            self.handled.add(id(func.value))
            key = literal_str(node.args[0]) if node.args else None
            if func.attr in KEY_METHODS and key is not None:
                var.keys.append(key)
            elif func.attr not in WRITE_METHODS:
                var.escape = var.escape or node.lineno  # items(), keys(), copy() ... any key may be read
            return
        tail = (dotted(func) or "").rpartition(".")[2]
        callee = self.callee(func)
        passed: list[tuple[ast.AST, Any]] = [(a, i) for i, a in enumerate(node.args)]
        passed += [(k.value, "**" if k.arg is None else f"={k.arg}") for k in node.keywords]
        for value, how in passed:
            if isinstance(value, ast.Starred):
                continue
            var = self._var(value)
            if var is None:
                name = namespace_of(value)
                if name is None:
                    continue
                var = _Variable(f"ns:{name}", node.lineno)
                self.direct.append(var)
            else:
                self.handled.add(id(value))
            if tail in HARMLESS_CALLS:
                continue
            if callee:
                var.forwards.append([node.lineno, callee, how])
            else:
                var.escape = var.escape or node.lineno

    def records(self, qual: str) -> list[list[Any]]:
        found = []
        for name, var in [*self.variables.items(), *(("", v) for v in self.direct)]:
            if var.origin == "param" and not var.keys:
                continue  # a parameter never read by key is not known to be a dict of options
            found.append([qual, name, var.origin, var.line, ",".join(dict.fromkeys(var.keys)), var.forwards, var.escape])
        return found


def dict_flows(tree: ast.Module, context: ModuleContext) -> list[list[Any]]:
    """The `dicts` records of one module (see the module docstring)."""
    found: list[list[Any]] = []

    def visit(body: list[ast.stmt], qual: list[str], owner: str | None) -> None:
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                visit(stmt.body, [*qual, stmt.name], ".".join([*qual, stmt.name]))
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                function = _Function(stmt, context.module, owner, context.imports)
                for item in stmt.body:
                    if isinstance(item, SCOPES):
                        function._closure(item)
                        continue
                    function.visit(item)
                    function.walk(item)
                found.extend(function.records(".".join([*qual, stmt.name])))
                visit(stmt.body, [*qual, stmt.name], None)
    visit(tree.body, [], None)
    return found
