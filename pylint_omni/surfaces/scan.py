"""Per-file facts of the surfaces family, handed to the index (`SCANNERS` in `surfaces.checker`).

Read with `ast` once per file version and cached with the file's other facts:
- `main`: the module has an `if __name__ == "__main__":` block (it is run as a script);
- `shadowed`: `[qual, line, end, by]` definitions a later statement of the same body
  (module or class) defines again, so that the first never runs; property
  accessors (`@x.setter`), `@overload` stubs and `@f.register` implementations are
  not shadowing, nor a definition used between the two;
- `dyn_imports`: `[line, prefix]` imports of a computed name (`import_module(name)`,
  `__import__(name)`, `pkgutil.iter_modules`/`walk_packages`): they may load any
  module whose dotted name starts with `prefix` (empty: any). `__name__` and
  `__package__` count as the module's own names (`import_module(f"{__name__}.{x}")`),
  and a walk over `__path__` loads the package's own submodules (over `pkg.__path__` of an imported
  package, or `f"{pkg.__name__}.{x}"`: that package's); a name read from a
  module-level table of literal paths (`path, cls = _MLP_CLASSES[kind]`, `for path in
  _BACKENDS`) loads one of those paths: one entry each; a name built with literal parts
  after its first computed one is a glob (`f"pkg.models.{m}.modeling_{m}"` ->
  `pkg.models.*.modeling_*`: `surfaces.table.may_load`); a name read from an object's
  field (`import_module(self.config.external_lib)`), a parameter or a split of another
  string is what the configuration or the callers pass, whose strings are references
  already: no entry; a local built from literal text counts as that text;
- `attr_prefixes`: `[prefix, line]` attribute names built at run time
  (`getattr(self, f"_handle_{kind}")`): methods whose name starts with the prefix
  may be called;
- `enumerated`: `[module, line]` modules whose members the code walks by name
  (`dir(mod)`, `inspect.getmembers(mod)`, `vars(mod)`, `mod.__dict__` over an imported
  module, `globals().items()`; a module fetched from `sys.modules["pkg.mod"]` is handed
  on to such a walk): TorchServe calls every
  function of `system_metrics` found by `dir()`, so each may run;
- `entry_specs`: `[target, line]` entry-point specifications written in Python
  (`"ascend = pkg.mod:register"` in `setup.py`), whose targets are loaded by name;
- `events`: `[class, name, line, fires, waits, escapes]` for each `threading`,
  `asyncio` or `multiprocessing` `Event` a field or module variable holds
  (`surfaces.events`);
- `super_calls`, `edits`: overrides that call their base, and the containers each method
  fills or prunes (`scan_members`);
- `lines`: the module's length (what deleting the whole module saves).
"""

from __future__ import annotations

import ast
import itertools
import re
import string
from dataclasses import dataclass
from typing import Any

from pylint_omni.index.scan.ast_helpers import FastVisitor, dotted, literal_str, walk_nodes
from pylint_omni.index.scan.bindings import absolute_module
from pylint_omni.index.scanners import ModuleContext
from pylint_omni.surfaces.events import scan_events
from pylint_omni.surfaces.scan_members import scan_members

NOT_SHADOWING = frozenset({"setter", "getter", "deleter", "overload", "register"})
DYNAMIC_IMPORTS = frozenset({"import_module", "__import__"})
PACKAGE_WALKS = frozenset({"iter_modules", "walk_packages"})
ENUMERATIONS = frozenset({"dir", "getmembers", "vars"})  # calls that list a module's members by name
WALKED_VIEWS = frozenset({"items", "values", "keys", "get"})  # views of `globals()` walked by name
ENTRY_SPEC = re.compile(r"^\s*[\w.\-]+\s*=\s*([A-Za-z_][\w.]*(?::[A-Za-z_][\w.]*)?)\s*(?:\[[^\]]*\])?\s*$")
IDENTIFIER_PREFIX = re.compile(r"^[A-Za-z_]\w*$")
PERCENT_FIELD = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdir]")  # a `%s`-style field of a template filled by `%`
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _decorator_tails(node: ast.AST) -> set[str]:
    found = set()
    for deco in getattr(node, "decorator_list", []):
        target = deco.func if isinstance(deco, ast.Call) else deco
        found.add((dotted(target) or "").rpartition(".")[2])
    return found


def _loads(statements: list[ast.stmt], name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               for stmt in statements for n in walk_nodes(stmt))


