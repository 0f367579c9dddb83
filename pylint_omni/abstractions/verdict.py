"""Is a class a single-implementation candidate? The evidence pass of `single-implementation-abstraction`.

Four class shapes (`kind`, part of the finding id):
- `class`: an ABC, a `NotImplementedError` base or a Protocol with one real
  implementation, found transitively; a subclass chain whose only created class is
  its leaf counts as one (`implementations.collapse_chain`);
- `holder`: a data-holder base (`shapes.stored_attributes`) with one subclass;
- `protocol`: a Protocol restating a concrete class beside it (`shapes.restated_class`);
- `static`: a class wrapping one static method called from one place (`static_holder`).
Then the rules, in order:
- not a finding: no or several implementations; the middle link of a chain whose
  top abstraction has the same implementation (reported once, at the top);
- rejected, for resolved reasons only: the base is created in production code; the
  other implementation is a null object; a base whose methods mostly work (the default
  implementation); an open extension mechanism the graph, the upstream index or an
  external root proves (`evidence.extension_points`);
- medium: a test double is the other implementer; a mechanism known only by name;
  a Protocol (outside classes may match it); a base the index cannot resolve; a plain
  mention in an active design page; a public `__all__` export;
- high otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from astroid import nodes

from pylint_omni.abstractions.implementations import (
    Implementations, annotated_at, collapse_chain, empty_methods, handed_out_at, implementations_of, instantiated_at,
    is_abstraction,
)
from pylint_omni.abstractions.shapes import is_dataclass, restated_class, static_member, stored_attributes
from pylint_omni.evidence.consumers import Verdict, decide
from pylint_omni.evidence.design_docs import doc_mentions
from pylint_omni.evidence.extension_points import open_mechanisms
from pylint_omni.evidence.provenance import copied_file
from pylint_omni.index.class_graph import ClassGraph, abstract_methods, class_graph
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Definition, ProjectIndex
from pylint_omni.index.vocabulary import VALIDATING_MODEL_BASES

# Prose that plans more implementations: "FIFO now, priority later", "future policies", "TODO: add ...".
PLANNED = re.compile(r"\b(?:later|future|planned|upcoming|TODO)\b|\bwill (?:add|support)\b", re.IGNORECASE)
OUTSIDE_UNKNOWN = "subclasses outside this repository (plugins, user code)"


@dataclass
class AbstractionFinding:
    """A raw finding and its verdict: the abstraction, its single implementation, the chain between."""

    kind: str  # class | holder | protocol | static
    base: Definition
    implementation: Definition | None
    intermediates: list[Definition]
    verdict: Verdict
    collapsed: bool = False
    stored: list[str] = field(default_factory=list)  # holder: the attributes it stores
    call_site: str = ""  # static: the one place that calls it
    method: str = ""  # static: the method's name
    wrapper_lines: int = 0  # static: the lines that only wrap the method (`class`, decorator, docstring)


def where(definition: Definition) -> str:
    return f"{definition.data['name']} ({definition.path}:{definition.data['line']})"


def working_defaults(base: Definition) -> str | None:
    """A base without `@abstractmethod` whose methods mostly work is the default implementation."""
    data = base.data
    if data.get("abstract") or data.get("protocol"):
        return None
    working = [m for m in data.get("defaulted", []) if m != "__init__"]
    if len(working) > len(data.get("notimpl", [])):
        return (f"{data['name']} has working defaults for {len(working)} methods and only {len(data['notimpl'])} "
                "raising NotImplementedError: the base is itself the default implementation")
    return None


def _covered_by_ancestor(graph: ClassGraph, dotted: str, found: Implementations) -> bool:
    """A middle link of a chain: an abstract ancestor has the very same implementations."""
    mine = {d.dotted for d in found.production}
    for ancestor in graph.ancestors(dotted):
        if is_abstraction(graph.nodes[ancestor].definition.data):
            theirs = collapse_chain(graph, implementations_of(graph, ancestor))
            if {d.dotted for d in theirs.production} == mine and not theirs.null_objects:
                return True
    return False


def _medium_reasons(index: ProjectIndex, graph: ClassGraph, base: Definition, kind: str) -> list[str]:
    reasons: list[str] = []
    name = base.data["name"]
    # A Protocol that restates a class beside it keeps every match working once annotations name
    # that class (nothing changes at run time): outside matches are a doubt only for the other shapes.
    if base.data.get("protocol") and kind != "protocol":
        reasons.append("a Protocol: classes outside this repository may match it structurally")
    unresolved = graph.unresolved_bases(base.dotted)
    if unresolved:
        reasons.append(f"base {unresolved[0]} could not be resolved, so the lineage is partly unknown")
    for node in graph.nodes.values():
        if any(u.rpartition(".")[2] == name for u in node.unresolved):
            reasons.append(f"{where(node.definition)} has a base named {name} that the index could not resolve")
            break
    design = [m for m in doc_mentions(index, name) if m.design]
    if design:
        reasons.append(f"named in the active design page {design[0].describe()}")
    exports = [
        h for h in index.hits(name)
        if h.via == "all" and index.location(h.path) is not Location.VALIDATION
        and (h.path == base.path or graph.lookup(index.facts(h.path).get("imports", {}).get(name, "")) == base.dotted)
    ]
    if exports:
        reasons.append(f"exported in __all__ ({exports[0].path}:{exports[0].line}): code outside may subclass it")
    planned = _planned_alternatives(index, base)
    if planned:
        reasons.append(f"{planned} plans other implementations: a seam kept on purpose; drop it only if the plan is")
    return reasons


def _planned_alternatives(index: ProjectIndex, base: Definition) -> str | None:
    """`path:line` of production prose naming the abstraction beside a plan (`SchedulingPolicy (FIFO now, priority
    later)`): the one implementation is the first of several the authors intend."""
    name = base.data["name"]
    named = re.compile(rf"\b{re.escape(name)}\b")
    paths = dict.fromkeys([base.path, *(h.path for h in index.hits(name) if index.location(h.path) is Location.PRODUCTION)])
    for path in paths:
        for number, line in enumerate((index.text(path) or "").splitlines(), 1):
            if named.search(line) and PLANNED.search(line):
                return f"{path}:{number}"
    return None


def layer_verdict(index: ProjectIndex, named: list[Definition], rejects: list[str], doubts: list[str], high: str,
                  kind: str = "class") -> Verdict:
    """The layer's rejects (its own, and resolved open mechanisms) and doubts, judged (`decide`): rejected on the first
    reason, medium on the first doubt, else high."""
    mechanisms = open_mechanisms(index, named)
    rejects = rejects + [m.reason for m in mechanisms if m.resolved]
    if rejects:
        reason = rejects[0] + (f" (also: {'; '.join(rejects[1:])})" if len(rejects) > 1 else "")
        return decide(high, rejects=[reason], unknowns=[OUTSIDE_UNKNOWN])
    doubts = doubts + [m.reason for m in mechanisms]
    origin = copied_file(index, named[0].path)
    if origin is not None:
        doubts.append(f"{named[0].path} says it is {origin.describe()}: the layer may be kept to ease resyncs")
    if named[0].kind == "class":
        doubts += _medium_reasons(index, class_graph(index), named[0], kind)
    return decide(high, doubts=doubts, unknowns=[*doubts, OUTSIDE_UNKNOWN])


def _test_doubles(found: list[Definition]) -> list[str]:
    return [f"{where(found[0])} is a test double, not a second implementation"] if found else []


def _judge_abstract(index: ProjectIndex, graph: ClassGraph, base: Definition) -> AbstractionFinding | None:
    found = collapse_chain(graph, implementations_of(graph, base.dotted))
    if len(found.production) != 1 or _covered_by_ancestor(graph, base.dotted, found):
        return None
    single = found.production[0]
    created = instantiated_at(index, base)
    rejects = [reason for reason in (
        f"{base.data['name']} is created at {created}: not abstract in practice" if created else None,
        f"the other implementation, {where(found.null_objects[0])}, is a null object: a deliberate default"
        if found.null_objects else None,
        working_defaults(base),
    ) if reason]
    methods = len(abstract_methods(base.data)) or len(empty_methods(base.data))
    chain = "; the chain's middles are never created" if found.collapsed else ""
    high = f"one implementation of {methods} abstract method(s){chain}, and no open extension mechanism"
    verdict = layer_verdict(index, [base, single, *found.intermediates], rejects, _test_doubles(found.validation), high)
    return AbstractionFinding("class", base, single, found.intermediates, verdict, found.collapsed)


def _judge_holder(index: ProjectIndex, graph: ClassGraph, base: Definition, node: nodes.ClassDef) -> AbstractionFinding | None:
    subclasses = [graph.nodes[d].definition for d in graph.descendants(base.dotted)]
    production = [d for d in subclasses if index.location(d.path) is not Location.VALIDATION]
    if len(production) != 1 or base.data.get("methods") and set(base.data["methods"]) - {"__init__", "__init_subclass__"}:
        return None
    stored = stored_attributes(node)
    if not stored:
        return None
    single = production[0]
    created = instantiated_at(index, base) or handed_out_at(index, base)
    rejects = [f"{base.data['name']} is created or handed out as a class at {created}: a class in its own right"] if created else []
    lineage = [base.dotted, *graph.ancestors(base.dotted)]
    outside = [b for name in lineage for b in (*graph.nodes[name].upstream, *graph.nodes[name].unresolved)]
    validating = next((b for b in outside if b.rpartition(".")[2] in VALIDATING_MODEL_BASES), None)
    typed = annotated_at(index, base, graph) if validating and not created else None
    if typed:  # `short: RouterBackendConfig` in another model: the library builds it from input by that type
        rejects.append(f"{base.data['name']} is the annotated type at {typed}, and {validating} builds instances from input by it")
    if is_dataclass(node) and len(single.data.get("bases", ())) > 1:
        # The generated `__init__` orders fields from the last base to the first: moved into the subclass they come
        # after its other bases' fields, a positional call changes meaning and a field without a default may follow one with.
        rejects.append(f"{base.data['name']} is a dataclass base of {single.data['name']} beside other bases: the generated "
                       "__init__ takes its fields in base order, so moving them changes the constructor")
    doubts = _test_doubles([d for d in subclasses if d not in production])
    high = "nothing creates it, names it by a string or picks among its subclasses"
    verdict = layer_verdict(index, [base, single], rejects, doubts, high)
    finding = AbstractionFinding("holder", base, single, [], verdict)
    finding.stored = stored
    return finding


def _judge_protocol(index: ProjectIndex, graph: ClassGraph, base: Definition) -> AbstractionFinding | None:
    concrete = restated_class(graph, base.dotted)
    if concrete is None:
        return None
    doubles = [graph.nodes[m].definition for m in graph.structural_matches(base.dotted)
               if index.location(graph.nodes[m].definition.path) is Location.VALIDATION]
    doubts = [f"{where(doubles[0])} matches it: tests may rely on the Protocol to swap in fakes"] if doubles else []
    high = f"every class matching {base.data['name']} is {concrete.data['name']} or a subclass of it"
    verdict = layer_verdict(index, [base, concrete], [], doubts, high, "protocol")
    return AbstractionFinding("protocol", base, concrete, [], verdict)


def static_holder(index: ProjectIndex, base: Definition, node: nodes.ClassDef) -> AbstractionFinding | None:
    """A class whose one member is a static method called from one production place, and used for nothing else."""
    method = static_member(node)
    if method is None:
        return None
    graph = graph_of(index)
    target = f"{base.dotted}.{method.name}"
    calls = [c for c in graph.calls_to(target) if index.location(c.path) is not Location.VALIDATION]
    call_lines = {(c.path, c.line) for c in graph.calls_to(target)}
    if len(calls) != 1:
        return None
    others = [r for r in graph.refs_to(base.dotted)
              if r.via not in ("import", "hop") and (r.path, r.line) not in call_lines]
    if others:
        return None
    call = f"{calls[0].path}:{calls[0].line}"
    verdict = layer_verdict(index, [base], [], [], "nothing else names the class")
    finding = AbstractionFinding("static", base, None, [], verdict)
    finding.call_site, finding.method = call, method.name
    finding.wrapper_lines = (node.tolineno - node.fromlineno + 1) - (method.tolineno - method.lineno + 1)
    return finding


def judge_class(index: ProjectIndex, relpath: str, node: nodes.ClassDef) -> AbstractionFinding | None:
    """The finding for the class statement `node` of `relpath`, or None when it is not one."""
    graph = class_graph(index)
    found = graph.node_at(relpath, node.lineno)
    if found is None or found.definition.data.get("nested"):
        return None
    base = found.definition
    data = base.data
    if data.get("protocol"):
        return _judge_protocol(index, graph, base) or _judge_abstract(index, graph, base)
    if is_abstraction(data) or (graph.children.get(base.dotted) and empty_methods(data)):
        return _judge_abstract(index, graph, base)
    if data.get("enum"):
        return None
    if graph.children.get(base.dotted) and not found.parents:
        return _judge_holder(index, graph, base, node)
    if not found.parents and not found.upstream:
        return static_holder(index, base, node)
    return None
