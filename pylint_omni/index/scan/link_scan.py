"""Link facts of one Python file: the references the reference graph resolves to definitions.

One pass over the module records, each with its line:
- `chains`: every name or attribute chain rooted at an import or a module-level
  definition, written as the dotted path it spells through the imports
  (`from vllm.v1 import engine; engine.EngineCoreOutput` -> `vllm.v1.engine.EngineCoreOutput`)
  with how it is used (`load`, `call`, `store`, `base`, `deco`, `annot`, `getattr`);
- `attrs`: attribute uses on a receiver of known class (`self`/`cls`, a local bound to
  `Cls(...)` or to one of these, a parameter annotated `Cls`, a `self.x` whose class the
  class says: `scan.attribute_types`) as `OWNER|attr`, OWNER the class's chain;
- `held`, `held_types`: reads through an attribute of a receiver of known class
  (`self.builder.build` as `OWNER|builder|build`) and the classes each class assigns
  to its attributes (`self.builder = Builder310(...)`): a base's call through the
  attribute runs on whatever a subclass put there (`surfaces.edges`);
- `calls`: calls of a resolvable callee with the source of each argument (for keys and
  classes handed through parameters);
- `flows`: values flowing into `*_cls`/`*_class` slots (keywords, dict keys, `.get`
  defaults, parameter defaults, attributes) and the places that read such a slot;
- `tables`: reads and writes of module- and class-level tables with the key source
  of each read (`scan.key_sources`);
- `patterns`: qualnames built by f-strings (`f"{_PROC}.{name}"` -> `pkg.proc.*`);
- `dyn`: relative `import_module(".x", package=...)` made absolute;
- `subst`: a project object assigned over another module's name (`upstream_mod.X = OmniX`,
  `setattr(mod, "X", OmniX)`, `module.X = OmniX` in a loop over `sys.modules`);
- `dict_keys`: string keys of dict displays, by line (a key of a sibling table is not a use);
- `mixed`: attribute -> lines where a receiver of unknown class reads it beside a known one;
- `imported`: every dotted path an `import` statement names, module- or function-level;
- `handed`: `[class, callee, line]`, a project object passed to a callable outside the project;
  an import inside a function binds its name there from that statement on, so two
  branches importing one name from two modules each resolve to their own;
- `bindings`, `alternatives`, `all`, `lazy`: the module's export table (`scan.bindings`).
"""

from __future__ import annotations

import ast
from typing import Any

from pylint_omni.index.scan.ast_helpers import FastVisitor, dotted, literal_str, strip_annotation, walk_nodes
from pylint_omni.index.scan.attribute_types import BOUND_DECORATORS, assigned_classes, attribute_types
from pylint_omni.index.scan.bindings import (
    absolute_module, all_names, branch_alternatives, conditional_aliases, lazy_exports, module_bindings, only_imports,
    rebound_imports,
)
from pylint_omni.index.scan.key_sources import FunctionScope, argument_summary
from pylint_omni.index.scan.link_dynamic import CLS_SLOT, DynamicReferences, subclass_enumerators
from pylint_omni.index.scan.link_resolve import PYTHON_CALLS_BACK, ChainResolution
from pylint_omni.index.scan.table_uses import TableUses, writer_params

MAX_CHAIN_HITS = 30


