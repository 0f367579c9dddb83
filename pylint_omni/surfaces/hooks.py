"""Methods outside code calls by name, where the installed outside code does not show the call.

A project class extending an outside class (vLLM's `UnquantizedFusedMoEMethod`) defines hooks
the outside code calls: the reachability walk sees them only when the installed version of the
outside class names them. When the project targets another version (vllm-gaudi, built against
vLLM's main branch), or an outside library reaches the method through `hasattr` (Intel's
quantizer on vllm-gaudi's MoE ops), the walk finds no caller. What the code says instead:
- the method's own head says it overrides a base method ("Overriding base method");
- `MIN_OUTSIDE_SIBLINGS` other project classes extending outside classes define its name (a hook of
  the outside family, `apply_monolithic`);
- a function of the chain says an outside name calls it ("This function is called by INC");
- the project class mirrors an indexed upstream class of its name that defines the method
  (vllm-gaudi's `CachedRequestState.get_token_id`, which vLLM's Eagle proposer calls on the
  upstream class's objects: duck typing).
Each makes a dead finding medium, naming it.
"""

from __future__ import annotations

import re

from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Derived
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream import upstream_of
from pylint_omni.surfaces.analysis import SurfaceAnalysis, analysis_of, chain_surfaces
from pylint_omni.surfaces.chains import Chain
from pylint_omni.surfaces.lines import file_lines
from pylint_omni.surfaces.table import Surface

MIN_OUTSIDE_SIBLINGS = 3  # other project classes extending outside classes that define a method name: a hook
# "Overriding base method", "overrides the parent's hook"; "This function is called by INC": the author names the caller.
OVERRIDE_MARK = re.compile(r"\boverrid(?:e|es|ing|den)\b", re.IGNORECASE)
CALLED_BY = re.compile(r"\b(?:is|are|gets?|will be)\s+(?:called|invoked)\s+(?:by|from)\s+([A-Za-z_][\w.]*)")
MARK_LINES = 6  # lines of a definition's head (its docstring and first comments) read for a mark


def _outside_methods(index: ProjectIndex) -> dict[str, list[str]]:
    """Method name -> the project classes extending an outside class that define it."""
    graph, found = class_graph(index), {}
    for surface in analysis_of(index).table.surfaces.values():
        container = surface.container
        if surface.kind == "method" and container in graph.nodes and graph.extends_outside(container):
            found.setdefault(surface.name, []).append(container)
    return {name: sorted(set(classes)) for name, classes in found.items()}


_OUTSIDE_METHODS: Derived[dict[str, list[str]]] = Derived("surfaces.outside_methods", _outside_methods)


def _head(index: ProjectIndex, surface: Surface) -> str:
    return "\n".join(file_lines(index, surface.path)[surface.line - 1:min(surface.end, surface.line - 1 + MARK_LINES)])


def _named_caller(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain) -> str | None:
    """A function of the chain whose own head says a name the project does not define calls it ("This function is
    called by INC"): a caller outside, which may reach it by name (`hasattr(mod, "get_dequant_weights_func")`)."""
    for dotted in chain_surfaces(analysis, chain):
        surface = analysis.table.surfaces[dotted]
        if surface.kind not in ("function", "method"):
            continue
        for found in CALLED_BY.finditer(_head(index, surface)):
            name = found.group(1)
            if name.lower() not in ("the", "this", "a", "an", "tests") and not index.definitions_named(name.rpartition(".")[2]):
                return f"its own text says {name}, which the project does not define, calls {surface.name} ({surface.path}:{surface.line})"
    return None


def _outside_hook(index: ProjectIndex, root: Surface) -> str | None:
    """A method of a class that extends an outside class, which its own head says overrides a base method, or whose
    name `MIN_OUTSIDE_SIBLINGS` other project classes extending outside classes define too (vllm-gaudi's `apply_monolithic`,
    a hook of vLLM's MoE methods): outside code calls it by name, in a version the installed one may not be (the
    installed base lacks the name, or nothing would be reported)."""
    graph = class_graph(index)
    if root.container not in graph.nodes or not graph.extends_outside(root.container):
        return None
    if OVERRIDE_MARK.search(_head(index, root)):
        return f"its own text says it overrides a base method ({root.path}:{root.line}): the outside base calls it by name"
    siblings = [c for c in _OUTSIDE_METHODS.of(index).get(root.name, ()) if c != root.container]
    if len(siblings) >= MIN_OUTSIDE_SIBLINGS:
        return (f"{len(siblings)} other classes extending outside classes define {root.name} too "
                f"({', '.join(s.rpartition('.')[2] for s in siblings[:3])}): a hook outside code calls by name")
    return None


def _upstream_twin(index: ProjectIndex, root: Surface) -> str | None:
    """An indexed upstream class of the root's class name defines the public method: code written for it may call it
    on this class's objects."""
    name = (root.container or "").rpartition(".")[2]
    if root.name.startswith("_"):
        return None  # a private method is the class's own business: other code does not call it on stand-ins
    for package, klass in upstream_of(index).classes_named(name) if name else ():
        if root.name in klass.methods:
            return (f"it mirrors {klass.dotted}.{root.name} of {package.name} ({klass.path}:{klass.line}): code written "
                    f"for that class may call it on this one")
    return None


def outside_callers(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain, root: Surface) -> list[str]:
    """The doubts of this module (see its docstring) for a dead chain rooted at `root`."""
    method = root.kind == "method" and bool(root.container)
    found = [_outside_hook(index, root) if method else None, _named_caller(index, analysis, chain),
             _upstream_twin(index, root) if method else None]
    return [doubt for doubt in found if doubt]
