"""How a registry is read: where it is stored, who writes it, who reads it and with which key.

`read_paths(...)` follows the reference graph from a registry declaration to its
storage — the table itself (`pkg.mod.TABLE`, `pkg.mod.Cls._table`), or, for a
`@register("key")` decorator or `register("key", X)` call, the tables the
registering function writes into (or the registry object whose method it is) —
and collects every use of that storage across the project:
- keyed reads (subscript, `.get`, `in`, `REG.build(cfg)`...), each with the source
  of its key; a key handed in through a parameter is traced to the call sites
  that pass it (`param:F:i` -> the literal, class name or input each caller gives);
- enumerations: a message (an error text, `__dir__`: informs, reads nothing),
  a copy into another module-level table (followed: its reads are this table's),
  a copy into a local table (not followed), or exposure (handed out whole,
  returned, passed to a call: every key is reachable);
- writes (entries added elsewhere; a table passed to a function that only writes
  into it is written, not exposed).
Judged once per registry and run (a decorator registry spans many modules).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pylint_omni.evidence.class_flows import TABLE_FORMS, WRITE_METHODS
from pylint_omni.index.derived import Table
from pylint_omni.index.facts import RegistryFact
from pylint_omni.index.graph import ReferenceGraph, TableUse
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex

MAX_COPY_DEPTH = 3  # copies of a registry (`local = dict(REG)`) followed to their reads
MAX_PARAM_DEPTH = 3  # callers climbed through parameters that hand a key on
SUMMARY_SOURCE = {"s": "lit", "n": "classname", "x": "external", "u": "user", "f": "pattern"}

_READ_PATHS: Table[tuple[str, str, str], ReadPaths] = Table("registries.read_paths")


@dataclass(frozen=True)
class Read:
    """One keyed read of the registry: where, how, and the source of its key."""

    path: str
    line: int
    how: str
    source: str  # `lit:K`, `pattern:S`, `classname`, `external`, `user:...`, `attribute`, `config:A`, `var`
    validation: bool

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def describe(self) -> str:
        return f"{self.where} ({describe_source(self.source)})"


def describe_source(source: str) -> str:
    kind, _, rest = source.partition(":")
    return {
        "lit": f"the literal key {rest!r}",
        "pattern": f"keys built as '{rest}'",
        "classname": "a class name (`type(x).__name__`)",
        "external": "outside data (checkpoint config: architectures, _class_name, model_type)",
        "user": f"user input ({rest or 'environment or command line'})",
        "attribute": "module attribute names (`module.NAME`)",
        "config": f"the configuration field `{rest}`",
    }.get(kind, "a value the index cannot trace")


@dataclass
class ReadPaths:
    """Storage, reads, writes and exposure of one registry."""

    storage: list[str] = field(default_factory=list)
    reads: list[Read] = field(default_factory=list)
    exposed: list[str] = field(default_factory=list)
    local_copies: list[str] = field(default_factory=list)
    copies: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    unresolved: str | None = None  # why the storage could not be found

    def production_reads(self) -> list[Read]:
        return [r for r in self.reads if not r.validation]

    @property
    def attribute_keyed(self) -> bool:
        return any(r.source == "attribute" for r in self.production_reads())


def read_paths(index: ProjectIndex, graph: ReferenceGraph, relpath: str, registry: RegistryFact) -> ReadPaths:
    """The read paths of a registry (memoised per run for registries spread over modules)."""
    module = index.entries.get(relpath, {}).get("module", "")
    key = (module if registry["form"] in TABLE_FORMS else "", registry["name"], registry["form"])
    return _READ_PATHS.of(index, key, lambda: _read_paths(index, graph, relpath, module, registry))


def _read_paths(index: ProjectIndex, graph: ReferenceGraph, relpath: str, module: str, registry: RegistryFact) -> ReadPaths:
    paths = ReadPaths()
    if registry["form"] in TABLE_FORMS:
        paths.storage = [f"{module}.{registry['name']}"]
    else:
        paths.storage, paths.unresolved = _registering_storage(index, graph, relpath, module, registry["name"])
    seen: set[str] = set()
    for table in list(paths.storage):
        _collect(index, graph, table, paths, seen, 0)
    return paths


def _registering_storage(index: ProjectIndex, graph: ReferenceGraph, relpath: str, module: str, written: str) -> tuple[list[str], str | None]:
    """Tables a registering function writes into, or the registry object it belongs to."""
    chain = _chain_in(index, relpath, module, written)
    target = graph.resolve(chain)
    if target.kind == "var":
        return [target.dotted], None
    if target.kind in ("def", "member"):
        definition = index.resolve_target(target.dotted)
        if definition is None:
            return [], f"the registering function {written} could not be placed"
        first, last = definition.data["line"], definition.data["end"]
        written_tables = [
            use.table for use in _file_table_uses(graph, definition.path)
            if use.role == "write" and first <= use.line <= last
        ]
        if not written_tables and target.kind == "member":
            owner = target.dotted.rpartition(".")[0]
            return [owner], None  # `REG.register(...)` on a registry class: the class holds the table
        if written_tables:
            return list(dict.fromkeys(written_tables)), None
        return [], f"{written} ({definition.path}:{first}) stores entries in no table the index can follow"
    if target.kind == "external":
        return [], f"the registry lives in {chain.partition('.')[0]} ({chain}), outside this project"
    return [], f"the registering function {written} could not be placed"


def _chain_in(index: ProjectIndex, relpath: str, module: str, written: str) -> str:
    head, _, rest = written.partition(".")
    facts = index.facts(relpath)
    imported = facts.get("imports", {}).get(head)
    if imported:
        return imported + ("." + rest if rest else "")
    if head in (facts.get("links") or {}).get("bindings", {}):
        return f"{module}.{written}"
    return written


def _file_table_uses(graph: ReferenceGraph, relpath: str) -> list[TableUse]:
    return [TableUse(relpath, line, table, role, detail) for table, line, role, detail in graph.resolutions.get(relpath, {}).get("tables", ())]


def _collect(index: ProjectIndex, graph: ReferenceGraph, table: str, paths: ReadPaths, seen: set[str], depth: int) -> None:
    if table in seen:
        return
    seen.add(table)
    for use in graph.table_uses(table):
        validation = index.location(use.path) is Location.VALIDATION
        where = f"{use.path}:{use.line}"
        role, detail = use.role, use.detail
        if role == "write" or (role.startswith("call:") and role[5:].startswith(WRITE_METHODS)):
            paths.writes.append(where)
        elif role in ("lookup", "membership") or (role.startswith("call:") and detail != "none"):
            how = role.partition(":")[2] or role
            for source in expand_source(index, graph, detail, 0):
                paths.reads.append(Read(use.path, use.line, how, source, validation))
        elif role.startswith("call:"):
            if not validation:
                paths.exposed.append(f"{where} (.{role[5:]}())")
        elif role == "enumerate":
            _enumeration(index, graph, detail, where, validation, paths, seen, depth)
        elif role == "passed" and not validation:
            callee, _, position = detail.rpartition(":")
            if position.isdigit() and int(position) in graph.writer_params(callee):
                paths.writes.append(where)
            else:
                paths.exposed.append(where)


def _enumeration(index: ProjectIndex, graph: ReferenceGraph, detail: str, where: str, validation: bool,
                 paths: ReadPaths, seen: set[str], depth: int) -> None:
    if detail == "message" or validation:
        return
    if detail.startswith("transfer:"):
        copy = detail.partition(":")[2]
        paths.copies.append(f"{copy} ({where})")
        if depth < MAX_COPY_DEPTH:
            _collect(index, graph, copy, paths, seen, depth + 1)
        return
    if detail == "transfer":
        paths.local_copies.append(where)
        return
    paths.exposed.append(where)


def expand_source(index: ProjectIndex, graph: ReferenceGraph, source: str, depth: int) -> list[str]:
    """A key source with parameters traced to what their callers pass (`param:F:i:name`).

    When the function is also called where the index cannot tell the callee (a
    receiver of unknown class, a callback), the key may be anything: `var` joins.
    """
    if not source.startswith("param:") or depth >= MAX_PARAM_DEPTH:
        return [source if not source.startswith("param:") else "var"]
    function, position, name = source[6:].rsplit(":", 2)
    sites = graph.calls_to(function)
    tail = function.rpartition(".")[2]
    calls_by_name = {(h.path, h.line) for h in index.hits(tail) if h.via == "call"}
    found: list[str] = []
    if not sites or calls_by_name - {(s.path, s.line) for s in sites}:
        found.append("var")
    for site in sites:
        summary = site.argument(int(position) if position.lstrip("-").isdigit() else None, name)
        kind, _, rest = (summary or "").partition(":")
        if kind == "p":
            found += expand_source(index, graph, f"param:{rest}", depth + 1)
        elif kind in SUMMARY_SOURCE:
            found.append(f"{SUMMARY_SOURCE[kind]}:{rest}" if rest else SUMMARY_SOURCE[kind])
        else:
            found.append("var")
    return list(dict.fromkeys(found))
