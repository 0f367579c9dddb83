"""How classes reach the code that picks them: `*_cls` slots and registries, on the reference graph.

Two resolved ways a class is chosen at run time rather than named in code:
- a `*_cls` slot (`scan.link_scan` flows): a class of the family is the default of
  a configuration read (`cfg.get("loader_cls", Impl)`), a deploy YAML key names it
  (`worker_cls: pkg.mod.Impl`), or it is the default of a parameter that callers
  fill with other classes. A slot of the same name that never carries a class of
  the family is another subsystem's (a name collision, never evidence);
- a registry (`index.registries()`): a class of the family is an entry, and the
  registry's storage has a production read (`ReferenceGraph.table_uses`: lookups,
  membership tests, enumerations, the table handed out). A registry nothing reads
  is noted, weaker: its entries are `unused-registry-entry`'s business.

Each finder returns `Found` items: resolved ones reject, the others are doubts.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylint_omni.index.derived import Built, Table
from pylint_omni.index.facts import RegistryFact
from pylint_omni.index.graph import Flow, ReferenceGraph, TableUse
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Definition, ProjectIndex

TABLE_FORMS = frozenset({"dict", "table", "enum", "setitem", "update", "merged", "lazy-export"})
WRITE_METHODS = ("register", "add", "update", "setdefault", "__setitem__")
READ_ROLES = frozenset({"lookup", "membership"})

_SLOT_FLOWS: Built[list[tuple[str, list[Flow]]]] = Built("abstractions.slot_flows")
_REGISTRY_READS: Table[tuple[str, str, int], list[str]] = Table("abstractions.registry_reads")
_REGISTRATIONS: Built[list[tuple[str, RegistryFact, str, bool, int]]] = Built("abstractions.registrations")


@dataclass(frozen=True)
class Found:
    """One way a class can be chosen at run time; `resolved` when the graph proves the path."""

    reason: str
    resolved: bool


def _production(index: ProjectIndex, path: str) -> bool:
    return index.location(path) is not Location.VALIDATION


def _short(dotted: str) -> str:
    return dotted.rpartition(".")[2]


def _enclosing_function(index: ProjectIndex, path: str, module: str, line: int) -> str | None:
    """The function whose signature holds `line` (a parameter default sits on its `def` lines)."""
    best = None
    for data in index.facts(path).get("functions", []):
        if data["line"] <= line <= data["end"] and (best is None or data["line"] > best["line"]):
            best = data
    return f"{module}.{best['qual']}" if best is not None else None


def _callers_fill(graph: ReferenceGraph, function: str, slot: str, family: set[str]) -> tuple[list[str], list[str]]:
    """(call sites passing another or an unknown value for `slot`, call sites passing a family class)."""
    other, own = [], []
    for call in graph.calls_to(function):
        value = call.argument(None, slot)
        if value is None:
            continue
        where = f"{call.path}:{call.line}"
        (own if value.startswith("c:") and value[2:] in family else other).append(where)
    return other, own


def _default_flow(index: ProjectIndex, graph: ReferenceGraph, flow: Flow, family: set[str]) -> Found | None:
    name = _short(flow.value[2:])
    read_here = any(f.how == "read" and f.path == flow.path and f.line == flow.line for f in graph.flows(flow.slot))
    if read_here:
        return Found(f"configuration picks the class: `{flow.slot}` is read at {flow.path}:{flow.line} with {name} "
                     "only as its default", True)
    function = _enclosing_function(index, flow.path, graph.module_of_path(flow.path), flow.line)
    if function is None:
        return None
    other, _ = _callers_fill(graph, function, flow.slot, family)
    production = [w for w in other if _production(index, w.partition(":")[0])]
    if production:
        return Found(f"callers pass other classes as `{flow.slot}` of {_short(function)}() (e.g. {production[0]}); "
                     f"{name} is only the default", True)
    seam = f"`{flow.slot}` of {_short(function)}() ({flow.path}:{flow.line}) can take another class"
    if other:
        return Found(f"{seam}: only tests pass one ({other[0]})", False)
    return Found(f"{seam}, though no caller passes one", False)


def class_slots(index: ProjectIndex, graph: ReferenceGraph, family: set[str]) -> list[Found]:
    """`*_cls` slots that carry a class of `family` and that configuration or callers can fill otherwise."""
    found: list[Found] = []
    def all_slots() -> list[tuple[str, list[Flow]]]:
        slots = dict.fromkeys(slot for resolved in graph.resolutions.values() for slot, *_ in resolved.get("flows", ()))
        return [(slot, graph.flows(slot)) for slot in slots]

    for slot, flows in _SLOT_FLOWS.of(index, all_slots):
        for flow in flows:
            if not flow.value.startswith("c:") or flow.value[2:] not in family or not _production(index, flow.path):
                continue
            if flow.how == "yaml":
                found.append(Found(f"the deploy configuration picks the class: `{slot}: {_short(flow.value[2:])}` "
                                   f"at {flow.path}:{flow.line}", True))
            elif flow.how == "default":
                result = _default_flow(index, graph, flow, family)
                if result is not None:
                    found.append(result)
    return sorted(found, key=lambda f: not f.resolved)


# -- registries ------------------------------------------------------------------------------------
def _registering_storage(index: ProjectIndex, graph: ReferenceGraph, relpath: str, registry: RegistryFact) -> list[str]:
    """The tables a registry's entries land in: the table itself, or those its registering function writes."""
    module = graph.module_of_path(relpath)
    if registry["form"] in TABLE_FORMS:
        return [f"{module}.{registry['name']}"]
    head, _, rest = registry["name"].partition(".")
    imported = index.facts(relpath).get("imports", {}).get(head)
    chain = imported + ("." + rest if rest else "") if imported else f"{module}.{registry['name']}"
    target = graph.resolve(chain)
    if target.kind == "var":
        return [target.dotted]
    definition = index.resolve_target(target.dotted) if target.kind in ("def", "member") else None
    if definition is None:
        return []
    first, last = definition.data["line"], definition.data["end"]
    written = [table for table, line, role, _ in graph.resolutions.get(definition.path, {}).get("tables", ())
               if role == "write" and first <= line <= last]
    if written:
        return list(dict.fromkeys(written))
    return [target.dotted.rpartition(".")[0]] if target.kind == "member" else []


