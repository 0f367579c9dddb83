"""Hot or cold: how often a finding's code runs (SPEC §5), for the benefit and the ranking.

Hot: inside, or called (through the project) from, `forward`, step/decode/sample
loops, a scheduler or model-runner step, or a per-request handler (a route, a
`create_*completion`, `add_request`). Cold: `__init__` and other construction,
weight loading, warm-up and profiling runs, `lru_cache`d functions, error paths
(`except` handlers, branches that end in `raise`), module-level code and
`if __name__ == "__main__"`. Anything else is unknown.

"Called from" is read from the project index: the calls that name the function and
the function definitions that enclose them (`callers_of`); for a method, a call the
reference graph resolved to the same-named method of an unrelated class is left out.
Names are not proof of identity, so heat only orders findings; it never decides a
verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from astroid import nodes

from pylint_omni.evidence.benefit import Heat
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Table
from pylint_omni.index.facts import FunctionFact
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Hit, ProjectIndex
from pylint_omni.index.vocabulary import DEFAULT_VOCABULARY, Vocabulary

CACHING_DECORATORS = re.compile(r"(?:\A|\.)(?:lru_cache|cache|cached_property|cached)\b")
ROUTE_DECORATOR = re.compile(r"\.(?:get|post|put|delete|patch|websocket|route|api_route)\(")
MAX_CALLERS = 25  # a name called from more places than this says nothing about one function
MAX_CALLER_LEVELS = 3  # levels of callers climbed to find a hot or a cold one

_BY_CALLERS: Table[tuple[str, int], HeatReading] = Table("evidence.heat_by_callers")


@dataclass(frozen=True)
class HeatReading:
    """A heat and the reason, in a few words (`in Sampler.forward()`, `error path`)."""

    heat: Heat
    reason: str


COLD_MODULE = HeatReading(Heat.COLD, "module level: runs once at import")


def judge_function(name: str, decorators: list[str], words: Vocabulary = DEFAULT_VOCABULARY) -> Heat | None:
    """The heat a function's own name and decorators give (None: they say nothing); hot and cold names are the
    vocabulary's (`omni-hot-path-names`, `omni-cold-path-names`)."""
    if any(CACHING_DECORATORS.search(d) for d in decorators):
        return Heat.COLD
    if any(ROUTE_DECORATOR.search(d) for d in decorators):
        return Heat.HOT
    if words.cold_name.match(name):
        return Heat.COLD
    if words.hot_name.match(name):
        return Heat.HOT
    return None


def _decorators(function: nodes.FunctionDef) -> list[str]:
    return [d.as_string() for d in function.decorators.nodes] if function.decorators else []


def _label(function: nodes.FunctionDef) -> str:
    owner = function.parent.frame() if function.parent is not None else None
    return f"{owner.name}.{function.name}()" if isinstance(owner, nodes.ClassDef) else f"{function.name}()"


def _error_path(node: nodes.NodeNG, stop: nodes.NodeNG) -> str | None:
    """`except` handler or a branch that ends in `raise`, between `node` and its function."""
    child, parent = node, node.parent
    while parent is not None and parent is not stop:
        if isinstance(parent, nodes.ExceptHandler):
            return "error path (an except handler)"
        if isinstance(parent, nodes.If) and child in parent.body and isinstance(parent.body[-1], nodes.Raise):
            return "error path (a branch that ends in raise)"
        if isinstance(parent, nodes.If) and "__name__" in parent.test.as_string() and "__main__" in parent.test.as_string():
            return "script entry (`if __name__ == '__main__'`)"
        child, parent = parent, parent.parent
    return None


def _in_loop(node: nodes.NodeNG, stop: nodes.NodeNG) -> bool:
    parent = node.parent
    while parent is not None and parent is not stop:
        if isinstance(parent, (nodes.For, nodes.While, nodes.AsyncFor)):
            return True
        parent = parent.parent
    return False


def heat_of(node: nodes.NodeNG, index: ProjectIndex | None = None, relpath: str = "") -> HeatReading:
    """How often the code at `node` runs: its own function, the functions around it, then its callers."""
    frame = node.frame()
    while isinstance(frame, nodes.Lambda) and not isinstance(frame, nodes.FunctionDef) and frame.parent is not None:
        frame = frame.parent.frame()
    if not isinstance(frame, nodes.FunctionDef):
        error = _error_path(node, frame)
        return HeatReading(Heat.COLD, error) if error else COLD_MODULE
    error = _error_path(node, frame)
    if error:
        return HeatReading(Heat.COLD, error)
    function: nodes.NodeNG = frame
    while isinstance(function, nodes.FunctionDef):
        heat = judge_function(function.name, _decorators(function), index.settings.vocabulary if index else DEFAULT_VOCABULARY)
        if heat is Heat.HOT:
            loop = " loop" if _in_loop(node, function) else ""
            return HeatReading(Heat.HOT, f"in {_label(function)}{loop}")
        if heat is Heat.COLD:
            built = _built_hot(index, relpath, function) if index is not None and relpath else None
            if built is not None:
                return built
            cached = any(CACHING_DECORATORS.search(d) for d in _decorators(function))
            return HeatReading(Heat.COLD, f"in {_label(function)}" + (", cached" if cached else ""))
        outer = function.parent.frame() if function.parent is not None else None
        if not isinstance(outer, nodes.FunctionDef):
            break
        function = outer
    if index is None or not relpath:
        return HeatReading(Heat.UNKNOWN, f"{_label(frame)}: no caller known")
    return heat_through_callers(index, relpath, frame.name, frame.lineno or 0)


