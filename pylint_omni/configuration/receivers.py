"""Which receiver takes an option of a namespace handed out whole: `**vars(args)` followed through calls.

The scanner's `dicts` records (`flows`) say, per function, which keys a dict of options is
read by and which calls it is handed to. From each production place where a parsed
namespace is converted whole (`vars(args)`, `args.__dict__`), the dict is followed
through those calls, resolved by the reference graph (`self.m`, imports, re-exports):
- a class's `__init__` (its own or a project base's); a config class without one takes
  its fields;
- a callee that has the option as a parameter takes it; one that collects `**kwargs`
  passes the question on to what it does with them; one without either drops it
  (Python would refuse the keyword);
- a dict read by the option's key takes it; one handed on positionally or as `**`
  follows the call; one that escapes any other way (stored, iterated, merged, passed
  to a call the graph cannot resolve) may have any key read: unknown.
A callee outside the project takes the option when its indexed package takes or reads
that name (`upstream_of`); otherwise it is unknown. Following stops after a few calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pylint_omni.configuration.readers import SCANNER_KEY
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Derived
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream import upstream_of

MAX_CALL_HOPS = 6  # calls a dict of options is followed through (handed on as **kwargs) before its reader is unknown


@dataclass(frozen=True)
class Outcome:
    """What happens to one key along one path: `takes`, `drops` or `unknown`, and where (words for the message)."""

    kind: str
    where: str
    site: str = ""  # the production place the namespace was handed out whole


@dataclass(frozen=True)
class _Callee:
    """A resolved callee: its dotted name, parameters callers pass (without `self`), where it is."""

    dotted: str
    params: tuple[str, ...]
    place: str
    fields: tuple[str, ...] | None = None  # a config class without `__init__`: the keywords it takes


def _combine(outcomes: list[Outcome], drops: str) -> Outcome:
    """Any path that takes the key wins, then any unknown; a drop names the last callee that dropped it."""
    for kind in ("takes", "unknown"):
        found = next((o for o in outcomes if o.kind == kind), None)
        if found is not None:
            return found
    return outcomes[0] if outcomes else Outcome("drops", drops)


class Receivers:
    """The `dicts` records of the project and the walk through them (one per run)."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self.graph = graph_of(index)
        self.classes = class_graph(index)
        self.records: dict[tuple[str, str], tuple[str, list[Any]]] = {}  # (function, variable) -> (path, record)
        self.sites: list[tuple[str, list[Any]]] = []  # namespaces converted whole in production code
        for rel, _ in index.python_files():
            module = index.entries[rel].get("module", "")
            for record in (index.extra(rel, SCANNER_KEY) or {}).get("dicts", []):
                self.records[(f"{module}.{record[0]}", record[1])] = (rel, record)
                if record[2].startswith("ns:") and index.location(rel) is Location.PRODUCTION:
                    self.sites.append((rel, record))

    # -- callees -------------------------------------------------------------------------
    def _function(self, path: str, qual: str, dotted: str, bound: bool) -> _Callee | None:
        for data in self.index.facts(path).get("functions", []):
            if data["qual"] == qual:
                params = [p for p in (data.get("params") or "").split(",") if p]
                return _Callee(dotted, tuple(params[1:] if bound and params else params), f"{path}:{data['line']}")
        return None

    def _method(self, owner: str, name: str) -> _Callee | None:
        """`owner.name` found on the class or a project base; None when no project class defines it."""
        for dotted in (owner, *self.classes.ancestors(owner)):
            node = self.classes.nodes.get(dotted)
            if node is not None and name in node.definition.data.get("methods", []):
                data = node.definition.data
                return self._function(node.definition.path, f"{data['qual']}.{name}", f"{dotted}.{name}", True)
        return None

    def _class(self, dotted: str) -> _Callee | None:
        found = self._method(dotted, "__init__")
        if found is not None:
            return found
        if self.classes.extends_outside(dotted):
            return None  # the `__init__` that runs is outside the project
        node = self.classes.nodes.get(dotted)
        if node is None:
            return None
        data = node.definition.data
        fields = tuple(name for name in (data.get("fields") or "").split(",") if name)
        return _Callee(dotted, (), f"{node.definition.path}:{data['line']}", fields)

    def callee(self, written: str) -> _Callee | None:
        target = self.graph.resolve(written)
        if target.kind == "class":
            return self._class(target.dotted)
        if target.kind == "member":
            owner, _, name = target.dotted.rpartition(".")
            return self._method(owner, name)
        if target.kind == "def":
            module, _, name = target.dotted.rpartition(".")
            path = self.index.module_file(module)
            return self._function(path, name, target.dotted, False) if path else None
        return None

    # -- the walk ------------------------------------------------------------------------
    def site_outcome(self, name: str, path: str, record: list[Any]) -> Outcome:
        """What happens to the key `name` of the namespace converted at one production site."""
        return self._dict(name, path, record, record[0].rpartition(".")[2] or "the module", 0)

    def _dict(self, name: str, path: str, record: list[Any], owner: str, depth: int) -> Outcome:
        _, var, _, line, keys, forwards, escape = record
        shown = f"`{var}`" if var else "the converted namespace"
        if name in keys.split(","):
            return Outcome("takes", f"{owner} reads `{name}` from {shown} ({path}:{line})")
        if escape:
            return Outcome("unknown", f"{shown} leaves {owner} at {path}:{escape}")
        outcomes = [self._call(name, callee, how, f"{path}:{at}", depth + 1) for at, callee, how in forwards]
        names = keys.split(",") if keys else []
        read = f"reads only {', '.join(f'`{k}`' for k in names[:3])}" + (f" and {len(names) - 3} more" if len(names) > 3 else "") \
            if names else "reads no key of it"
        return _combine(outcomes, f"{owner} {read} ({path}:{line})")

    def _call(self, name: str, written: str, how: Any, at: str, depth: int) -> Outcome:
        short = written.rpartition(".")[2]
        if depth > MAX_CALL_HOPS:
            return Outcome("unknown", f"the calls go on past {short} ({at})")
        callee = self.callee(written)
        if callee is None:
            return self._outside(name, written, at)
        shown = callee.dotted.rpartition(".")[0].rpartition(".")[2] + "." + callee.dotted.rpartition(".")[2] \
            if callee.dotted.endswith("__init__") else callee.dotted.rpartition(".")[2]
        if callee.fields is not None:
            if how != "**":
                return Outcome("unknown", f"{shown} receives the whole dict ({at})")
            return Outcome("takes", f"{shown} has the field `{name}` ({callee.place})") if name in callee.fields \
                else Outcome("drops", f"{shown} has no field `{name}` ({callee.place})")
        plain = [p for p in callee.params if not p.startswith("*")]
        collector = next((p[2:] for p in callee.params if p.startswith("**")), None)
        if how == "**":
            if name in plain:
                return Outcome("takes", f"{shown} takes `{name}` ({callee.place})")
            if collector is None:
                return Outcome("drops", f"{shown} takes no `{name}` ({callee.place})")
            param = collector
        elif isinstance(how, int):
            if how >= len(plain):
                return Outcome("unknown", f"{shown} receives the dict in `*args` ({at})")
            param = plain[how]
        else:
            param = how[1:]
            if param not in plain:
                return Outcome("unknown", f"{shown} receives the dict as `{param}` ({at})")
        found = self.records.get((callee.dotted, param))
        if found is None:
            return Outcome("unknown", f"{shown} uses `{param}` in ways not followed ({callee.place})")
        return self._dict(name, found[0], found[1], shown, depth)

    def _outside(self, name: str, written: str, at: str) -> Outcome:
        package = upstream_of(self.index).owning(written)
        ref = (package.accepts(name) or package.reads(name)) if package is not None else None
        if ref is not None:
            return Outcome("takes", f"upstream {written} is called ({at}) and upstream code takes `{name}` ({ref.describe()})")
        return Outcome("unknown", f"{written.rpartition('.')[2]} cannot be followed ({at})")


def receivers(index: ProjectIndex) -> Receivers:
    return _RECEIVERS.of(index)


_RECEIVERS: Derived[Receivers] = Derived("configuration.receivers", Receivers)


def namespace_outcomes(index: ProjectIndex, name: str, names: frozenset[str], whole: list[tuple[str, int, str]]) -> list[Outcome]:
    """What happens to the key `name` at every production place a namespace (`names`) is handed out whole.

    `whole`: every such place (path, line, `how name`) from the scanner's `whole` facts; one that
    no `dicts` record covers (iterated, expanded without conversion, ...) is unknown.
    """
    walker = receivers(index)
    covered: set[tuple[str, int]] = set()
    found: list[Outcome] = []
    for path, record in walker.sites:
        if record[2][3:] not in names:
            continue
        covered.add((path, record[3]))
        covered.update((path, at) for at, _, _ in record[5])
        outcome = walker.site_outcome(name, path, record)
        found.append(Outcome(outcome.kind, outcome.where, f"{path}:{record[3]} (vars {record[2][3:]})"))
    for path, line, how in whole:
        if (path, line) not in covered:
            found.append(Outcome("unknown", f"`{how}` at {path}:{line} is not followed", f"{path}:{line} ({how})"))
    return found