class LinkScanner(ChainResolution, DynamicReferences, TableUses, FastVisitor):
    """One pass over a module; `facts()` gives the JSON-ready link facts."""

    def __init__(self, module: str, is_package: bool, imports: dict[str, str], tree: ast.Module,
                 enumerates: bool = True) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.top = module.partition(".")[0]
        self.bindings, _ = module_bindings(tree, module, self.package)
        self.imports = imports
        self.rebound = rebound_imports(tree)  # imported names a later definition binds again (`bindings`)
        self.constants = {
            s.targets[0].id: text for s in tree.body
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
            and (text := literal_str(s.value)) is not None
        }
        self.chains: dict[str, list[str]] = {}
        self.attrs: dict[str, list[str]] = {}
        self.held: dict[str, list[str]] = {}
        self.held_types: dict[str, dict[str, list[str]]] = {}
        self.calls: list[list[Any]] = []
        self.flows: list[list[Any]] = []
        self.tables: list[list[Any]] = []
        self.patterns: list[list[Any]] = []
        self.dyn: list[list[Any]] = []
        self.subst: list[list[Any]] = []
        self.imported: list[list[Any]] = []
        self.handed: list[list[Any]] = []  # [class chain, callee chain, line]: an instance passed to outside code
        self.dict_keys: dict[str, list[int]] = {}
        self.known_reads: set[tuple[str, int]] = set()  # (attr, line) read on a module chain or a receiver of known class
        self.unknown_reads: set[tuple[str, int]] = set()  # (attr, line) read on a receiver of unknown class
        self.parents: list[ast.AST] = []
        self.classes: list[tuple[str, set[str]]] = []
        self.attr_types: dict[str, dict[str, str]] = {}  # class chain -> attribute -> class chain of its value
        self.functions: list[FunctionScope] = []
        # The names each open class body defines, or None for a function body: a class body's own statements see
        # its earlier names bare (`_MAP = {'zero': constant_init}` names the staticmethod `Cls.constant_init`).
        self.bodies: list[frozenset[str] | None] = []
        self.qual: list[str] = []
        self.module_scope = FunctionScope(module, [], False)
        self.statement_target: str | None = None  # the module-level name a statement assigns
        self.enumerators = subclass_enumerators(tree) if enumerates else {}

    def _add(self, table: dict[str, list[str]], key: str, line: int, ctx: str) -> None:
        hits = table.setdefault(key, [])
        item = f"{line},{ctx}"
        if len(hits) < MAX_CHAIN_HITS and (not hits or hits[-1] != item):
            hits.append(item)

    def _ctx(self, node: ast.AST) -> str:
        parent = self.parents[-1] if self.parents else None
        if isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
            return "store"
        if isinstance(parent, ast.Call) and parent.func is node:
            return "call"
        if isinstance(parent, ast.ClassDef) and node in parent.bases:
            return "base"
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node in parent.decorator_list:
            return "deco"
        if isinstance(parent, (ast.arg, ast.AnnAssign)) and getattr(parent, "annotation", None) is node:
            return "annot"
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and parent.returns is node:
            return "annot"
        return "load"

    # -- traversal ----------------------------------------------------------------------
    LEAVES_NEED_NO_VISIT = True  # the parents of a node without children are never asked

    def generic_visit(self, node: ast.AST) -> None:
        self.parents.append(node)
        super().generic_visit(node)
        self.parents.pop()

    def visit_Module(self, node: ast.Module) -> None:
        for stmt in node.body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
            self.statement_target = target.id if isinstance(target, ast.Name) else None
            self.visit(stmt)
        self.statement_target = None

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for base in [*node.bases, *node.decorator_list, *(k.value for k in node.keywords)]:
            self.parents.append(node)
            self.visit(base)
            self.parents.pop()
        qual = ".".join([*self.qual, node.name])
        names = {t.id for s in node.body if isinstance(s, (ast.Assign, ast.AnnAssign))
                 for t in (s.targets if isinstance(s, ast.Assign) else [s.target]) if isinstance(t, ast.Name)}
        self.classes.append((f"{self.module}.{qual}", names))
        self.attr_types[f"{self.module}.{qual}"] = attribute_types(node, self.class_chain)
        assigned = assigned_classes(node, self.class_chain)
        if assigned:
            self.held_types[f"{self.module}.{qual}"] = assigned
        defined = {s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        self.bodies.append(frozenset(names | defined))
        self.qual.append(node.name)
        for stmt in node.body:
            self.visit(stmt)
        self.qual.pop()
        self.bodies.pop()
        self.classes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for deco in node.decorator_list:
            self.parents.append(node)
            self.visit(deco)
            self.parents.pop()
        args = node.args
        params = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
        decorators = {(dotted(d) or "").rpartition(".")[2] for d in node.decorator_list}
        in_class = bool(self.classes) and self.qual and self.qual[-1] == self.classes[-1][0].rpartition(".")[2]
        bound = bool(in_class and params and not decorators & BOUND_DECORATORS)
        scope = FunctionScope(f"{self.module}.{'.'.join([*self.qual, node.name])}", params, bound)
        if bound:
            scope.receivers[params[0]] = self.classes[-1][0]
        defaults = [*([None] * (len(args.posonlyargs) + len(args.args) - len(args.defaults))), *args.defaults, *args.kw_defaults]
        for arg, default in zip([*args.posonlyargs, *args.args, *args.kwonlyargs], defaults):
            if arg.annotation is not None:
                self.parents.append(arg)
                self.visit(arg.annotation)
                self.parents.pop()
                owner = self.class_chain(strip_annotation(arg.annotation))
                if owner and arg.arg not in scope.receivers:
                    scope.receivers[arg.arg] = owner
            if default is not None:
                self.visit(default)
                if CLS_SLOT.match(arg.arg):
                    self._flow(arg.arg, default, "default")
        if node.returns is not None:
            self.parents.append(node)
            self.visit(node.returns)
            self.parents.pop()
        self.functions.append(scope)
        self.bodies.append(None)
        self.qual.append(node.name)
        for stmt in node.body:
            self.visit(stmt)
        self.qual.pop()
        self.bodies.pop()
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            local = alias.asname or alias.name.split(".")[0]
            self._imported(alias.name, alias.name if alias.asname else local, local, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = absolute_module(node.module, node.level, self.package)
        for alias in node.names:
            target = f"{base}.{alias.name}" if base else alias.name
            if alias.name != "*":
                self._imported(target, target, alias.asname or alias.name, node.lineno)
            elif base:  # `from .quant_pooling import *` runs that module (its registrations) as surely as any import
                self.imported.append([base, node.lineno])

    def _imported(self, named: str, bound: str, local: str, line: int) -> None:
        """Record an import; inside a function it binds `local` there from this statement on."""
        self.imported.append([named, line])
        if self.functions:
            scope = self.functions[-1]
            earlier = scope.imports.get(local)
            if earlier is not None and earlier != bound:
                scope.import_alternatives.setdefault(local, []).append(earlier)
            scope.imports[local] = bound

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.bodies.append(None)  # a lambda's body is a function's: it does not see the class body's names
        self.visit(node.body)
        self.bodies.pop()

    def visit_Assign(self, node: ast.Assign) -> None:
        # The value runs before the targets bind: `cls = wrap(cls)` reads the `cls` an import bound
        self.parents.append(node)
        self.visit(node.value)
        self._bind_locals(node.targets, node.value)
        for target in node.targets:
            self.visit(target)
            if isinstance(target, ast.Attribute) and dotted(target) in PYTHON_CALLS_BACK:
                self._handed(dotted(target) or "", [node.value], node.lineno)  # `sys.stdout = Tee(...)`: Python writes to it
        self.parents.pop()

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        scope = self.scope()
        owner = self.class_chain(strip_annotation(node.annotation))
        if scope is not None and isinstance(node.target, ast.Name) and owner:
            scope.receivers[node.target.id] = owner
        if node.value is not None:
            self._bind_locals([node.target], node.value)
        self.generic_visit(node)

    def _bind_locals(self, targets: list[ast.expr], value: ast.AST) -> None:
        scope = self.scope()
        for target in targets:
            if isinstance(target, ast.Attribute) and self._substitutes(target, value):
                continue
            if scope is None or not isinstance(target, ast.Name):
                continue
            scope.values[target.id] = value
            scope.receivers.pop(target.id, None)
            scope.imports.pop(target.id, None)
            scope.import_alternatives.pop(target.id, None)
            known = self.class_chain(value.func) if isinstance(value, ast.Call) else self.receiver_class(value)
            if isinstance(value, ast.Constant) and value.value is None:
                continue  # `m = None` before the branches that create it says nothing of its class
            agreed = scope.bound_class.setdefault(target.id, known or "")
            if agreed != (known or ""):
                scope.bound_class[target.id] = ""
            elif known:
                scope.receivers[target.id] = known

    def _substitutes(self, target: ast.Attribute, value: ast.AST) -> bool:
        """`upstream_mod.X = OmniX` or `module.X = OmniX` in a loop over `sys.modules`."""
        replacement = self.chain_of(value)
        if not replacement:
            return False
        if isinstance(target.value, ast.Name) and self.receiver_class(target.value) == "sys.modules:*":
            self.subst.append([f"*.{target.attr}", replacement, target.lineno])
            return True
        owner = self.chain_of(target.value)
        if owner:
            self.subst.append([f"{owner}.{target.attr}", replacement, target.lineno])
        return False

    def visit_For(self, node: ast.For | ast.comprehension) -> None:
        source = ast.unparse(node.iter)
        scope = self.scope() or self.module_scope
        if "sys.modules" in source:
            names = [t.id for t in walk_nodes(node.target) if isinstance(t, ast.Name)]
            if names:
                scope.receivers[names[-1]] = "sys.modules:*"
                scope.values.pop(names[-1], None)
        self.generic_visit(node)

    visit_AsyncFor = visit_For
    visit_comprehension = visit_For

    # -- references -----------------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> None:
        chain = self.chain_of(node)
        if chain:
            self._add(self.chains, chain, node.lineno, self._ctx(node))
            self._table_use(node, chain)
            if self.functions and chain == self.functions[-1].imports.get(node.id):
                for other in self.functions[-1].import_alternatives.get(node.id, ()):
                    self._add(self.chains, other, node.lineno, self._ctx(node))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = self.chain_of(node)
        loaded = isinstance(node.ctx, ast.Load)
        if loaded and isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name):
            holder = self.receiver_class(node.value.value)
            if holder and holder != "sys.modules:*":
                self._add(self.held, f"{holder}|{node.value.attr}|{node.attr}", node.lineno, self._ctx(node))
        if chain:
            if loaded:
                self.known_reads.add((node.attr, node.lineno))
            self._add(self.chains, chain, node.lineno, self._ctx(node))
            self._table_use(node, chain)
            self._prefix_table_uses(node)
            return
        owner = self.receiver_class(node.value)
        if owner:
            if owner == "sys.modules:*":
                return
            if loaded:
                self.known_reads.add((node.attr, node.lineno))
            self._add(self.attrs, f"{owner}|{node.attr}", node.lineno, self._ctx(node))
            if self.classes and owner == self.classes[-1][0] and node.attr in self.classes[-1][1]:
                self._table_use(node, f"{owner}.{node.attr}")
            if CLS_SLOT.match(node.attr) and loaded:
                self.flows.append([node.attr, "", node.lineno, "read"])
            if not isinstance(node.value, ast.Name):
                self.generic_visit(node)  # `self.od_config` inside `self.od_config.num_gpus`
            return
        if loaded:
            self.unknown_reads.add((node.attr, node.lineno))
            if CLS_SLOT.match(node.attr):
                self.flows.append([node.attr, "", node.lineno, "read"])
        self.generic_visit(node)

    def _prefix_table_uses(self, node: ast.Attribute) -> None:
        """`T.items()`, `mod.T.get(k)`: the table is a prefix of the chain just recorded."""
        depth = len(self.parents)
        outer: ast.AST = node
        inner = node.value
        while isinstance(inner, (ast.Attribute, ast.Name)):
            self.parents.append(outer)
            chain = self.chain_of(inner)
            if chain:
                self._table_use(inner, chain)
            outer, inner = inner, getattr(inner, "value", None)
        del self.parents[depth:]

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        tail = (dotted(func) or "").rpartition(".")[2]
        callee = self.chain_of(func)
        if callee is None and isinstance(func, ast.Attribute):
            owner = self.receiver_class(func.value)
            if owner and owner != "sys.modules:*":
                callee = f"{owner}.{func.attr}"
        scope = self.scope()
        if tail in ("getattr", "setattr", "hasattr") and len(node.args) >= 2:
            self._getattr_call(tail, node)
        if tail == "import_module" and node.args:
            self._import_module(node)
        if isinstance(func, ast.Name) and func.id in self.enumerators:
            self._enumerating_call(func.id, node)
        if callee:
            args = [argument_summary(a, scope, self.constants, self.chain_of(a)) for a in node.args]
            keywords = {k.arg: argument_summary(k.value, scope, self.constants, self.chain_of(k.value)) for k in node.keywords if k.arg}
            if callee.partition(".")[0] == self.top or any(args) or any(keywords.values()):
                self.calls.append([callee, node.lineno, args, keywords])
            if callee.partition(".")[0] != self.top or callee.rpartition(".")[2][:1].isupper():  # outside, or a class
                self._handed(callee, [*node.args, *(k.value for k in node.keywords)], node.lineno)
        for keyword in node.keywords:
            if keyword.arg and CLS_SLOT.match(keyword.arg):
                self._flow(keyword.arg, keyword.value, "kw")
        if isinstance(func, ast.Attribute) and func.attr in ("get", "pop") and node.args:
            slot = literal_str(node.args[0])
            if slot and CLS_SLOT.match(slot):
                self.flows.append([slot, "", node.lineno, "read"])
                if len(node.args) > 1:
                    self._flow(slot, node.args[1], "default")
        self.generic_visit(node)

    def _handed(self, callee: str, values: list[ast.expr], line: int) -> None:
        """Project objects passed to code outside the project (`add_Servicer_to_server(self._servicer, ...)`,
        `LogMonitor(gcs_publisher=StdPublisher())`): that code may call their methods by name."""
        for value in values:
            # An instance (`Servicer()`, a variable of known class), or the class itself (`add_scheme_client(WekaClient)`)
            held = self.class_chain(value.func) if isinstance(value, ast.Call) else (
                self.receiver_class(value) or (self.class_chain(value) if isinstance(value, (ast.Name, ast.Attribute)) else None))
            if held and held.partition(".")[0] == self.top and held != "sys.modules:*":
                self.handed.append([held, callee, line])

    def visit_Dict(self, node: ast.Dict) -> None:
        for key, value in zip(node.keys, node.values):
            slot = literal_str(key)
            if slot is not None and key is not None:
                lines = self.dict_keys.setdefault(slot, [])
                if key.lineno not in lines:
                    lines.append(key.lineno)
            if slot and CLS_SLOT.match(slot):
                self._flow(slot, value, "key")
            if key is None:
                chain = self.chain_of(value)
                if chain:
                    self.tables.append([chain, value.lineno, "enumerate", self._transfer()])
        self.generic_visit(node)

    def _flow(self, slot: str, value: ast.AST, how: str) -> None:
        chain = self.chain_of(value)
        text = literal_str(value)
        summary = f"c:{chain}" if chain else f"s:{text}" if text else ""
        self.flows.append([slot, summary, getattr(value, "lineno", 0), how])

    def facts(self, tree: ast.Module) -> dict[str, Any]:
        return {
            "bindings": self.bindings,
            "all": all_names(tree),
            **({"only_imports": True} if only_imports(tree) else {}),
            "lazy": lazy_exports(tree, self.package),
            **({"alternatives": alternatives} if (alternatives := {
                **conditional_aliases(tree, self.module, self.bindings, self.imports),
                **branch_alternatives(tree.body, self.package)}) else {}),
            "chains": {k: "|".join(v) for k, v in self.chains.items()},
            "attrs": {k: "|".join(v) for k, v in self.attrs.items()},
            "calls": self.calls,
            "flows": self.flows,
            "tables": self.tables,
            "patterns": self.patterns,
            "dyn": self.dyn,
            "subst": self.subst,
            "imported": self.imported,
            **({"handed": self.handed} if self.handed else {}),
            "dict_keys": self.dict_keys,
            **({"held": {k: "|".join(v) for k, v in self.held.items()}} if self.held else {}),
            **({"held_types": self.held_types} if self.held_types else {}),
            **({"mixed": self._mixed()} if self.known_reads & self.unknown_reads else {}),
        }

    def _mixed(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = {}
        for attr, line in sorted(self.known_reads & self.unknown_reads):
            found.setdefault(attr, []).append(line)
        return found


def scan_links(tree: ast.Module, module: str, is_package: bool, imports: dict[str, str],
               enumerates: bool = True) -> dict[str, Any]:
    """The link facts of one parsed module (see the module docstring); `enumerates`: its text names
    `__subclasses__` (otherwise no function of it enumerates subclasses, and the walk looking for one is skipped)."""
    scanner = LinkScanner(module, is_package, imports, tree, enumerates)
    scanner.visit(tree)
    return {**scanner.facts(tree), "writers": writer_params(tree, module)}
