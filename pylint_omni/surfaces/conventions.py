"""Members a framework calls by convention: alive whenever their class is, with no caller in the code.

- dunder methods (`__init__`, `__call__`, `__enter__`, ...), `__init_subclass__`,
  `unittest` fixtures (`setUp`, ...), `Enum` hooks (`_missing_`), pydantic's
  `model_post_init`;
- methods a decorator hands to a framework (`decorators.classify`: validators,
  fixtures, routes, event handlers);
- methods a widely used framework calls on the classes it is given, by the table of
  framework conventions (`evidence.frameworks`: a ComfyUI node's `INPUT_TYPES`,
  `AppConfig.ready`, a Serve deployment's `reconfigure`);
- overrides of an indexed upstream base's method, and methods upstream reads or
  calls on the kind of object the class stands for (`evidence.upstream_readers`:
  hooks and readers, through substitutions too); for such a class, also a method
  whose name upstream reads on objects of unknown class (`model.get_language_model()`:
  a duck-typed reader);
- an override that calls `super().<its own name>(...)` when no project class above it
  defines that name: the base is outside the project (upstream or third-party, indexed
  or not, any version), and the framework calls its method;
- methods a remote-call framework exposes to peers (rpyc's `exposed_*`, `on_connect`),
  on a class derived from its service base;
- overrides of `torch.nn.Module` / `torch.autograd.Function` hooks (`forward`,
  `extra_repr`, `_load_from_state_dict`, `backward`, ...) and of a standard-library
  base's methods (read from the class, when its module is already loaded);
- a method of a class with a third-party base that no index reads (an upstream
  package that is not installed, a plugin's base) is alive when an indexed upstream
  class defines a method of that name (the unread base likely extends it);
  otherwise it *may* be an override: medium at most (`cap`); so is a method of a class whose base
  sits in a module of the project that is not in the checkout (protoc's `*_pb2_grpc` servicers, generated at
  build time); so is a public method of a
  class with an upstream base when the project imports upstream names the indexed
  version lacks (it runs on another version, whose hooks may call it);
- a method of a class that implements an indexed upstream class structurally,
  without inheriting from it (three or more shared public methods, at least half
  of that class's or of its own: `AsyncOmni` beside vLLM's `EngineClient`), is upstream's to call
  when the project's production code imports that upstream class (it hands such
  objects around); a class of the same name (the class or one of its project bases)
  is a copy, not a stand-in, and a method a project base declares belongs to the
  project's own interface.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

from pylint_omni.evidence.consumers import CONFIG_VIAS
from pylint_omni.evidence.frameworks import framework_method
from pylint_omni.evidence.upstream_readers import upstream_kinds, upstream_readers
from pylint_omni.index.class_graph import ClassGraph, class_graph
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.vocabulary import TORCH_DEVICE_METHODS
from pylint_omni.index.upstream import upstream_of, version_doubts
from pylint_omni.surfaces.decorators import classify
from pylint_omni.surfaces.table import SURFACE_FACTS, SurfaceTable

DUNDER = re.compile(r"^__\w+__$")
CONVENTION_NAMES = frozenset({
    "setUp", "tearDown", "setUpClass", "tearDownClass", "asyncSetUp", "asyncTearDown",
    "_missing_", "_generate_next_value_", "model_post_init",
})
TORCH_MODULE_HOOKS = frozenset({
    "forward", "extra_repr", "reset_parameters", "_load_from_state_dict", "_save_to_state_dict", "load_state_dict",
    "state_dict", "_apply", "apply", "train", "eval", "to", *TORCH_DEVICE_METHODS, "type", "float", "double", "half",
    "bfloat16", "zero_grad", "share_memory", "_get_name", "named_modules", "modules", "children", "named_children",
    "parameters", "named_parameters", "buffers", "named_buffers", "requires_grad_", "set_extra_state",
    "get_extra_state", "compile", "register_buffer", "register_parameter", "add_module", "get_submodule",
    "_conv_forward", "_replicate_for_data_parallel",
})
AUTOGRAD_HOOKS = frozenset({"forward", "backward", "setup_context", "jvp", "vjp", "vmap"})
PYDANTIC_BASES = ("pydantic.BaseModel", "pydantic.main.BaseModel")
# Inner classes a framework reads off the classes it handles: pydantic's `Config` (settings: `env_prefix`),
# Django's, marshmallow's and factory_boy's `Meta`. Nothing in the project names them.
FRAMEWORK_INNER_CLASSES = frozenset({"Config", "Meta"})
# Remote-call frameworks whose service classes expose methods to the other side of a connection:
# package -> (exposed-name prefixes, hooks the framework calls itself). rpyc runs `exposed_foo` for
# a peer's `conn.root.foo()` and calls `on_connect`/`on_disconnect` on the service.
REMOTE_SERVICES = {"rpyc": (("exposed_",), frozenset({"on_connect", "on_disconnect"}))}
# Standard-library bases that call a subclass's methods by a name they build (`getattr(self, "visit_" + kind)`).
DISPATCHED_PREFIXES = {
    "ast.NodeVisitor": ("visit_",),
    "http.server.BaseHTTPRequestHandler": ("do_",),
    "cmd.Cmd": ("do_", "help_", "complete_"),
}
# A class with a `write` method stands in for a file (`redirect_stdout(logger)`, `print(..., file=f, flush=True)`):
# the I/O machinery calls these on it.
FILE_PROTOCOL = frozenset({"flush", "close", "fileno", "isatty", "writable", "readable", "seekable", "writelines"})
FILE_PROTOCOL_REASON = "file protocol:"
MIN_STRUCTURAL_METHODS = 3  # methods a class must share with an upstream class to implement it structurally


@dataclass
class ClassKinds:
    """What one class's third-party lineage says: bases read by an index, torch, stdlib, unknown."""

    upstream: bool = False  # an indexed upstream base, or a substitution
    torch_module: bool = False
    autograd: bool = False
    stdlib: list[type] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


