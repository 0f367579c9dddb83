"""Is an abstraction a single-implementation candidate? The evidence pass of `single-implementation-abstraction`.

Counts implementations the way a careful reviewer would (`implementations`), then
applies the reject and downgrade rules, in order:
- not a finding: no or several real implementations; a middle link of a chain whose
  top abstraction has the same single implementation (reported once, at the top);
- rejected: the base is instantiated (not abstract in practice); the other
  implementation is a null object; the base's methods have working defaults (it is
  the default implementation); a subclass under tests/ (a test seam); any open
  extension mechanism (`extension_points`);
- medium: a Protocol (outside classes may match it), a base the index cannot fully
  resolve, a mention in an active design page, a public `__all__` export;
- high otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylint_omni.evidence.design_docs import doc_mentions
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.extension_points import open_mechanisms
from pylint_omni.index.class_graph import ClassGraph, abstract_methods, class_graph
from pylint_omni.abstractions.implementations import Implementations, implementations_of, instantiated_at, is_abstraction
from pylint_omni.index.project_index import Definition, ProjectIndex
from pylint_omni.index.paths import Location

OUTSIDE_UNKNOWN = "subclasses outside this repository (plugins, user code)"


@dataclass
class AbstractionFinding:
    """A raw finding and its verdict: the abstraction, its single implementation, the chain between."""

    base: Definition
    implementation: Definition
    intermediates: list[Definition]
    verdict: Verdict


def _where(definition: Definition) -> str:
    return f"{definition.data['name']} ({definition.path}:{definition.data['line']})"


def instantiation(graph: ClassGraph, base: Definition) -> str | None:
    where = instantiated_at(graph, base)
    return f"{base.data['name']} is instantiated at {where}: not abstract in practice" if where else None


def working_defaults(base: Definition) -> str | None:
    """A base without `@abstractmethod` whose methods mostly work is the default implementation."""
    data = base.data
    if data.get("abstract") or data.get("protocol"):
        return None
    working = [m for m in data.get("defaulted", []) if m != "__init__"]
    if len(working) > len(data.get("notimpl", [])):
        return (
            f"{data['name']} has working defaults for {len(working)} methods and only "
            f"{len(data['notimpl'])} raising NotImplementedError: the base is itself the default implementation"
        )
    return None


def _covered_by_ancestor(graph: ClassGraph, dotted: str, found: Implementations) -> bool:
    """A middle link of a chain: an abstract ancestor has the very same implementations."""
    mine = {d.dotted for d in found.production}
    for ancestor in graph.ancestors(dotted):
        if is_abstraction(graph.nodes[ancestor].definition.data):
            theirs = implementations_of(graph, ancestor)
            if {d.dotted for d in theirs.production} == mine and not theirs.null_objects:
                return True
    return False


def _medium_reasons(index: ProjectIndex, graph: ClassGraph, base: Definition) -> list[str]:
    reasons: list[str] = []
    name = base.data["name"]
    if base.data.get("protocol"):
        reasons.append("a Protocol: classes outside this repository may match it structurally")
    unresolved = graph.unresolved_bases(base.dotted)
    if unresolved:
        reasons.append(f"base {unresolved[0]} could not be resolved, so the lineage is partly unknown")
    for node in graph.nodes.values():
        if any(u.rpartition(".")[2] == name for u in node.unresolved):
            reasons.append(f"{_where(node.definition)} has a base named {name} that the index could not resolve")
            break
    design = [m for m in doc_mentions(index, name) if m.design]
    if design:
        reasons.append(f"named in the active design page {design[0].describe()}")
    exported = [
        h for h in index.hits(name)
        if h.via == "all" and index.location(h.path) is not Location.VALIDATION
        and (h.path == base.path or graph.lookup(index.facts(h.path).get("imports", {}).get(name, "")) == base.dotted)
    ]
    if exported:
        reasons.append(f"exported in __all__ ({exported[0].path}:{exported[0].line}): code outside may subclass it")
    return reasons


def judge_abstraction(index: ProjectIndex, relpath: str, line: int) -> AbstractionFinding | None:
    """The finding for the class defined at `relpath:line`, or None when it is not one."""
    graph = class_graph(index)
    node = graph.node_at(relpath, line)
    if node is None or not is_abstraction(node.definition.data) or node.definition.data.get("nested"):
        return None
    base = node.definition
    found = implementations_of(graph, base.dotted)
    if len(found.production) != 1 or _covered_by_ancestor(graph, base.dotted, found):
        return None
    single = found.production[0]
    reject = [
        reason for reason in (
            instantiation(graph, base),
            f"the other implementation, {_where(found.null_objects[0])}, is a null object: a deliberate default"
            if found.null_objects else None,
            working_defaults(base),
            f"a test seam: {_where(found.validation[0])} subclasses it" if found.validation else None,
        ) if reason
    ]
    reject += open_mechanisms(index, graph, base, single)
    if reject:
        reason = reject[0] + (f" (also: {'; '.join(reject[1:])})" if len(reject) > 1 else "")
        verdict = Verdict(Status.REJECTED, None, reason, [], [OUTSIDE_UNKNOWN])
    else:
        medium = _medium_reasons(index, graph, base)
        if medium:
            verdict = Verdict(Status.CANDIDATE, "medium", medium[0], [], [*medium, OUTSIDE_UNKNOWN])
        else:
            methods = len(abstract_methods(base.data))
            reason = f"one implementation of {methods} abstract method(s) and no open extension mechanism found"
            verdict = Verdict(Status.CANDIDATE, "high", reason, [], [OUTSIDE_UNKNOWN])
    return AbstractionFinding(base, single, found.intermediates, verdict)
