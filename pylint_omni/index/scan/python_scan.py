"""Facts of one Python file, read with the standard `ast` module (never imported, never run).

A file's facts are plain JSON-ready data so that the index can cache them on disk:
- `refs`: every identifier and every string that can name code, with line and how it
  was seen (`via`): a Name, an attribute, a call, a string literal, a dotted import
  path, a `getattr`/`import_module`/resolver argument, an f-string resolved against a
  module constant, `__all__` (a re-export, not a use), an import (likewise);
  stored as token -> "line,via|line,via" (`tokens.encode_hits`), read through
  `ProjectIndex.hits`/`occurrences`.
- `classes`/`functions`: definitions with spans, bases (resolved through imports),
  decorators, abstract and `NotImplementedError` methods.
- `registries`: module-level string-keyed tables and their entries (`registry_scan`).
- `registry_uses`: how constant-style names are used (keyed lookups, dynamic lookups,
  enumeration), so that a registry's liveness can be judged across files.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from pylint_omni.index.facts import PythonFacts

from pylint_omni.index.scan.ast_helpers import FastVisitor, dotted, literal_str
from pylint_omni.index.scan.provenance import scan_provenance
from pylint_omni.index.scan.registry_scan import find_registries
from pylint_omni.index.scan.state_scan import scan_state
from pylint_omni.index.scanners import ModuleContext, PythonScanner, python_scanners
from pylint_omni.index.scan.tokens import RefSink, record_string

CONSTANT_NAME = re.compile(r"^_*[A-Z][A-Z0-9_]*$")
IDENTIFIER_WORD = re.compile(r"[A-Za-z_]\w*")
RESOLVER_CALL = re.compile(r"(resolve|load_class|import_string|import_from_string|locate|qualname)", re.I)
ENUM_BASES = {"Enum", "StrEnum", "IntEnum", "enum.Enum", "enum.StrEnum", "enum.IntEnum"}
PROTOCOL_BASES = {"Protocol", "typing.Protocol", "typing_extensions.Protocol"}
ENUMERATING_CALLS = {"list", "sorted", "tuple", "set", "dict", "iter", "enumerate", "frozenset"}
USER_SOURCES = ("environ", "getenv", "argv", "args.", "cli_args", "parsed_args")
EXTERNAL_SOURCES = ("architectures", "_class_name", "model_type", "hf_config", "hf_text_config")


def fstring_pattern(node: ast.JoinedStr) -> str:
    """Shape of an f-string with `*` for each hole: f"{a}_attn" -> "*_attn"."""
    out = []
    for part in node.values:
        text = literal_str(part)
        out.append(text.replace("*", "") if text is not None else "*")
    return "".join(out)


def classify_key_expr(node: ast.AST) -> str:
    """How a registry lookup builds its key; drives the dynamic-lookup downgrades."""
    if isinstance(node, ast.JoinedStr):
        return "pattern:" + fstring_pattern(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        parts = []
        for side in (node.left, node.right):
            text = literal_str(side)
            parts.append(text if text is not None else "*")
        return "pattern:" + "".join(parts)
    if isinstance(node, ast.Attribute) and node.attr == "__name__":
        return "classname"
    source = ast.unparse(node)
    if any(marker in source for marker in EXTERNAL_SOURCES):
        return "external"
    if any(marker in source for marker in USER_SOURCES):
        return "user"
    return "var"


class _Visitor(FastVisitor):
    """One pass over a module: references, definitions and constant-name uses."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.refs = RefSink()
        self.imports: dict[str, str] = {}
        self.constants: dict[str, str] = {}
        self.classes: list[dict[str, Any]] = []
        self.functions: list[dict[str, Any]] = []
        self.registry_uses: list[dict[str, Any]] = []
        self.scope: list[str] = []
        self.parents: list[ast.AST] = []
        self.docstrings: set[int] = set()
        self.forward_refs: set[int] = set()
        self.tracked: set[str] = set()
        self.writer_params: dict[str, set[int]] = {}

    # -- traversal -------------------------------------------------------------------
    def generic_visit(self, node: ast.AST) -> None:
        self.parents.append(node)
        super().generic_visit(node)
        self.parents.pop()

    def _mark_docstring(self, body: list[ast.stmt]) -> None:
        if body and isinstance(body[0], ast.Expr) and literal_str(body[0].value) is not None:
            self.docstrings.add(id(body[0].value))

    def visit_Module(self, node: ast.Module) -> None:
        self._mark_docstring(node.body)
        self.writer_params = _writer_params(node)
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                target, value = stmt.target, stmt.value
            else:
                continue
            text = literal_str(value)
            if isinstance(target, ast.Name) and isinstance(value, (ast.Dict, ast.List, ast.Tuple, ast.Call)):
                self.tracked.add(target.id)
            if isinstance(target, ast.Name) and text is not None:
                self.constants[target.id] = text
            if isinstance(target, ast.Name) and target.id == "__all__":
                for elt in getattr(value, "elts", []):
                    name = literal_str(elt)
                    if name:
                        self.refs.add(name, elt.lineno, "all")
                self.docstrings.update(id(elt) for elt in getattr(value, "elts", []))
        self.generic_visit(node)

    # -- imports -----------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            local = alias.asname or alias.name.split(".")[0]
            self.imports[local] = alias.name if alias.asname else alias.name.split(".")[0]
            for part in alias.name.split("."):
                self.refs.add(part, node.lineno, "import")
            self.refs.add(alias.name, node.lineno, "import")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            anchor = self.package.split(".") if self.package else []
            anchor = anchor[: len(anchor) - (node.level - 1)] if node.level > 1 else anchor
            base = ".".join([*anchor, base] if base else anchor)
        for part in base.split("."):
            if part:
                self.refs.add(part, node.lineno, "import")
        for alias in node.names:
            if alias.name == "*":
                continue
            self.imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
            self.tracked.add(alias.asname or alias.name)
            self.refs.add(alias.name, node.lineno, "import")

    # -- definitions ---------------------------------------------------------------------
    def resolve(self, name: str | None) -> str | None:
        """Resolve a dotted name through this module's imports (best effort, no import)."""
        if not name:
            return None
        head, _, rest = name.partition(".")
        if head in self.imports:
            return self.imports[head] + ("." + rest if rest else "")
        return name

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._mark_docstring(node.body)
        bases_written = [ast.unparse(b) for b in node.bases]
        bases = [self.resolve(dotted(b)) or ast.unparse(b) for b in node.bases]
        for kw in node.keywords:
            if kw.arg == "metaclass":
                bases_written.append("metaclass=" + ast.unparse(kw.value))
        methods: list[str] = []
        abstract: list[str] = []
        notimpl: list[str] = []
        defaulted: list[str] = []
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                methods.append(stmt.name)
                decos = {ast.unparse(d).rpartition(".")[2] for d in stmt.decorator_list}
                body = [s for s in stmt.body if not (isinstance(s, ast.Expr) and literal_str(s.value) is not None)]
                raises_notimpl = bool(body) and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.unparse(body[0])
                if "abstractmethod" in decos:
                    abstract.append(stmt.name)
                elif raises_notimpl and len(body) == 1:
                    notimpl.append(stmt.name)
                elif body and not all(isinstance(s, (ast.Pass,)) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)) for s in body):
                    defaulted.append(stmt.name)
        qual = ".".join([*self.scope, node.name])
        self.classes.append(
            {
                "name": node.name,
                "qual": qual,
                "line": node.lineno,
                "col": node.col_offset,
                "end": node.end_lineno or node.lineno,
                "bases": bases,
                "bases_written": bases_written,
                "decorators": [ast.unparse(d) for d in node.decorator_list],
                "methods": methods,
                "abstract": abstract,
                "notimpl": notimpl,
                "defaulted": defaulted,
                "protocol": any(b in PROTOCOL_BASES or b.endswith(".Protocol") for b in bases),
                "enum": any(b in ENUM_BASES or b.endswith("Enum") for b in bases),
                "nested": bool(self.scope),
            }
        )
        for base in node.bases:
            for part in (dotted(base) or "").split("."):
                if part:
                    self.refs.add(part, base.lineno, "base")
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._mark_docstring(node.body)
        self._mark_forward_refs(node.returns)
        self.functions.append(
            {
                "name": node.name,
                "qual": ".".join([*self.scope, node.name]),
                "line": node.lineno,
                "end": node.end_lineno or node.lineno,
                "decorators": [ast.unparse(d) for d in node.decorator_list],
                "toplevel": not self.scope,
            }
        )
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    # -- references ----------------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> None:
        via = "name" if isinstance(node.ctx, ast.Load) else "store"
        if via == "name":
            self.refs.add(node.id, node.lineno, "name")
            if CONSTANT_NAME.match(node.id) or node.id in self.tracked:
                self._record_constant_use(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            self.refs.add(node.attr, node.lineno, "attr")
        else:
            self.refs.add(node.attr, node.lineno, "attr-store")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = dotted(node.func) or ""
        tail = name.rpartition(".")[2]
        if tail:
            self.refs.add(tail, node.lineno, "call")
        first = literal_str(node.args[0]) if node.args else None
        second = literal_str(node.args[1]) if len(node.args) > 1 else None
        if tail in ("getattr", "hasattr", "setattr", "delattr") and second:
            self.refs.add(second, node.lineno, "getattr")
        elif tail in ("import_module", "__import__", "find_spec") and first:
            record_string(self.refs, first, node.lineno, "import_module")
        elif RESOLVER_CALL.search(tail) and first:
            record_string(self.refs, first, node.lineno, "resolver")
        self.generic_visit(node)

    def _mark_forward_refs(self, annotation: ast.AST | None) -> None:
        """Strings inside an annotation are forward references: names, not data."""
        if annotation is not None:
            self.forward_refs.update(id(n) for n in ast.walk(annotation) if literal_str(n) is not None)

    def visit_arg(self, node: ast.arg) -> None:
        self._mark_forward_refs(node.annotation)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._mark_forward_refs(node.annotation)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if not isinstance(node.value, str) or id(node) in self.docstrings:
            return
        if id(node) in self.forward_refs:
            for name in IDENTIFIER_WORD.findall(node.value):
                self.refs.add(name, node.lineno, "name")
            return
        record_string(self.refs, node.value, node.lineno, "str")

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        # f"{_PROC}.func" with `_PROC = "pkg.mod"`: the assembled path is a reference.
        assembled: list[str] = []
        for part in node.values:
            text = literal_str(part)
            if text is not None:
                assembled.append(text)
            elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name) and part.value.id in self.constants:
                assembled.append(self.constants[part.value.id])
            else:
                assembled = []
                break
        if assembled:
            record_string(self.refs, "".join(assembled), node.lineno, "fstr")
        self.generic_visit(node)

    # -- how constant-style names are used (registry liveness) ---------------------------
    def _record_constant_use(self, node: ast.Name) -> None:
        parent = self.parents[-1] if self.parents else None
        grand = self.parents[-2] if len(self.parents) > 1 else None
        role, detail = "other", ""
        if isinstance(parent, ast.Subscript) and parent.value is node:
            key = literal_str(parent.slice)
            if isinstance(parent.ctx, ast.Store):
                role = "write"
            elif key is not None:
                role, detail = "key", key
            elif self.scope and self.scope[-1] == "__getattr__":
                role, detail = "lookup", "attribute"  # module attributes: keys are names in code
            else:
                role, detail = "lookup", classify_key_expr(parent.slice)
        elif isinstance(parent, ast.Attribute) and parent.value is node:
            attr = parent.attr
            if isinstance(grand, ast.Call) and grand.func is parent:
                arg = grand.args[0] if grand.args else None
                if attr in ("get", "pop", "__getitem__", "setdefault"):
                    key = literal_str(arg)
                    role, detail = ("key", key) if key is not None else ("lookup", classify_key_expr(arg) if arg else "var")
                elif attr in ("items", "keys", "values", "copy"):
                    role, detail = "enumerate", self._enumeration_purpose()
                elif attr in ("update",):
                    role = "write"
                elif attr.startswith("register") or attr in ("add",):
                    role = "write"
                else:
                    role, detail = "other", attr
            else:
                role, detail = "other", attr
        elif isinstance(parent, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops) and node is not parent.left:
            role = "membership"
        elif isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node:
            role, detail = "enumerate", self._enumeration_purpose()
        elif isinstance(parent, ast.Dict) and node in parent.values and None in parent.keys:
            role, detail = "enumerate", "transfer"
        elif isinstance(parent, ast.Call) and node in parent.args:
            tail = (dotted(parent.func) or "").rpartition(".")[2]
            if parent.args.index(node) in self.writer_params.get(tail, ()):
                role = "write"
            elif tail in ("len", "isinstance", "id", "bool"):
                role = "membership"
            elif tail in ENUMERATING_CALLS:
                role, detail = "enumerate", self._enumeration_purpose()
            else:
                role, detail = "enumerate", "passed"
        elif isinstance(parent, (ast.Return, ast.Yield, ast.Assign, ast.keyword, ast.Starred)):
            role, detail = "enumerate", "passed"
        self.registry_uses.append({"name": node.id, "line": node.lineno, "role": role, "detail": detail})

    def _enumeration_purpose(self) -> str:
        """Why a table is enumerated: building another table, a message, or exposure.

        Listing keys in an error message or a module's `__dir__` informs; it looks nothing up.
        """
        if self.scope and self.scope[-1] == "__dir__":
            return "message"
        for ancestor in reversed(self.parents):
            if isinstance(ancestor, (ast.Raise, ast.JoinedStr)):
                return "message"
            if isinstance(ancestor, ast.Call) and (dotted(ancestor.func) or "").rpartition(".")[2] in (
                "error", "warning", "info", "debug", "exception", "print",
            ):
                return "message"
            if isinstance(ancestor, (ast.DictComp, ast.Dict)):
                return "transfer"
            if isinstance(ancestor, ast.stmt):
                break
        return "passed"