def _shadowed(body: list[ast.stmt], prefix: str, out: list[list[Any]]) -> None:
    """Definitions of `body` that a later definition of the same name replaces, recursing into classes."""
    last: dict[str, int] = {}
    for position, stmt in enumerate(body):
        if not isinstance(stmt, DEFINITIONS):
            continue
        if isinstance(stmt, ast.ClassDef):
            _shadowed(stmt.body, f"{prefix}{stmt.name}.", out)
        earlier = last.get(stmt.name)
        last[stmt.name] = position
        if earlier is None or stmt.name == "_":
            continue
        first = body[earlier]
        if (_decorator_tails(first) | _decorator_tails(stmt)) & NOT_SHADOWING:
            continue
        if _loads(body[earlier + 1:position], stmt.name):
            continue  # the first definition is used before it is replaced
        out.append([prefix + stmt.name, first.lineno, first.end_lineno or first.lineno, stmt.lineno])


def _built_parts(node: ast.AST, names: dict[str, str]) -> list[str | None] | None:
    """The parts of a built string (`f"pkg.{x}"`, `"pkg." + x`), each its text (a literal, or a name `names` knows:
    `__name__`) or None when computed; None when the node is not built."""
    if isinstance(node, ast.JoinedStr):
        parts: list[str | None] = []
        for part in node.values:
            text = literal_str(part)
            if text is None and isinstance(part, ast.FormattedValue):
                text = names.get(dotted(part.value) or "")  # `__name__`, or `pkg.__name__` of an imported module
            parts.append(text)
        return parts
    template = _format_template(node)
    if template is not None:  # `".{0}".format(name)` (TorchServe's envelopes), `"pkg.%s" % name`
        return [piece for literal, field in template for piece in (literal, *([None] if field else []))]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        found: list[str | None] = []
        for side in (node.left, node.right):
            text = names.get(side.id) if isinstance(side, ast.Name) else literal_str(side)
            found += [text] if text is not None else _built_parts(side, names) or [None]
        return found
    return None


def _format_template(node: ast.AST) -> list[tuple[str, bool]] | None:
    """(literal text, a computed field follows) of a template filled by `str.format` or `%`; None for other nodes."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        text = literal_str(node.func.value)
        if text is None:
            return None
        try:
            return [(literal, field is not None) for literal, field, _, _ in string.Formatter().parse(text)]
        except ValueError:
            return None  # a malformed template: no name is built from it
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        text = literal_str(node.left)
        if text is None:
            return None
        pieces = PERCENT_FIELD.split(text)
        return [(piece, index < len(pieces) - 1) for index, piece in enumerate(pieces)]
    return None


def _literal_prefix(node: ast.AST, names: dict[str, str]) -> str | None:
    """The constant head of a built string (`f"pkg.{x}"`, `"pkg." + x`, `f"{__name__}.{x}"`); None when not built."""
    parts = _built_parts(node, names)
    if parts is None:
        return None
    return "".join(itertools.takewhile(lambda text: text is not None, parts))  # type: ignore[arg-type]


def _literal_rows(value: ast.AST) -> list[tuple[str | None, ...]] | None:
    """The rows of a literal table: a dict's values or a list/tuple/set's items, each a string or a tuple of them."""
    items = value.values if isinstance(value, ast.Dict) else value.elts if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else None
    if not items:
        return None
    rows: list[tuple[str | None, ...]] = []
    for item in items:
        if isinstance(item, (ast.Tuple, ast.List)):
            rows.append(tuple(literal_str(e) for e in item.elts))
        else:
            text = literal_str(item)
            if text is None:
                return None
            rows.append((text,))
    return rows


def _literal_tables(tree: ast.Module) -> dict[str, list[tuple[str | None, ...]]]:
    """Module-level tables of literal strings: name -> rows."""
    found: dict[str, list[tuple[str | None, ...]]] = {}
    for stmt in tree.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else getattr(stmt, "target", None)
        value = getattr(stmt, "value", None)
        if isinstance(target, ast.Name) and value is not None:
            rows = _literal_rows(value)
            if rows:
                found[target.id] = rows
    return found


@dataclass(frozen=True)
class _Origins:
    """What one function's local names hold, for the computed imports it makes."""

    paths: dict[str, list[str]]  # read from a module-level table of literal paths: the paths it can hold
    built: dict[str, ast.expr]  # built from literal text (`name = f"pkg.models.{arch}"`): that expression