def _built_hot(index: ProjectIndex, relpath: str, function: nodes.FunctionDef) -> HeatReading | None:
    """A constructor runs as often as its class is built: LoRAX builds a `Seqlen` in every forward step, so what its
    `__init__` computes is hot work, not setup (None: not a constructor, or not built on a hot path)."""
    klass = function.parent.frame() if function.name == "__init__" and function.parent is not None else None
    if not isinstance(klass, nodes.ClassDef):
        return None
    built = _BY_CALLERS.of(index, (relpath, klass.lineno or 0), lambda: _through_callers(index, klass.name, None, 0, set()))
    return HeatReading(Heat.HOT, f"in {klass.name}.__init__(); {klass.name}(...) {built.reason}") if built.heat is Heat.HOT else None


@dataclass(frozen=True)
class Caller:
    """A function definition that calls a name, as the index knows it."""

    path: str
    function: FunctionFact

    @property
    def label(self) -> str:
        return f"{self.function['qual']}()"


def _enclosing(index: ProjectIndex, path: str, line: int) -> FunctionFact | None:
    """The innermost function of `path` whose span holds `line`."""
    best: FunctionFact | None = None
    for function in index.facts(path).get("functions", []):
        if function["line"] <= line <= function["end"] and (best is None or function["line"] >= best["line"]):
            best = function
    return best


def callers_of(index: ProjectIndex, name: str, owner: str | None = None) -> list[Caller] | None:
    """The production functions that call `name` (by name, through the index); None: too many to say. `owner`: the
    class whose method is meant: a call the reference graph resolved to the method of that name of an unrelated
    class is not its call (OpenRLHF: `self.evaluate()` in `PPOTrainer.fit` made `RewardModelTrainer.evaluate` hot)."""
    calls = [h for h in index.hits(name) if h.via == "call" and index.location(h.path) is not Location.VALIDATION]
    if owner is not None:
        related = _related_classes(index, owner)
        calls = [h for h in calls if related is None or _may_call(index, h, name, related)]
    if len(calls) > MAX_CALLERS:
        return None
    found: dict[tuple[str, int], Caller] = {}
    for hit in calls:
        function = _enclosing(index, hit.path, hit.line)
        if function is not None and function["name"] != name:
            found.setdefault((hit.path, function["line"]), Caller(hit.path, function))
    return list(found.values())


def _related_classes(index: ProjectIndex, owner: str) -> frozenset[str] | None:
    """The class, its ancestors and its descendants: a receiver of any of them may run its method (an ancestor's
    `self.hook()` runs the override). None for a class the class graph does not know (nothing is filtered)."""
    classes = class_graph(index)
    if owner not in classes.nodes:
        return None
    return frozenset({owner, *classes.ancestors(owner), *classes.descendants(owner)})


def _may_call(index: ProjectIndex, hit: Hit, name: str, related: frozenset[str]) -> bool:
    """Whether a call of `name` on that line may run the method of one of `related`: yes when the reference graph
    resolved no receiver for it."""
    suffix = "." + name
    receivers = [t[: -len(suffix)] for t in graph_of(index).targets_on_line(hit.path, hit.line) if t.endswith(suffix)]
    return not receivers or any(r in related for r in receivers)


def _owner_class(index: ProjectIndex, relpath: str, qual: str) -> str | None:
    """The dotted class of a method (`qual` is `Class.method`), None for a function."""
    container = qual.rpartition(".")[0]
    module = index.entries.get(relpath, {}).get("module", "")
    return f"{module}.{container}" if container and module else None


def heat_through_callers(index: ProjectIndex, relpath: str, name: str, line: int) -> HeatReading:
    """Hot when a caller (up to three calls away) is hot; cold when every caller is cold."""
    function = next((f for f in index.facts(relpath).get("functions", []) if f["line"] == line and f["name"] == name), None)
    owner = _owner_class(index, relpath, function["qual"]) if function is not None else None
    return _BY_CALLERS.of(index, (relpath, line), lambda: _through_callers(index, name, owner, 0, set()))


def _through_callers(index: ProjectIndex, name: str, owner: str | None, depth: int, seen: set[str]) -> HeatReading:
    callers = callers_of(index, name, owner) if name not in seen else []
    if not callers:
        return HeatReading(Heat.UNKNOWN, f"{name}(): " + ("called from too many places to say" if callers is None else "no caller known"))
    seen = seen | {name}
    readings = []
    for caller in callers:
        heat = judge_function(caller.function["name"], caller.function["decorators"], index.settings.vocabulary)
        if heat is None and depth + 1 < MAX_CALLER_LEVELS:
            heat = _through_callers(index, caller.function["name"], _owner_class(index, caller.path, caller.function["qual"]),
                                    depth + 1, seen).heat
        if heat is Heat.HOT:
            return HeatReading(Heat.HOT, f"called from {caller.label} ({caller.path})")
        readings.append(heat)
    if all(h is Heat.COLD for h in readings):
        return HeatReading(Heat.COLD, f"only called from construction or setup ({callers[0].label}, ...)")
    return HeatReading(Heat.UNKNOWN, f"{name}(): callers neither hot nor cold")


def hottest(readings: list[HeatReading]) -> HeatReading:
    """The hottest of several sites (a field written in `__init__` and in `step()` is hot)."""
    order = {Heat.HOT: 0, Heat.UNKNOWN: 1, Heat.COLD: 2, Heat.NEVER: 3}
    return min(readings, key=lambda r: order[r.heat]) if readings else HeatReading(Heat.UNKNOWN, "no site")
