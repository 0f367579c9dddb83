"""Modules loaded by qualname: their functions are a registry keyed by the qualnames that are built.

A module is *qualname-loaded* when production code or configuration names one of
its top-level functions by a dotted string (`custom_process_input_func:
pkg.proc.thinker2talker` in a deploy YAML, `resolve_obj_by_qualname(f"{_PROC}.fn")`
with `_PROC = "pkg.proc"`). Its functions are then entries of an implicit registry:
one that no built qualname reaches and no code references is a candidate.
- a qualname pattern with a hole over the module (`f"{_PROC}.{name}"`) -> every
  function may be reached: rejected, naming the pattern;
- the docs name the function -> rejected (a documented, supported choice);
- a registering decorator files it under a key (`@register_x(Kind.Y)`) -> rejected: a
  lookup by that key reaches it, and the decorator's registry judges that entry;
- only tests, or the bare name elsewhere without resolving to it -> medium;
- nothing -> high.
Private helpers (`_name`) are left to the module's own code.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylint_omni.evidence.consumers import Consumer, ConsumerKind, Verdict, judge
from pylint_omni.index.derived import Built
from pylint_omni.index.graph import ReferenceGraph, graph_of
from pylint_omni.index.graph.resolve import STRING_VIAS
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Definition, ProjectIndex
from pylint_omni.index.vocabulary import hands_on
from pylint_omni.registries.keys import consumer_at

LOADING_VIAS = STRING_VIAS - {"doc"}

_LOADED: Built[dict[str, str]] = Built("registries.qualname_loaded_modules")


@dataclass
class QualnameEntry:
    """One function of a qualname-loaded module, judged."""

    function: Definition
    loaded_by: str
    verdict: Verdict
    consumers: list[Consumer]


def loaded_modules(index: ProjectIndex, graph: ReferenceGraph) -> dict[str, str]:
    """module -> the first production place that loads one of its functions by qualname (once per run)."""
    return _LOADED.of(index, lambda: _loaded_modules(index, graph))


def _loaded_modules(index: ProjectIndex, graph: ReferenceGraph) -> dict[str, str]:
    """See `loaded_modules`."""
    memo: dict[str, str] = {}
    markers = tuple(f",{via}" for via in LOADING_VIAS)
    for rel, resolved in graph.resolutions.items():
        if index.location(rel) is not Location.PRODUCTION:
            continue
        for target, encoded in resolved.get("refs", {}).items():
            if not any(marker in encoded for marker in markers):
                continue  # cheap: most targets are only named by code
            definition = index.resolve_target(target)
            if definition is None or definition.kind != "function" or not definition.data.get("toplevel"):
                continue
            line, _, via = next(i for i in encoded.split("|") if i.endswith(markers)).partition(",")
            memo.setdefault(definition.module, f"{rel}:{line} loads {target} ({via})")
    return memo


def judge_module(index: ProjectIndex, relpath: str) -> list[QualnameEntry]:
    """The public top-level functions of a qualname-loaded module, each judged (the graph is built only when
    some string names the module)."""
    module = index.entries.get(relpath, {}).get("module", "")
    if not any(h.via in LOADING_VIAS or h.via.startswith("entry-point:") for h in index.hits(module)):
        return []  # no string names the module or one of its members: not loaded by qualname
    graph = graph_of(index)
    loaded_by = loaded_modules(index, graph).get(module)
    if loaded_by is None:
        return []
    patterns = [f"'{shape}' at {path}:{line}" for path, line, shape in graph.patterns_over(module) if "*" in shape.partition(module)[2]]
    found = []
    for data in index.facts(relpath).get("functions", []):
        if not data.get("toplevel") or data["name"].startswith("_"):
            continue
        definition = Definition(relpath, module, "function", data)
        consumers = []
        for ref in graph.refs_to(definition.dotted):
            if ref.path == relpath and data["line"] <= ref.line <= data["end"]:
                continue
            consumer = consumer_at(index, ref.path, ref.line, ref.via, data["name"])
            if ref.via in LOADING_VIAS and consumer.kind is ConsumerKind.EXTERNAL:
                # a qualname that resolves to this very function is the load path itself
                consumer = Consumer(consumer.path, consumer.line, consumer.via, ConsumerKind.PRODUCTION, consumer.token)
            consumers.append(consumer)
        unresolved = [
            h for h in graph.name_only(data["name"], {definition.dotted})
            if h.via not in ("import", "all") and not (h.path == relpath and data["line"] <= h.line <= data["end"])
        ]
        docs = [consumer_at(index, h.path, h.line, h.via, data["name"]) for h in unresolved if h.via == "doc"]
        others = [f"{h.path}:{h.line} ({h.via})" for h in unresolved if h.via != "doc" and index.location(h.path) is Location.PRODUCTION]
        reject = [f"qualnames over {module} are built with a hole ({patterns[0]}); this function may be one of them"] if patterns else []
        handing_on = next((d for d in data.get("decorators", []) if hands_on(d)), None)
        if handing_on:  # `@register_adv_est(Estimator.X)`, `@cli.command("stop")`: reached through what it is handed to
            reject.append(f"its decorator @{handing_on.partition('(')[0]} hands it on (a registry, route, command group or hook): "
                          "what it is handed to reaches it, not its qualname")
        medium = [f"its name appears without resolving to it: {', '.join(others[:3])}"] if others else []
        verdict = judge([*consumers, *docs], documented_rejects=True, reject_reasons=reject, medium_reasons=medium)
        if verdict.confidence == "high":
            verdict.reason = f"no qualname built in code or configuration reaches it, and no code refers to it ({module} is loaded by qualname: {loaded_by})"
        found.append(QualnameEntry(definition, loaded_by, verdict, consumers))
    return found
