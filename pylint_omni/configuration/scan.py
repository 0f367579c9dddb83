"""The configuration scanner: options a module declares and how it reads objects (stdlib `ast`).

Handed to the index as `configuration.options`, run once per file and cached. Per module:
- `classes`: config classes (a dataclass, pydantic model, attrs class, NamedTuple or
  msgspec Struct whose name says it configures: `...Config`, `...Args`, `...Options`,
  `...Settings`, `...Params`, or whose fields carry their own docstrings, the help text of
  dataclass-driven command lines) with their fields, the fields their own methods assign
  (and whether `__post_init__` overwrites one unconditionally), and whether they read
  themselves by reflection (`fields(self)`, `asdict(self)`, `vars(self)`);
- `model_fields`: the field names of the module's other data models (a dataclass or pydantic
  model whose name does not say it configures: `ModelSetBase`): a YAML file loaded into one
  (`Catalog(**raw)`) has its keys read by the model, and what serves it (an API's response);
- `cli`: `add_argument(...)` options with their destination;
- `cli_functions`: functions handed to a signature-driven command-line builder
  (`jsonargparse.CLI`, `fire.Fire`, `@click.command()`: `cli_functions`), whose
  parameters are flags;
- `env`: module-level constants read from an environment variable;
- `owned`: the attributes each class declares or assigns through `self` (`Name:line` -> names);
- `copies`: `Cls(kw=x.attr)` and `self.kw = x.attr`, an option copied into another owner;
- `writer_keys`: string keys written (dict literals, `d["k"] = v`), and `reader_keys`:
  string keys read (`d["k"]`, `d.get("k")`, `getattr(x, "k")`), so that a line doing
  both (`{"k": cfg.get("k")}`) still reads;
- `name_lists`: strings of a tuple, list or set literal of two or more identifier strings
  (`_FORWARDED = ("max_tokens", "seed")`): field names handed on by name, not reads;
- `whole`: objects expanded, iterated or handed out whole (`**x`, `vars(x)`,
  `x.items()`, `for k in x`), by the last name of the expression;
- `paths`: path-like strings (`"pkg/stage_configs/"`, `"deploy/*.yaml"`, f-string parts), to
  tell which config files the code loads;
- `dicts`: per function, where a dict of options (`**kwargs`, a namespace converted whole)
  goes: the keys read, the calls it is handed to, where it escapes (`flows`).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from pylint_omni.configuration.cli_functions import scan_cli_functions
from pylint_omni.configuration.flows import dict_flows
from pylint_omni.index.scan.ast_helpers import FastVisitor, dotted, literal_str, walk_nodes
from pylint_omni.index.scan.state_scan import annotation_type
from pylint_omni.index.scanners import ModuleContext

CONFIG_NAME = re.compile(r"(Config|Configs|Args|Arguments|Options|Settings|Params|Parameters|Cfg|Conf)$")
DATACLASS_DECORATORS = frozenset({"dataclass", "define", "frozen", "mutable", "attrs", "s", "dataclass_transform"})
MODEL_BASES = {"BaseModel": "pydantic", "BaseSettings": "pydantic", "NamedTuple": "namedtuple", "Struct": "struct"}
NOT_FIELDS = frozenset({"model_config", "Config", "__slots__", "__match_args__"})
REFLECT_CALLS = frozenset({"fields", "asdict", "astuple", "vars", "getmembers"})
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
REFLECT_METHODS = frozenset({"model_dump", "dict", "to_dict", "model_dump_json", "json", "_asdict", "__getstate__", "_get_kwargs"})
WHOLE_CALLS = frozenset({"vars", "asdict", "dict", "to_container", "to_object", "deepcopy", "structured", "create"})
CONVERSIONS = frozenset({"vars", "asdict", "dict", "to_container", "to_object", "deepcopy", "copy", "structured", "create", "OrderedDict"})
MERGES = frozenset({"update", "merge", "unsafe_merge"})
CONVERTER = re.compile(r"dict|container|builtins|copy|convert|^to_|^as_|^from_|load|merge|normali[sz]e|resolve", re.I)
PATH_LIKE = re.compile(r"^[\w.\-/*{}]*(/[\w.\-*{}]*|\.ya?ml)$")
ENV_CALLS = frozenset({"getenv", "environ.get", "os.environ.get", "os.getenv", "getenv_bool", "get_env"})


MIN_DOCUMENTED_FIELDS = 2  # fields with their own docstring before a class's fields are user-facing options


def documents_its_fields(node: ast.ClassDef) -> bool:
    """Fields followed by their own docstring (`seed: int = 42` then `\"\"\"The seed for shuffling.\"\"\"`): the help
    text dataclass-driven command lines show (jsonargparse, simple-parsing, tyro), so each field is an option users
    set, whatever the class is called (LitGPT's `TextFiles` data module, set as `--data.seed`)."""
    documented = 0
    for stmt, following in zip(node.body, node.body[1:]):
        if isinstance(stmt, ast.AnnAssign) and isinstance(following, ast.Expr) and literal_str(following.value) is not None:
            documented += 1
    return documented >= MIN_DOCUMENTED_FIELDS


def _tail(node: ast.AST | None) -> str:
    return (dotted(node) or "").rpartition(".")[2] if node is not None else ""


def _last_name(node: ast.AST) -> str:
    """`stage.engine_args` -> engine_args, `cfg["runtime"]` / `cfg.get("runtime")` / `getattr(cfg, "runtime")` -> runtime."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript):
        return literal_str(node.slice) or ""
    if isinstance(node, ast.Call):
        tail = _tail(node.func)
        if isinstance(node.func, ast.Attribute) and tail in ("get", "pop") and node.args:
            return literal_str(node.args[0]) or ""
        if tail == "getattr" and len(node.args) > 1:
            return literal_str(node.args[1]) or ""
        if len(node.args) == 1 and (tail in CONVERSIONS or CONVERTER.search(tail)):
            return _last_name(node.args[0])  # a converted copy keeps the keys
    return ""


def _class_kind(node: ast.ClassDef, imports: dict[str, str]) -> str | None:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        written = dotted(target) or ""
        resolved = imports.get(written.partition(".")[0], "") + written[len(written.partition(".")[0]):]
        tail = written.rpartition(".")[2]
        if tail in DATACLASS_DECORATORS and (tail != "s" or written.startswith("attr")):
            return "attrs" if "attr" in resolved or written.startswith("attr") else "dataclass"
    for base in node.bases:
        kind = MODEL_BASES.get(_tail(base))
        if kind:
            return kind
    return None


def _resolved(written: str, imports: dict[str, str]) -> str:
    head, _, rest = written.partition(".")
    return imports[head] + ("." + rest if rest else "") if head in imports else written


def _is_field_annotation(annotation: ast.AST) -> bool:
    text = ast.unparse(annotation)
    return not re.match(r"^(typing\.)?(ClassVar|InitVar|Final)\b", text) and not text.startswith(("dataclasses.InitVar", "'ClassVar"))


def _init_false(value: ast.AST | None) -> bool:
    return isinstance(value, ast.Call) and _tail(value.func) in ("field", "Field", "ib", "attrib") and any(
        k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False for k in value.keywords)


def _fields(node: ast.ClassDef) -> list[list[Any]]:
    found = []
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and _is_field_annotation(stmt.annotation):
            name = stmt.target.id
            if name not in NOT_FIELDS and not name.startswith("__") and not _init_false(stmt.value):
                found.append([name, stmt.lineno, stmt.col_offset, stmt.end_lineno or stmt.lineno])
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            if isinstance(stmt.value, ast.Call) and _tail(stmt.value.func) in ("ib", "attrib") and not _init_false(stmt.value):
                found.append([stmt.targets[0].id, stmt.lineno, stmt.col_offset, stmt.end_lineno or stmt.lineno])
    return found


NAMES_ONLY = frozenset({"fields"})  # enumerate the fields' names (and `__dataclass_fields__`, `model_fields`)


def _reflection(method: ast.FunctionDef | ast.AsyncFunctionDef, self_name: str) -> int | None:
    """The first line where a method reads its own fields' values by reflection, or None.

    `asdict(self)`, `vars(self)`, `self.__dict__`, `self.model_dump()`, `getattr(self, name)` read every field.
    `fields(cls)` or `cls.model_fields` only enumerate names (a `from_kwargs` filtering the keywords its
    constructor takes reads no value): with a `getattr(self, name)` beside them, the getattr is the read.
    """
    lines: list[int] = []
    for stmt in walk_nodes(method):
        if isinstance(stmt, ast.Call):
            tail = _tail(stmt.func)
            first = stmt.args[0] if stmt.args else None
            own = isinstance(first, ast.Name) and first.id == self_name
            if own and tail in REFLECT_CALLS and tail not in NAMES_ONLY:
                lines.append(stmt.lineno)
            elif own and tail == "getattr" and len(stmt.args) > 1 and literal_str(stmt.args[1]) is None:
                lines.append(stmt.lineno)
            elif isinstance(stmt.func, ast.Attribute) and stmt.func.attr in REFLECT_METHODS and \
                    isinstance(stmt.func.value, ast.Name) and stmt.func.value.id == self_name:
                lines.append(stmt.lineno)
        elif isinstance(stmt, ast.Attribute) and stmt.attr == "__dict__" and isinstance(stmt.value, ast.Name) \
                and stmt.value.id == self_name:
            lines.append(stmt.lineno)
    return min(lines) if lines else None


def _own_state(node: ast.ClassDef) -> tuple[list[list[Any]], int | None]:
    """Writes of `self.X` by the class's methods, and the first line that reads the class's values by reflection."""
    writes: list[list[Any]] = []
    reflective: int | None = None
    for method in (s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))):
        if not method.args.args:
            continue
        self_name = method.args.args[0].arg
        top_level = {id(s) for s in method.body}
        loads: dict[str, int] = {}  # attribute -> first line the method reads `self.attr`
        for item in walk_nodes(method):
            if isinstance(item, ast.Attribute) and isinstance(item.ctx, ast.Load) and isinstance(item.value, ast.Name) \
                    and item.value.id == self_name:
                loads[item.attr] = min(loads.get(item.attr, item.lineno), item.lineno)
        for stmt in walk_nodes(method):
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name:
                        rereads = loads.get(target.attr, stmt.lineno + 1) <= (stmt.end_lineno or stmt.lineno)
                        writes.append([target.attr, stmt.lineno, method.name, id(stmt) in top_level, rereads])
        line = _reflection(method, self_name)
        if line is not None and (reflective is None or line < reflective):
            reflective = line
    return writes, reflective


def _cli_option(call: ast.Call) -> list[Any] | None:
    flags = [literal_str(a) for a in call.args]
    if not flags or any(f is None for f in flags):
        return None
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    action = literal_str(keywords.get("action"))
    if action in ("help", "version") or "-h" in flags:
        return None
    dest = literal_str(keywords.get("dest"))
    if dest is None:
        longs = [f for f in flags if f and f.startswith("--")]
        first = longs[0] if longs else flags[0]
        dest = (first or "").lstrip("-").replace("-", "_")
    suppressed = "SUPPRESS" in ast.unparse(keywords["help"]) if "help" in keywords else False
    return [dest, flags, call.lineno, call.col_offset, suppressed, call.end_lineno or call.lineno]


def _env_var(value: ast.AST) -> str | None:
    for node in walk_nodes(value):
        if isinstance(node, ast.Call):
            written = dotted(node.func) or ""
            if (written in ENV_CALLS or written.endswith((".getenv", "environ.get"))) and node.args:
                return literal_str(node.args[0])
        if isinstance(node, ast.Subscript) and (dotted(node.value) or "").endswith("environ"):
            return literal_str(node.slice)
    return None


class _Visitor(FastVisitor):
    """One pass: copies, writer keys, whole uses and CLI options."""

    def __init__(self, want_paths: bool) -> None:
        self.classes: list[str] = []
        self.types: list[dict[str, str]] = [{}]
        self.copies: list[list[Any]] = []
        self.writer_keys: list[list[Any]] = []
        self.reader_keys: list[list[Any]] = []
        self.name_lists: list[list[Any]] = []
        self.whole: list[list[Any]] = []
        self.cli: list[list[Any]] = []
        self.aliases: list[dict[str, str]] = [{}]  # local name -> the section it holds (`params = to_dict(x.sampling)`)
        self.owned: dict[str, set[str]] = {}  # "Class:line" -> attributes it declares or assigns through self
        self.owners: list[set[str]] = []
        self.selves: list[str] = [""]  # the first parameter of the enclosing method ("" outside methods)
        self.config_classes: list[ast.ClassDef] = []
        self.data_classes: list[ast.ClassDef] = []  # every other class: the data models among them (`model_fields`)
        self.want_paths = want_paths
        self.paths: set[str] = set()

    def _use(self, node: ast.AST, line: int, how: str) -> None:
        """Record an object used whole, under its last name and the section a local alias holds."""
        name = _last_name(node)
        if not name:
            return
        self.whole.append([name, line, how])
        held = self.aliases[-1].get(name) if isinstance(node, ast.Name) else None
        if held and held != name:
            self.whole.append([held, line, how])

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node.name)
        owned = self.owned.setdefault(f"{node.name}:{node.lineno}", set())
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                owned.add(stmt.target.id)
            elif isinstance(stmt, ast.Assign):
                owned.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        if CONFIG_NAME.search(node.name) or documents_its_fields(node):
            self.config_classes.append(node)
        else:
            self.data_classes.append(node)
        self.owners.append(owned)
        self.generic_visit(node)
        self.owners.pop()
        self.classes.pop()

    def visit_Constant(self, node: ast.Constant) -> None:
        if self.want_paths and isinstance(node.value, str) and len(node.value) <= 200 and PATH_LIKE.search(node.value):
            self.paths.add(node.value.strip())

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        types: dict[str, str] = {}
        arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        for arg in arguments:
            found = annotation_type(arg.annotation)
            if found:
                types[arg.arg] = found
        method = bool(self.classes) and bool(arguments) and not any(_tail(d) == "staticmethod" for d in node.decorator_list)
        if method:
            types.setdefault(arguments[0].arg, self.classes[-1])
        self.types.append(types)
        self.aliases.append({})
        self.selves.append(arguments[0].arg if method else "")
        self.generic_visit(node)
        self.selves.pop()
        self.aliases.pop()
        self.types.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and not isinstance(node.value, ast.Name):
                held = _last_name(node.value)
                if held:
                    self.aliases[-1][target.id] = held
            if isinstance(target, ast.Name) and isinstance(node.value, ast.Call):
                callee = _tail(node.value.func)
                if callee[:1].isupper():
                    self.types[-1][target.id] = callee
            elif isinstance(target, ast.Attribute) and isinstance(node.value, ast.Attribute) and self.classes:
                owner = self.types[-1].get(dotted(target.value) or "")
                if owner:
                    self.copies.append([node.value.attr, node.lineno, owner, target.attr])
            if isinstance(target, ast.Subscript):
                key = literal_str(target.slice)
                if key is not None:
                    self.writer_keys.append([key, node.lineno])
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name):
            found = annotation_type(node.annotation)
            if found:
                self.types[-1][node.target.id] = found
        self.generic_visit(node)

    def visit_Tuple(self, node: ast.Tuple | ast.List | ast.Set) -> None:
        names = [literal_str(item) for item in node.elts]
        if len(names) >= 2 and all(n is not None and IDENTIFIER.match(n) for n in names):
            self.name_lists.extend([name, item.lineno] for name, item in zip(names, node.elts))
        self.generic_visit(node)

    visit_List = visit_Tuple
    visit_Set = visit_Tuple

    def visit_Dict(self, node: ast.Dict) -> None:
        for key, value in zip(node.keys, node.values):
            text = literal_str(key)
            if text is not None:
                self.writer_keys.append([text, key.lineno])  # type: ignore[union-attr]
            elif key is None:
                self._use(value, value.lineno, "**")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if not isinstance(node.ctx, ast.Load) and self.owners and self.selves[-1] and isinstance(node.value, ast.Name) and node.value.id == self.selves[-1]:
            self.owners[-1].add(node.attr)  # `self.x = ...` in a method: the class holds x
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        key = literal_str(node.slice)
        if key is not None and isinstance(node.ctx, ast.Load):
            self.reader_keys.append([key, node.lineno])
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        tail = _tail(node.func)
        read_key = node.args[1] if tail == "getattr" and len(node.args) > 1 else (
            node.args[0] if tail in ("get", "pop", "setdefault") and isinstance(node.func, ast.Attribute) and node.args else None)
        if literal_str(read_key) is not None:
            self.reader_keys.append([literal_str(read_key), node.lineno])
        if tail == "add_argument":
            found = _cli_option(node)
            if found:
                self.cli.append(found)
        for keyword in node.keywords:
            if keyword.arg is None:
                self._use(keyword.value, node.lineno, "**")
            elif isinstance(keyword.value, ast.Attribute) and tail[:1].isupper():
                self.copies.append([keyword.value.attr, keyword.value.lineno, tail, keyword.arg])
        if tail in WHOLE_CALLS and node.args:
            self._use(node.args[0], node.lineno, tail)
        if tail in MERGES:
            for arg in node.args:
                self._use(arg, node.lineno, "merge")
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("items", "keys", "values", *REFLECT_METHODS):
            self._use(node.func.value, node.lineno, node.func.attr)
        self.generic_visit(node)

    def visit_For(self, node: ast.For) -> None:
        if isinstance(node.iter, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
            self._use(node.iter, node.lineno, "for")
        self.generic_visit(node)

    visit_AsyncFor = visit_For


def _encoded(copies: list[list[Any]]) -> dict[str, str]:
    """`[[attr, line, Target, keyword], ...]` as attr -> `"line:Target:keyword,..."` (smaller in the cache)."""
    found: dict[str, list[str]] = {}
    for attr, line, target, keyword in copies:
        found.setdefault(attr, []).append(f"{line}:{target}:{keyword}")
    return {attr: ",".join(items) for attr, items in found.items()}


def scan_options(tree: ast.Module, context: ModuleContext) -> dict[str, Any]:
    """The configuration facts of one module (see the module docstring), in one pass over the tree."""
    visitor = _Visitor(want_paths="yml" in context.source or "yaml" in context.source)
    visitor.visit(tree)
    classes = []
    for node in visitor.config_classes:
        kind = _class_kind(node, context.imports)
        if kind is None:
            continue
        writes, reflective = _own_state(node)
        classes.append({
            "name": node.name, "line": node.lineno, "end": node.end_lineno or node.lineno, "kind": kind,
            "bases": [_resolved(dotted(b) or "", context.imports) for b in node.bases],
            "fields": _fields(node), "writes": writes, "reflective": reflective,
        })
    env = []
    if "environ" in context.source or "getenv" in context.source:
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                var = _env_var(stmt.value)
                if var:
                    env.append([stmt.targets[0].id, var, stmt.lineno, stmt.col_offset])
    # Fields of the other data models (a pydantic `ModelSetBase`, a dataclass): a file loaded into one has readers.
    model_fields = sorted({field[0] for node in visitor.data_classes if _class_kind(node, context.imports) is not None
                           for field in _fields(node)})
    whole = [list(w) for w in dict.fromkeys(tuple(w) for w in visitor.whole if w[0])]
    found = {
        "classes": classes, "model_fields": model_fields, "cli": visitor.cli, "env": env,
        "copies": _encoded(visitor.copies), "writer_keys": visitor.writer_keys, "reader_keys": visitor.reader_keys,
        "name_lists": visitor.name_lists, "whole": whole, "paths": sorted(visitor.paths),
        "owned": {key: sorted(names) for key, names in visitor.owned.items() if names},
        "dicts": dict_flows(tree, context),
        "cli_functions": scan_cli_functions(tree, context.module, context.imports, context.source),
    }
    return {key: value for key, value in found.items() if value}  # every run loads these from the cache: keep them small