def _read(use: TableUse, graph: ReferenceGraph) -> bool:
    """A use that can hand an entry out: a keyed read, an enumeration, the table passed or another method."""
    if use.role in READ_ROLES:
        return True
    if use.role == "enumerate":
        return use.detail != "message"
    if use.role.startswith("call:"):
        return not use.role[5:].startswith(WRITE_METHODS)
    if use.role == "passed":
        callee, _, position = use.detail.rpartition(":")
        return not (position.isdigit() and int(position) in graph.writer_params(callee))
    return False


def registry_reads(index: ProjectIndex, graph: ReferenceGraph, relpath: str, registry: RegistryFact) -> list[str]:
    """Production places that read a registry's storage (memoised per run)."""
    return _REGISTRY_READS.of(index, (relpath, registry["name"], registry["line"]), lambda: [
        f"{use.path}:{use.line} ({use.role})"
        for table in _registering_storage(index, graph, relpath, registry)
        for use in graph.table_uses(table)
        if _production(index, use.path) and _read(use, graph)
    ])


def _registrations(index: ProjectIndex, graph: ReferenceGraph) -> list[tuple[str, RegistryFact, str, bool, int]]:
    """(path, registry, target, suffix, line) of every registry entry, targets resolved (memoised per run)."""
    return _REGISTRATIONS.of(index, lambda: [
        (path, registry, graph.resolve(entry["target"]).dotted if not entry.get("suffix") else entry["target"],
         bool(entry.get("suffix")), entry["line"])
        for path, registry in index.registries() if registry["form"] != "custom-op"
        for entry in registry.get("entries", []) if entry.get("target")
    ])


def registered(index: ProjectIndex, graph: ReferenceGraph, named: list[Definition]) -> list[Found]:
    """Registries holding a class of the family: resolved when something reads them."""
    dotted = {d.dotted for d in named}
    found: list[Found] = []
    for path, registry, target, suffix, line in _registrations(index, graph):
        # A suffix target (`("llama", "LlamaModel")` assembling a module path) must hold a module
        # part: a bare class name would match any class of that name.
        if (not suffix and target in dotted) or (suffix and "." in target and any(d.endswith("." + target) for d in dotted)):
            reads = registry_reads(index, graph, path, registry)
            where = f"{registry['name']} ({path}:{line})"
            if reads:
                found.append(Found(f"registered in {where}, which is read at {reads[0]}", True))
            else:
                found.append(Found(f"registered in {where}, though nothing the index can follow reads it", False))
    return sorted(found, key=lambda f: not f.resolved)


def subclass_hook_table(graph: ReferenceGraph, base: Definition) -> Found | None:
    """A base that registers its subclasses (`__init_subclass__` or a `register*` method writing a table)."""
    hooks = [m for m in base.data.get("methods", []) if m == "__init_subclass__" or m.startswith("register")]
    if not hooks:
        return None
    first, last = base.data["line"], base.data["end"]
    for table, line, role, _ in graph.resolutions.get(base.path, {}).get("tables", ()):
        if role == "write" and first <= line <= last:
            return Found(f"{base.data['name']}.{hooks[0]} registers subclasses in {_short(table)} ({base.path}:{line})", True)
    return None