def _local_origins(function: ast.AST, tables: dict[str, list[tuple[str | None, ...]]]) -> _Origins:
    """Local names a function reads from a literal table (`a, b = T[k]`, `a = T.get(k)`, `for a in T`) or builds
    from literal text."""
    origins = _Origins({}, {})

    def bind(target: ast.AST, table: str) -> None:
        names = [target] if isinstance(target, ast.Name) else target.elts if isinstance(target, (ast.Tuple, ast.List)) else []
        for position, name in enumerate(names):
            if isinstance(name, ast.Name):
                texts = [row[position] for row in tables[table] if position < len(row) and row[position]]
                held = origins.paths.setdefault(name.id, [])
                held.extend(t for t in texts if t not in held)

    for node in walk_nodes(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            value = node.value
            if (isinstance(value, (ast.JoinedStr, ast.BinOp)) or _format_template(value) is not None) and isinstance(node.targets[0], ast.Name):
                origins.built[node.targets[0].id] = value
                continue
            source = value.value if isinstance(value, ast.Subscript) else value.func.value if (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get") else None
            if isinstance(source, ast.Name) and source.id in tables:
                bind(node.targets[0], source.id)
        elif isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.iter, ast.Name) and node.iter.id in tables:
            bind(node.target, node.iter.id)
    return origins


def _module_glob(node: ast.AST, names: dict[str, str]) -> str | None:
    """A built module name as a glob (`f"pkg.{a}.mod_{b}"` -> `pkg.*.mod_*`) when it starts with literal text and
    literal text follows a computed part; None otherwise (the literal prefix says all there is)."""
    parts = _built_parts(node, names) or []
    if None not in parts or not parts[0] or not any(parts[parts.index(None):]):
        return None  # all literal, no literal head (`f"{pkg}.{name}"` names no place), or nothing after the computed part
    return "".join("*" if text is None else text for text in parts)


class _Visitor(FastVisitor):
    def __init__(self, context: ModuleContext, tree: ast.Module) -> None:
        package = context.module if context.is_package else context.module.rpartition(".")[0]
        self.names = {"__name__": context.module, "__package__": package}
        self.package = package
        self.tables = _literal_tables(tree)
        self.origins: list[_Origins] = []  # per enclosing function
        self.dyn_imports: list[list[Any]] = []
        self.attr_prefixes: list[list[Any]] = []
        self.entry_specs: list[list[Any]] = []
        self.enumerated: list[list[Any]] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.origins.append(_local_origins(node, self.tables))
        self.generic_visit(node)
        self.origins.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self._module_bound(alias.asname, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = absolute_module(node.module, node.level, self.package)
        for alias in node.names:
            if alias.name != "*" and base:
                self._module_bound(alias.asname or alias.name, f"{base}.{alias.name}")

    def _module_bound(self, local: str, module: str) -> None:
        """A name an import binds, as a module a walk or a built name may spell (`qlinear.__path__`,
        `f"{qlinear.__name__}.{name}"`); whether it is a module only its `__name__`/`__path__` use says."""
        self.names[f"{local}.__name__"] = module
        self.names[f"{local}.__path__"] = module

    def visit_Call(self, node: ast.Call) -> None:
        tail = (dotted(node.func) or "").rpartition(".")[2]
        read = node.args[0] if node.args and isinstance(node.args[0], ast.Name) and self.origins else None
        if tail in DYNAMIC_IMPORTS and read is not None:
            origins = self.origins[-1]
            if read.id in origins.paths:
                self.dyn_imports += [[node.lineno, self._absolute(path, node)] for path in origins.paths[read.id]]
            elif read.id in origins.built:
                self._computed_import(origins.built[read.id], node)
            # else: a parameter, a field or a split of another string holds it: what callers or the configuration
            # pass, whose strings are references already
        elif tail in DYNAMIC_IMPORTS and node.args and isinstance(node.args[0], ast.Attribute):
            pass  # a name the configuration gives: its YAML and defaults are references already
        elif tail in DYNAMIC_IMPORTS and node.args and literal_str(node.args[0]) is None:
            self._computed_import(node.args[0], node)
        elif tail in PACKAGE_WALKS:
            walked = dotted(node.args[0]) if node.args else None
            module = self.package if walked == "__path__" else self.names.get(walked or "") if (walked or "").endswith(".__path__") else None
            self.dyn_imports.append([node.lineno, f"{module}." if module else ""])
        elif tail in ENUMERATIONS and node.args and (walked := self._module_held(node.args[0])):
            self.enumerated.append([walked, node.lineno])
        elif tail in WALKED_VIEWS and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Call) and (
                walked := self._module_held(node.func.value)):  # `globals().items()`; `mod.get(x)` is a call of `get`
            self.enumerated.append([walked, node.lineno])
        elif tail in ("getattr", "hasattr") and len(node.args) >= 2:
            prefix = _literal_prefix(node.args[1], {})
            if prefix and IDENTIFIER_PREFIX.match(prefix):
                self.attr_prefixes.append([prefix, node.lineno])
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        # A module fetched by name from `sys.modules` is handed on to be walked by name (`collect_all(mod)`).
        if isinstance(node.ctx, ast.Load) and dotted(node.value) == "sys.modules" and (walked := self._module_held(node)):
            self.enumerated.append([walked, node.lineno])
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == "__dict__" and (walked := self._module_held(node.value)):
            self.enumerated.append([walked, node.lineno])
        self.generic_visit(node)

    def _module_held(self, node: ast.AST) -> str | None:
        """The module an expression holds: an imported module's name, `sys.modules[<literal or __name__>]`, or
        `globals()` (this module); None otherwise."""
        if isinstance(node, ast.Name):
            return self.names.get(f"{node.id}.__name__")
        if isinstance(node, ast.Subscript) and dotted(node.value) == "sys.modules":
            key = node.slice
            return literal_str(key) or (self.names.get(key.id) if isinstance(key, ast.Name) else None)
        if isinstance(node, ast.Call) and dotted(node.func) == "globals" and not node.args:
            return self.names["__name__"]
        return None

    def _computed_import(self, written: ast.expr, node: ast.Call) -> None:
        glob = _module_glob(written, self.names)
        self.dyn_imports.append([node.lineno, self._absolute(glob or _literal_prefix(written, self.names) or "", node)])

    def _absolute(self, prefix: str, node: ast.Call) -> str:
        """A relative prefix (`"." + name` with `package=__name__`) made absolute."""
        if not prefix.startswith("."):
            return prefix
        anchor = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "package"), None)
        package = self.names.get(anchor.id) if isinstance(anchor, ast.Name) else literal_str(anchor)
        if not package:
            return ""
        level = len(prefix) - len(prefix.lstrip("."))
        parts = package.split(".")
        return ".".join(parts[: len(parts) - (level - 1)] if level > 1 else parts) + "." + prefix.lstrip(".")

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and "=" in node.value and len(node.value) < 300:
            match = ENTRY_SPEC.match(node.value)
            if match and (":" in match.group(1) or "." in match.group(1)):
                self.entry_specs.append([match.group(1), node.lineno])