def _writer_params(tree: ast.Module) -> dict[str, set[int]]:
    """Module-level functions' parameters used only as `param[key] = value` targets.

    Passing a table to such a function adds entries; it does not hand the table out.
    One walk per function: count each name's uses and its subscript-store uses.
    """
    writers: dict[str, set[int]] = {}
    for stmt in tree.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in stmt.args.posonlyargs + stmt.args.args]
        if not params:
            continue
        uses: dict[str, int] = {}
        stores: dict[str, int] = {}
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name):
                uses[node.id] = uses.get(node.id, 0) + 1
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
                stores[node.value.id] = stores.get(node.value.id, 0) + 1
        for position, param in enumerate(params):
            if uses.get(param) and uses[param] == stores.get(param):
                writers.setdefault(stmt.name, set()).add(position)
    return writers


def _run_scanner(scanner: PythonScanner, tree: ast.Module, context: ModuleContext) -> Any:
    """A family's scanner: a failure on one file costs that file's fact (None), never the index."""
    try:
        return scanner(tree, context)
    except (RecursionError, ValueError, TypeError, AttributeError, KeyError, IndexError):
        return None


def module_imports(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Local name -> dotted path of every import of a module, as `scan_python` resolves them."""
    visitor = _Visitor(module, is_package)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            visitor.visit(node)
    return visitor.imports


def scan_python(source: str, module: str, is_package: bool, filename: str = "<unknown>") -> PythonFacts:
    """Facts of one Python source text; a syntax error gives facts with `error` set."""
    try:
        tree = ast.parse(source, filename=filename)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        reason = f"syntax error at line {exc.lineno}: {exc.msg}" if isinstance(exc, SyntaxError) else f"cannot parse: {exc}"
        return {"kind": "python", "module": module, "error": reason, "refs": {}}
    visitor = _Visitor(module, is_package)
    try:
        visitor.visit(tree)
    except RecursionError:
        return {"kind": "python", "module": module, "error": "nesting too deep to scan", "refs": {}}
    registries = find_registries(tree, visitor.imports, module)
    context = ModuleContext(module, filename, is_package, visitor.imports, source)
    extra = {key: _run_scanner(scanner, tree, context) for key, scanner in python_scanners().items()}
    return {
        "kind": "python",
        "module": module,
        "error": None,
        "refs": visitor.refs.encoded(),
        "imports": visitor.imports,
        "classes": visitor.classes,
        "functions": visitor.functions,
        "registries": registries,
        "registry_uses": visitor.registry_uses,
        **scan_state(tree),
        "provenance": scan_provenance(source, tree),
        "extra": extra,
    }
