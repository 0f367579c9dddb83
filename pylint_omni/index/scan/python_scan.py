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
- `links`: what the reference graph resolves — chains, receivers of a known class,
  calls, `*_cls` flows, table reads with their key sources, the export table
  (`link_scan`).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from pylint_omni.index.facts import PythonFacts

from pylint_omni.index.scan.ast_helpers import FastVisitor, dotted, fstring_parts, literal_str, parse_source, walk_nodes
from pylint_omni.index.scan.bindings import absolute_module
from pylint_omni.index.scan.link_scan import scan_links
from pylint_omni.index.scan.provenance import scan_provenance
from pylint_omni.index.scan.registry_scan import find_registries
from pylint_omni.index.scan.state_scan import scan_state
from pylint_omni.index.scanners import ModuleContext, PythonScanner, python_scanners
from pylint_omni.index.scan.tokens import RefSink, record_embedded_paths, record_string

IDENTIFIER_WORD = re.compile(r"[A-Za-z_]\w*")
RESOLVER_CALL = re.compile(r"(resolve|load_class|import_string|import_from_string|locate|qualname)", re.I)
ENUM_BASES = {"Enum", "StrEnum", "IntEnum", "enum.Enum", "enum.StrEnum", "enum.IntEnum"}
PROTOCOL_BASES = {"Protocol", "typing.Protocol", "typing_extensions.Protocol"}


class _Visitor(FastVisitor):
    """One pass over a module: references and definitions."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.refs = RefSink()
        self.imports: dict[str, str] = {}
        self.constants: dict[str, str] = {}
        self.classes: list[dict[str, Any]] = []
        self.functions: list[dict[str, Any]] = []
        self.scope: list[str] = []
        self.docstrings: set[int] = set()
        self.forward_refs: set[int] = set()
        self.top_imports: list[list[Any]] = []  # [module, line] of each import statement of the module body itself
        self.handlers = 0  # depth of `except` handlers around the node visited: their imports are fallbacks

    # -- traversal -------------------------------------------------------------------
    def _mark_docstring(self, body: list[ast.stmt]) -> None:
        if body and isinstance(body[0], ast.Expr) and literal_str(body[0].value) is not None:
            self.docstrings.add(id(body[0].value))

    def visit_Module(self, node: ast.Module) -> None:
        self._mark_docstring(node.body)
        for stmt in node.body:
            if isinstance(stmt, ast.Import):
                self.top_imports += [[alias.name, stmt.lineno] for alias in stmt.names]
            elif isinstance(stmt, ast.ImportFrom):
                base = absolute_module(stmt.module, stmt.level, self.package)
                if base:
                    self.top_imports.append([base, stmt.lineno])
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                target, value = stmt.target, stmt.value
            else:
                continue
            text = literal_str(value)
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
    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self.handlers += 1
        self.generic_visit(node)
        self.handlers -= 1

    def _bind_import(self, local: str, target: str) -> None:
        # `try: from .template import T` / `except ImportError: from template import T` (GPT-NeoX): the name is the
        # try body's; the fallback import does not rebind it.
        if not (self.handlers and local in self.imports):
            self.imports[local] = target

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            local = alias.asname or alias.name.split(".")[0]
            self._bind_import(local, alias.name if alias.asname else alias.name.split(".")[0])
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
            self._bind_import(alias.asname or alias.name, f"{base}.{alias.name}" if base else alias.name)
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
        fields = [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
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
                **({"fields": ",".join(fields)} if fields else {}),
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
                **_parameters(node.args),
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
            self.forward_refs.update(id(n) for n in walk_nodes(annotation) if literal_str(n) is not None)

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
        record_embedded_paths(self.refs, node.value, node.lineno, "str")

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        # f"{_PROC}.func" with `_PROC = "pkg.mod"`: the assembled path is a reference.
        parts = fstring_parts(node, self.constants)
        if parts and None not in parts:
            record_string(self.refs, "".join(part for part in parts if part is not None), node.lineno, "fstr")
        self.generic_visit(node)


def _parameters(args: ast.arguments) -> dict[str, str]:
    """`{"params": "a,b,*rest,**kwargs"}`: the names callers may pass (one string: cheap to load from the cache)."""
    names = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    if args.vararg is not None:
        names.append("*" + args.vararg.arg)
    if args.kwarg is not None:
        names.append("**" + args.kwarg.arg)
    return {"params": ",".join(names)} if names else {}


def _run_scanner(scanner: PythonScanner, tree: ast.Module, context: ModuleContext) -> Any:
    """A family's scanner: a failure on one file costs that file's fact (None), never the index."""
    try:
        return scanner(tree, context)
    except (RecursionError, ValueError, TypeError, AttributeError, KeyError, IndexError):
        return None


def module_imports(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Local name -> dotted path of every import of a module, as `scan_python` resolves them."""
    visitor = _Visitor(module, is_package)
    for node in walk_nodes(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            visitor.visit(node)
    return visitor.imports


def scan_python(source: str, module: str, is_package: bool, filename: str = "<unknown>", audited: bool | None = True) -> PythonFacts:
    """Facts of one Python source text; a syntax error gives facts with `error` set. A file the audit does
    not report on (a test, `audited` false) gets only the scanners that read consumers; `audited` None: none."""
    try:
        tree = parse_source(source, filename=filename)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        reason = f"syntax error at line {exc.lineno}: {exc.msg}" if isinstance(exc, SyntaxError) else f"cannot parse: {exc}"
        return {"kind": "python", "module": module, "error": reason, "refs": {}}
    visitor = _Visitor(module, is_package)
    try:
        visitor.visit(tree)
    except RecursionError:
        return {"kind": "python", "module": module, "error": "nesting too deep to scan", "refs": {}}
    facts: PythonFacts = {
        "kind": "python",
        "module": module,
        "error": None,
        "refs": visitor.refs.encoded(),
        "imports": visitor.imports,
        "top_imports": visitor.top_imports,
        "classes": visitor.classes,
        "functions": visitor.functions,
        "links": scan_links(tree, module, is_package, visitor.imports, "__subclasses__" in source),
    }
    if audited is None:  # an upstream file: what the upstream index reads of every file, no more (a seventh of its scan)
        return facts
    context = ModuleContext(module, filename, is_package, visitor.imports, source)
    return {
        **facts,
        "registries": find_registries(tree, visitor.imports, module, is_package),
        **scan_state(tree),
        "provenance": scan_provenance(source, tree),
        "extra": {key: _run_scanner(scanner, tree, context) for key, scanner in python_scanners(audited).items()},
    }
