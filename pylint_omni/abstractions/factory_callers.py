"""A single-choice factory judged by its callers: where does the kind it tests come from?

The reference graph gives every resolved call of the factory with the source of each
argument (`CallSite.argument`); a kind handed down through a parameter is followed
to that function's callers (three levels). Then:
- rejected (kept): an open mechanism proves the factory is reached another way
  (`evidence.extension_points`), or the kind is user input (environment, command
  line, a configuration field) or outside data (a checkpoint's `model_type`): the one
  accepted kind is then a user-facing check;
- high: every production caller passes a literal (or a constant): the choice is made
  in code, so the callers can construct the implementation directly;
- medium, naming the doubt: a kind the graph cannot trace at some call site, only
  tests calling, the factory handed around as a value, or no resolved caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from astroid import nodes
from astroid.exceptions import NoDefault

from pylint_omni.abstractions.factories import FactoryChoice
from pylint_omni.evidence.consumers import Verdict, decide
from pylint_omni.evidence.extension_points import open_mechanisms
from pylint_omni.evidence.provenance import copied_file
from pylint_omni.index.graph import ReferenceGraph, graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Definition, ProjectIndex

MAX_CALLER_HOPS = 3  # callers climbed through parameters that hand a factory its kind on
OUTSIDE = "callers outside this repository (plugins, user code)"


@dataclass
class KindSources:
    """What the production callers pass as the kind: literals, user input, outside data, unknowns."""

    literals: dict[str, str] = field(default_factory=dict)  # value -> first call site
    user: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    sites: int = 0


def _production(index: ProjectIndex, path: str) -> bool:
    return index.location(path) is not Location.VALIDATION


def _position(func: nodes.FunctionDef, param: str) -> int | None:
    """The position callers pass `param` at (`self`/`cls` of a method not counted)."""
    positional = [a.name for a in [*func.args.posonlyargs, *func.args.args]]
    if positional and positional[0] in ("self", "cls") and isinstance(func.parent, nodes.ClassDef):
        positional = positional[1:]
    return positional.index(param) if param in positional else None


def _default(func: nodes.FunctionDef, param: str) -> str | None:
    """The summary of a parameter's default, when callers leave it out: a literal or a constant."""
    try:
        value = func.args.default_value(param)
    except NoDefault:
        return None
    if isinstance(value, nodes.Const) and isinstance(value.value, str):
        return f"s:{value.value}"
    return f"c:{value.as_string()}" if isinstance(value, nodes.Attribute) else None


def _collect(index: ProjectIndex, graph: ReferenceGraph, callee: str, position: int | None, name: str,
             default: str | None, found: KindSources, depth: int) -> None:
    for call in graph.calls_to(callee):
        if not _production(index, call.path):
            continue
        where = f"{call.path}:{call.line}"
        found.sites += depth == 0
        summary = call.argument(position, name)
        if summary is None:
            summary = default or ""
        kind, _, rest = summary.partition(":")
        if kind in ("s", "c"):
            found.literals.setdefault(rest.rpartition(".")[2] if kind == "c" else repr(rest), where)
        elif kind == "u":
            found.user.append(where)
        elif kind == "x":
            found.external.append(where)
        elif kind == "p" and depth < MAX_CALLER_HOPS:
            function, pos, param = rest.rsplit(":", 2)
            _collect(index, graph, function, int(pos) if pos.lstrip("-").isdigit() else None, param, None, found, depth + 1)
        else:
            found.unknown.append(where)


def _definition(index: ProjectIndex, relpath: str, func: nodes.FunctionDef) -> Definition:
    found = next((d for d in index.definitions_named(func.name) if d.path == relpath and d.data["line"] == func.lineno), None)
    if found is not None:
        return found
    return Definition(relpath, index.entries.get(relpath, {}).get("module", ""), "function",
                      {"name": func.name, "qual": func.qname().rpartition(".")[2], "line": func.lineno,  # type: ignore[typeddict-item]
                       "end": func.tolineno, "decorators": []})


def _no_caller(index: ProjectIndex, graph: ReferenceGraph, dotted: str) -> str:
    tests = [c for c in graph.calls_to(dotted) if not _production(index, c.path)]
    if tests:
        return f"only tests call it ({tests[0].path}:{tests[0].line})"
    values = [r for r in graph.refs_to(dotted) if r.via not in ("import", "hop", "call") and _production(index, r.path)]
    if values:
        return f"it is handed around as a value at {values[0].path}:{values[0].line}, so its callers are unknown"
    return "no resolved caller: who passes the kind is unknown"


def judge_factory(index: ProjectIndex, relpath: str, func: nodes.FunctionDef, choice: FactoryChoice) -> Verdict:
    """The verdict on a single-choice factory, from its open mechanisms and the kinds its callers pass."""
    definition = _definition(index, relpath, func)
    mechanisms = open_mechanisms(index, [definition, definition])
    rejects = [m.reason for m in mechanisms if m.resolved]
    if choice.external_kind:
        rejects.append("the kind is read from outside data (a checkpoint's model type): the one accepted kind is a "
                       "check users meet")
    if choice.field:
        rejects.append(f"the kind is the field `{choice.field}` of {choice.param}, a configuration users set: the one "
                       "accepted kind is a user-facing check")
    if rejects:
        return decide("", rejects=rejects, unknowns=[OUTSIDE])
    doubts = [m.reason for m in mechanisms]
    origin = copied_file(index, relpath)
    if origin is not None:
        doubts.append(f"{relpath} says it is {origin.describe()}: the factory may be kept to ease resyncs")
    graph = graph_of(index)
    dotted = f"{definition.module}.{definition.data['qual']}"
    sources = KindSources()
    _collect(index, graph, dotted, _position(func, choice.param), choice.param, _default(func, choice.param), sources, 0)
    if sources.user or sources.external:
        where, what = (sources.user[0], "user input") if sources.user else (sources.external[0], "outside data")
        rejects.append(f"the kind comes from {what} at {where}: the one accepted kind is a user-facing check")
    if sources.unknown:
        doubts.insert(0, f"the kind passed at {sources.unknown[0]} cannot be traced")
    elif not sources.sites:
        doubts.insert(0, _no_caller(index, graph, dotted))
    kinds = ", ".join(list(sources.literals)[:3])
    claim = f"every caller passes a literal kind ({kinds}; {sources.sites} call site{'s' if sources.sites > 1 else ''})"
    return decide(claim, rejects=rejects, doubts=doubts, unknowns=[*doubts, OUTSIDE] if not rejects else [OUTSIDE])