SCRIPT_CALLS = frozenset({"parse_args", "parse_known_args"})


def _has_main_block(tree: ast.Module) -> bool:
    """An `if __name__ == "__main__":` block, or a module that reads its command line as it is imported
    (`parser.parse_args()`, `sys.argv` at module level): a script run directly, whatever its guard."""
    for stmt in tree.body:
        test = stmt.test if isinstance(stmt, ast.If) else None
        if isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__":
            if any(literal_str(c) == "__main__" for c in test.comparators):
                return True
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in walk_nodes(stmt):
            if isinstance(node, ast.Call) and (dotted(node.func) or "").rpartition(".")[2] in SCRIPT_CALLS:
                return True
            if isinstance(node, ast.Attribute) and node.attr == "argv" and dotted(node) == "sys.argv":
                return True
    return False


def scan_surface_facts(tree: ast.Module, context: ModuleContext) -> dict[str, Any]:
    """The surfaces family's facts of one module (see the module docstring)."""
    shadowed: list[list[Any]] = []
    _shadowed(tree.body, "", shadowed)
    visitor = _Visitor(context, tree)
    visitor.visit(tree)
    return {
        "main": _has_main_block(tree),
        "shadowed": shadowed,
        "dyn_imports": visitor.dyn_imports,
        "attr_prefixes": visitor.attr_prefixes,
        "entry_specs": visitor.entry_specs,
        "enumerated": visitor.enumerated,
        "events": scan_events(tree, context.imports) if "Event" in context.source else [],  # no Event(): no walk
        **scan_members(tree),
        "lines": context.source.count("\n") + 1,
    }