def _stdlib_class(dotted: str) -> type | None:
    """A standard-library class already loaded in this process (never imports anything)."""
    module, _, name = dotted.rpartition(".")
    loaded = sys.modules.get(module)
    found = getattr(loaded, name, None) if loaded is not None else None
    return found if isinstance(found, type) else None


class Conventions:
    """Answers, per (class, method), whether a framework calls it and whether it may."""

    def __init__(self, index: ProjectIndex, table: SurfaceTable) -> None:
        self.index = index
        self.table = table
        self.graph: ClassGraph = class_graph(index)
        self.upstream = upstream_of(index)
        self._kinds: dict[str, ClassKinds] = {}
        self._tops = frozenset(m.partition(".")[0] for m in table.module_of_path.values())
        self._decorators: dict[str, str] = {}
        self._upstream_methods: dict[str, list[tuple[str, frozenset[str]]]] | None = None
        self._structural: dict[str, dict[str, str]] = {}
        self._imported: dict[str, bool] = {}
        self._combined: dict[str, str | None] = {}  # class -> why a descendant's outside base may call its methods
        self._substituted = frozenset(value for _, value, _, _ in graph_of(index).substitutions()) if self.upstream.found else frozenset()

    def kinds(self, class_dotted: str) -> ClassKinds:
        found = self._kinds.get(class_dotted)
        if found is not None:
            return found
        found = self._kinds[class_dotted] = ClassKinds()
        if class_dotted not in self.graph.nodes:
            return found
        external: list[str] = []
        for base in self.graph.upstream_bases(class_dotted):
            ancestors = self.upstream.ancestors(self.upstream.canonical(base))
            if not ancestors:
                external.append(base)
                continue
            found.upstream = True
            for ancestor in ancestors:
                package = self.upstream.owning(ancestor)
                upstream_class = package.classes().get(ancestor) if package is not None else None
                for written in upstream_class.bases if upstream_class is not None else []:
                    if not self.upstream.ancestors(self.upstream.canonical(written)):
                        external.append(written)
        for base in self.graph.stdlib_bases(class_dotted):
            loaded = _stdlib_class(base)
            if loaded is not None and loaded not in found.stdlib:
                found.stdlib.append(loaded)
        for base in dict.fromkeys(external):
            tail = base.rpartition(".")[2]
            top = base.partition(".")[0]
            if tail == "Module" and (top in ("torch", "nn") or base.startswith("torch.nn")):
                found.torch_module = True
            elif base in ("torch.autograd.Function", "autograd.Function", "torch.autograd.function.Function"):
                found.autograd = True
            elif top in sys.stdlib_module_names:
                loaded = _stdlib_class(base)
                if loaded is not None:
                    found.stdlib.append(loaded)
                else:
                    found.unknown.append(base)
            elif base not in PYDANTIC_BASES:
                found.unknown.append(base)
        return found

    def decorator_kind(self, method_dotted: str) -> str:
        """The strongest effect of a surface's decorators: `route`, `register` or `transparent`."""
        found = self._decorators.get(method_dotted)
        if found is None:
            surface = self.table.surfaces[method_dotted]
            facts = self.index.facts(surface.path)
            imports = self._through_reexports(facts.get("imports", {}), surface.decorators)
            local = frozenset(d["name"] for d in facts.get("functions", []) if d.get("toplevel"))
            kinds = {classify(text, imports, local, self._tops) for text in surface.decorators}
            found = "route" if "route" in kinds else "register" if "register" in kinds else "transparent"
            self._decorators[method_dotted] = found
        return found

    def _through_reexports(self, imports: dict[str, str], decorators: tuple[str, ...] | list[str]) -> dict[str, str]:
        """The imports of a decorator's head, followed through project modules that only re-export an outside name
        (`from ..._compat import validator`, where `_compat` imports pydantic's): the framework still calls what
        that decorator hands it, so it is no project wrapper."""
        graph = graph_of(self.index)
        followed = dict(imports)
        for text in decorators:
            head = text.partition("(")[0].partition(".")[0].strip()
            imported = imports.get(head, "")
            if imported.partition(".")[0] in self._tops:
                target = graph.resolve(imported)
                if target.kind == "external":
                    followed[head] = target.dotted
        return followed

    def called_by_framework(self, class_dotted: str, method: str, method_dotted: str) -> str | None:
        """Why a framework calls this method of a live class (None: nothing calls it by convention)."""
        if DUNDER.match(method) or method in CONVENTION_NAMES:
            return "called by Python or a framework by convention"
        if self.decorator_kind(method_dotted) != "transparent":
            return "handed to a framework by its decorator"
        framework = framework_method(self.index, class_dotted, method)
        if framework:
            return framework
        outside = self.outside_override(class_dotted, method, method_dotted)
        if outside:
            return outside
        kinds = self.kinds(class_dotted)
        if kinds.torch_module and method in TORCH_MODULE_HOOKS:
            return f"overrides torch.nn.Module.{method}"
        if kinds.autograd and method in AUTOGRAD_HOOKS:
            return f"overrides torch.autograd.Function.{method}"
        for base in kinds.stdlib:
            if hasattr(base, method):
                return f"overrides {base.__module__}.{base.__qualname__}.{method}"
            for ancestor in getattr(base, "__mro__", ()):
                prefixes = DISPATCHED_PREFIXES.get(f"{ancestor.__module__}.{ancestor.__qualname__}", ())
                if prefixes and method.startswith(prefixes):
                    return f"called by name by {ancestor.__module__}.{ancestor.__qualname__} (a `{method.partition('_')[0]}_*` method)"
        if method in FILE_PROTOCOL and any(self.table.surfaces[m].name == "write" for m in self.table.methods(class_dotted)):
            return f"{FILE_PROTOCOL_REASON} {class_dotted.rpartition('.')[2]} defines write(), and the I/O machinery calls {method}()"
        for base in kinds.unknown:
            prefixes, hooks = REMOTE_SERVICES.get(base.partition(".")[0], ((), frozenset()))
            if method in hooks or (prefixes and method.startswith(prefixes)):
                return f"called over the connection by {base.partition('.')[0]} (a {base} exposes it to its peers)"
        facing = upstream_kinds(self.index, class_dotted).classes if kinds.upstream or self._stands_in(class_dotted) else []
        if facing:
            readers = upstream_readers(self.index, class_dotted, method)
            if readers:
                ref, why = readers[0]
                return f"upstream {ref.via} at {ref.describe()} ({why})"
            package = self.upstream.reading_attribute(method)
            if package is not None:
                return f"{package.name} reads .{method} on objects it receives, and this class stands for {facing[0]}"
        upstream_classes = self.upstream_methods().get(method, [])
        if kinds.unknown and upstream_classes:
            return f"may override {kinds.unknown[0]}.{method} (upstream {upstream_classes[0][0]} defines {method})"
        implemented = self.structural(class_dotted).get(method)
        if implemented:
            return f"implements upstream {implemented} structurally; upstream calls {method} on the objects it receives"
        return None

    def outside_override(self, class_dotted: str, method: str, method_dotted: str) -> str | None:
        """`super().m(...)` in `m`, with no project class above defining `m`: it overrides an outside base's `m`."""
        surface = self.table.surfaces[method_dotted]
        module = self.table.module_of_path.get(surface.path, "")
        calls = (self.index.extra(surface.path, SURFACE_FACTS) or {}).get("super_calls", ())
        if not module or method_dotted[len(module) + 1:] not in calls or class_dotted not in self.graph.nodes:
            return None
        ancestors = self.graph.ancestors(class_dotted)
        if any(self.table.surfaces[m].name == method for a in ancestors for m in self.table.methods(a)):
            return None  # the base that runs is the project's own
        bases = [*self.graph.upstream_bases(class_dotted), *self.graph.stdlib_bases(class_dotted)]
        return f"calls super().{method}: it overrides {bases[0]}.{method}, which its callers run" if bases else None

    def upstream_methods(self) -> dict[str, list[tuple[str, frozenset[str]]]]:
        """Method name -> (upstream class, its public methods) for every indexed upstream class."""
        if self._upstream_methods is None:
            found: dict[str, list[tuple[str, frozenset[str]]]] = {}
            for package in self.upstream.packages():
                for dotted, upstream_class in package.classes().items():
                    public = frozenset(m for m in upstream_class.methods if not m.startswith("_"))
                    for method in upstream_class.methods:
                        found.setdefault(method, []).append((dotted, public))
            self._upstream_methods = found
        return self._upstream_methods

    def structural(self, class_dotted: str) -> dict[str, str]:
        """Methods of a class that an upstream class it implements structurally declares -> that class."""
        found = self._structural.get(class_dotted)
        if found is not None:
            return found
        found = self._structural[class_dotted] = {}
        own = frozenset(self.table.surfaces[m].name for m in self.table.methods(class_dotted))
        public = frozenset(m for m in own if not m.startswith("_"))
        lineage = [class_dotted, *(self.graph.ancestors(class_dotted) if class_dotted in self.graph.nodes else [])]
        inherited = frozenset(self.table.surfaces[m].name for a in lineage[1:] for m in self.table.methods(a))
        copies = frozenset(c.rpartition(".")[2] for c in lineage)
        # Each upstream class is judged once, by its dotted name: upstream may define several classes of one name
        # (diffusers' `utils.dummy_*_objects.FluxPipeline` placeholders beside the real one), and the first met must
        # not hide the others. Methods in sorted order: which upstream class is credited must not depend on set order.
        checked: set[str] = set()
        for method in sorted(public):
            for upstream_class, methods in self.upstream_methods().get(method, []):
                name = upstream_class.rpartition(".")[2]
                if upstream_class in checked or name in copies or not self._imported_in_production(name):
                    continue
                checked.add(upstream_class)
                shared = methods & public
                if len(shared) >= MIN_STRUCTURAL_METHODS and 2 * len(shared) >= min(len(methods), len(public)):
                    for member in (methods & own) - inherited:
                        found.setdefault(member, upstream_class)
        return found

    def _imported_in_production(self, name: str) -> bool:
        found = self._imported.get(name)
        if found is None:
            found = self._imported[name] = any(
                hit.via == "import" and self.index.location(hit.path) is Location.PRODUCTION for hit in self.index.hits(name))
        return found

    def _stands_in(self, class_dotted: str) -> bool:
        """The class or a project base is assigned over an upstream name (`upstream_mod.X = OmniX`)."""
        if not self._substituted:
            return False
        lineage = [class_dotted, *(self.graph.ancestors(class_dotted) if class_dotted in self.graph.nodes else [])]
        return any(c in self._substituted for c in lineage)

    def cap(self, class_dotted: str, method: str) -> str | None:
        """Why this method may be called from outside though nothing here calls it (medium at most)."""
        kinds = self.kinds(class_dotted)
        if kinds.unknown:
            return f"it may override a method of {kinds.unknown[0]}, which no index reads"
        missing = self._missing_base(class_dotted)
        if missing:
            return (f"it may implement {missing}, whose module is not in the checkout (generated, as gRPC servicers "
                    "are): the framework that serves it calls it")
        combined = self._combined_with_unknown(class_dotted)
        if combined:
            return combined
        # only objects of a third-party lineage (a torch module, an upstream class) are the kind handed to frameworks
        third_party = kinds.torch_module or kinds.upstream
        duck = self.duck_typed(class_dotted, method) if third_party and not method.startswith("_") else None
        if duck:
            return duck
        stale = self.stale_upstream() if kinds.upstream and not method.startswith("_") else None
        if stale:
            return f"its class extends an upstream class, and {stale}; that version may call it"
        return None

    def _missing_base(self, class_dotted: str) -> str | None:
        """A base the class (or a project base of it) names in a module of the project that is not in the checkout
        (`lorax_server.pb.generate_pb2_grpc.LoraxServiceServicer`, written by protoc at build time), or None."""
        if class_dotted not in self.graph.nodes:
            return None
        for base in self.graph.unresolved_bases(class_dotted):
            module = base.rpartition(".")[0]
            if module and self.index.module_file(module) is None:
                return base
        return None

    def _combined_with_unknown(self, class_dotted: str) -> str | None:
        """A mixin a project class lists beside a base no index reads (`class Trainer(SwiftMixin, HfTrainer)`):
        in that class its methods override the base's, which the base's own code calls (trainer hooks)."""
        if class_dotted not in self._combined:
            self._combined[class_dotted] = None
            for child in sorted(self.graph.descendants(class_dotted)) if class_dotted in self.graph.nodes else []:
                unknown = self.kinds(child).unknown
                if unknown:
                    self._combined[class_dotted] = (f"{child.rpartition('.')[2]} combines its class with {unknown[0]}, "
                                                    "which no index reads: that base's code may call it as an override")
                    break
        return self._combined[class_dotted]

    def duck_typed(self, class_dotted: str, method: str) -> str | None:
        """Another project class defines the same public method and extends a base no index reads: the framework
        behind that base may call the method by name on any object handed to it (Megatron's pipeline schedule
        calls `model.set_input_tensor(...)` on `MegatronModule`s and on plain `nn.Module`s alike)."""
        for other in self.table.methods_by_name.get(method, ()):
            owner = self.table.surfaces[other].container
            if owner is None or owner == class_dotted or self.table.surfaces[owner].kind != "class":
                continue
            unknown = self.kinds(owner).unknown
            if unknown:
                return (f"{owner.rpartition('.')[2]} defines {method} too and extends {unknown[0]}, which no index "
                        "reads: that framework may call it by name")
        return None

    def configured_sibling(self, class_dotted: str) -> str | None:
        """Another subclass of one of the class's project bases is loaded by its qualname from configuration
        (`class_name: pkg.tools.gsm8k_tool.Gsm8kTool` in a shipped or example YAML): the family is a plugin point,
        and a user's configuration may name this class the same way."""
        if class_dotted not in self.graph.nodes:
            return None
        graph = graph_of(self.index)
        for base in self.graph.ancestors(class_dotted):
            if base not in self.graph.nodes:
                continue
            for sibling in sorted(self.graph.descendants(base)):
                if sibling == class_dotted:
                    continue
                for ref in graph.refs_to(sibling):
                    if ref.via in CONFIG_VIAS:
                        return (f"{sibling.rpartition('.')[2]}, another {base.rpartition('.')[2]}, is named by qualname "
                                f"in configuration ({ref.path}:{ref.line}): a user's configuration may name this one")
        return None

    def stale_upstream(self) -> str | None:
        """Why the indexed upstream may not be the one the project runs on (`upstream.version_doubts`: another
        pinned version, or upstream names it imports that the indexed version lacks): newer hooks may call it."""
        return next(iter(version_doubts(self.index).values()), None)
