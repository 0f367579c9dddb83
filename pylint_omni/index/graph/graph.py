"""`ReferenceGraph`: every reference of the project resolved to what it reaches, with queries.

Built once per index state (`graph_of(index)`), from the per-file link facts, with
each file's resolution reused from memory or the on-disk store while its stamp and
the export tables it went through are unchanged (`graph.store`). `-j N` workers
each build (or load) it once per run; `--from-stdin` buffers replace their file
(`ProjectIndex.override`) and re-resolve what depends on it; a long-lived process
keeps the resolutions between runs.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from pylint_omni.index.derived import Derived
from pylint_omni.index.graph import store
from pylint_omni.index.graph.exports import ModuleTable, Resolver, Target
from pylint_omni.index.graph.resolve import resolve_file
from pylint_omni.index.project_index import Hit, ProjectIndex
from pylint_omni.index.scan.tokens import files_by_key
from pylint_omni.index.scan.tokens import decode_hits


@dataclass(frozen=True)
class Ref:
    """A resolved reference: where, how (`via`), and the dotted target it reaches."""

    path: str
    line: int
    via: str
    target: str


@dataclass(frozen=True)
class CallSite:
    """A call of a resolved callee, with the source of each argument (`scan.key_sources.argument_summary`)."""

    path: str
    line: int
    callee: str
    args: tuple[str, ...]
    keywords: tuple[tuple[str, str], ...]

    def argument(self, position: int | None, name: str) -> str | None:
        """The summary of the argument at `position` or passed as `name`; None when not passed."""
        found = dict(self.keywords).get(name)
        if found is None and position is not None and 0 <= position < len(self.args):
            found = self.args[position]
        return found


@dataclass(frozen=True)
class TableUse:
    """A read or write of a table (`scan.table_uses`): role and key source or purpose."""

    path: str
    line: int
    table: str
    role: str
    detail: str


@dataclass(frozen=True)
class Flow:
    """A value flowing into a `*_cls` slot (`c:TARGET`, `s:text`, `` unknown), or a read of the slot (how `read`)."""

    path: str
    line: int
    slot: str
    value: str
    how: str


@dataclass(frozen=True, slots=True)
class AttributeRead:
    """Who an attribute read on one line belongs to.

    kind: `class` (a project class: `owner` is its dotted path), `external` (a class outside the
    project, as written through the imports), `module` (a module's own attribute, project or
    outside), `unknown` (a receiver whose class is not known: any object may be read).
    """

    kind: str
    owner: str


@dataclass
class GraphStats:
    """What one build did: files resolved anew, reused, and the time it took."""

    resolved: int = 0
    reused: int = 0
    seconds: float = 0.0
    note: str | None = None


@dataclass
class _State:
    """What survives between runs of one process: resolutions by file."""

    entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    loaded: bool = False


class ReferenceGraph:
    """The resolved references of one index state, and the queries the evidence asks."""

    def __init__(self, index: ProjectIndex, resolver: Resolver, resolutions: dict[str, dict[str, Any]], stats: GraphStats) -> None:
        self.index = index
        self.resolver = resolver
        self.resolutions = resolutions
        self.stats = stats
        self._postings: dict[str, list[str]] | None = None
        self._sorted_targets: list[str] | None = None  # the postings' targets in order, for prefix questions
        self._refs: dict[str, list[Ref]] = {}
        self._inverted: dict[str, dict[str, list[Any]]] = {}
        self._refs_by_file_line: dict[tuple[str, int], set[str]] | None = None
        self._chain_tails: dict[str, dict[str, list[tuple[str, str]]]] = {}
        self.tops = frozenset(module.partition(".")[0] for module in resolver.tables)

    # -- resolution -----------------------------------------------------------------------
    def resolve(self, dotted: str) -> Target:
        """Where a dotted path leads in this project (`external` outside it)."""
        return self.resolver.resolve(dotted)

    def module_of_path(self, relpath: str) -> str:
        return self.index.entries.get(relpath, {}).get("module", "")

    # -- inverted tables, built on first question -----------------------------------------------
    def postings(self) -> dict[str, list[str]]:
        """target -> files that reference it (built once per graph: one pass over the files' keys)."""
        if self._postings is None:
            self._postings = files_by_key((rel, resolved.get("refs", ())) for rel, resolved in self.resolutions.items())
        return self._postings

    def refs_to(self, dotted: str) -> list[Ref]:
        """Resolved references to a definition, module, member or module attribute (exact path)."""
        found = self._refs.get(dotted)
        if found is None:
            found = []
            for rel in self.postings().get(dotted, ()):
                found.extend(Ref(rel, line, via, dotted) for line, via in decode_hits(self.resolutions[rel]["refs"][dotted]))
            self._refs[dotted] = found
        return found

    def targets_under(self, dotted: str) -> list[str]:
        """`dotted` and every referenced target under it (`pkg.mod` -> `pkg.mod.X`, `pkg.mod.Cls.m`), in order: a
        slice of the sorted targets (asked once per dead class or emptied module, it must not scan them all)."""
        if self._sorted_targets is None:
            self._sorted_targets = sorted(self.postings())
        ordered, prefix = self._sorted_targets, dotted + "."
        found = [dotted] if dotted in self.postings() else []
        start = bisect.bisect_left(ordered, prefix)
        end = bisect.bisect_left(ordered, dotted + "/")  # "/" sorts right after ".": the end of the prefix's range
        return found + ordered[start:end]

    def targets_on_line(self, relpath: str, line: int) -> set[str]:
        """Every target resolved from one line (to tell a name-only mention from a resolved one)."""
        if self._refs_by_file_line is None:
            self._refs_by_file_line = {}
        key = (relpath, line)
        found = self._refs_by_file_line.get(key)
        if found is None:
            marker = f"{line},"
            found = {
                target for target, encoded in self.resolutions.get(relpath, {}).get("refs", {}).items()
                if encoded.startswith(marker) or f"|{marker}" in encoded
            }
            self._refs_by_file_line[key] = found
        return found

    def attribute_reads(self, relpath: str, line: int, attr: str) -> list[AttributeRead]:
        """Every read of `.attr` on one line, by owner: resolved receivers (`self`, annotated parameters,
        constructor results, class and module paths) and, when a receiver of unknown class reads it
        too (or nothing resolved it), one `unknown` read."""
        found: list[AttributeRead] = []
        suffix = "." + attr
        for target in self.targets_on_line(relpath, line):
            if not target.endswith(suffix):
                continue
            vias = {via for at, via in decode_hits(self.resolutions[relpath]["refs"][target]) if at == line}
            if vias & {"attr-load", "attr-call"}:
                owner = target[: -len(suffix)]
                kind = self.resolver.resolve(owner).kind
                found.append(AttributeRead("class" if kind == "class" else "unknown" if owner.partition(".")[0] in self.tops else "external", owner))
        for chain in self._chains_ending(relpath, attr, line):
            found.append(self._chain_read(chain[: -len(suffix)]))
        mixed = line in self.resolutions.get(relpath, {}).get("mixed", {}).get(attr, ())
        if mixed or not found:
            found.append(AttributeRead("unknown", ""))
        return found

    def _chain_read(self, head: str) -> AttributeRead:
        """`pkg.mod.Cls` + `.x`: a class's member; `pkg.mod` + `.x`: a module's; `torch.backends` + `.x` outside the
        project: a module's when every part is a lowercase name (else an object of unknown class)."""
        if head.partition(".")[0] in self.tops:
            target = self.resolver.resolve(head)
            if target.kind == "class":
                return AttributeRead("class", target.dotted)
            return AttributeRead("module", target.dotted) if target.kind == "module" else AttributeRead("unknown", target.dotted)
        if all(part.islower() or part == "_" for part in head.split(".")):
            return AttributeRead("module", head)
        return AttributeRead("unknown", head)

    def module_member(self, relpath: str, line: int, name: str) -> bool:
        """Every `.name` read on that line is a module's member and no receiver of unknown class reads it."""
        chains = self._chains_ending(relpath, name, line)
        if not chains or line in self.resolutions.get(relpath, {}).get("mixed", {}).get(name, ()):
            return False
        return all(self._chain_read(chain[: -len(name) - 1]).kind == "module" for chain in chains)

    def _chains_ending(self, relpath: str, tail: str, line: int) -> list[str]:
        """The attribute chains of a file's link facts ending in `.tail` that are loaded or called on `line`.

        The file's chains are grouped by their last name once; their lines are decoded only for the
        names asked about (most chains never are)."""
        by_tail = self._chain_tails.get(relpath)
        if by_tail is None:
            by_tail = self._chain_tails[relpath] = {}
            links = self.index.facts(relpath).get("links") or {}
            for chain, encoded in links.get("chains", {}).items():
                if "." in chain:
                    by_tail.setdefault(chain.rpartition(".")[2], []).append((chain, encoded))
        return [chain for chain, encoded in by_tail.get(tail, ())
                if any(at == line and via in ("load", "call") for at, via in decode_hits(encoded))]

    def _inverted_table(self, part: str, row: Callable[[str, list[Any]], tuple[str, Any]]) -> dict[str, list[Any]]:
        """One part of every file's resolution (`calls`, `tables`, ...) keyed anew: `row(path, item)` gives
        (key, record) for each item; built on the first question about that part."""
        found = self._inverted.get(part)
        if found is None:
            found = self._inverted[part] = {}
            for rel, resolved in self.resolutions.items():
                for item in resolved.get(part, ()):
                    key, record = row(rel, item)
                    found.setdefault(key, []).append(record)
        return found

    def calls_to(self, dotted: str) -> list[CallSite]:
        """Call sites of a resolved callee (`pkg.mod.func`, `pkg.mod.Cls.meth`)."""
        return self._inverted_table("calls", lambda rel, c: (c[0], CallSite(rel, c[1], c[0], tuple(c[2]), tuple(c[3].items())))).get(dotted, [])

    def table_uses(self, dotted: str) -> list[TableUse]:
        """Reads and writes of a table (`pkg.mod.TABLE`, `pkg.mod.Cls._table`), from every file."""
        return self._inverted_table("tables", lambda rel, t: (t[0], TableUse(rel, t[1], t[0], t[2], t[3]))).get(dotted, [])

    def flows(self, slot: str) -> list[Flow]:
        """Values flowing into a `*_cls` slot of that name, and its reads, across code and YAML."""
        return self._inverted_table("flows", lambda rel, f: (f[0], Flow(rel, f[2], f[0], f[1], f[3]))).get(slot, [])

    def patterns_over(self, module: str) -> list[tuple[str, int, str]]:
        """(path, line, shape) of qualnames built over `module`'s members or submodules (`f"{_PROC}.{name}"`)."""
        return self._inverted_table("patterns", lambda rel, p: (p[0], (rel, p[2], p[1]))).get(module, [])

    def substitutions(self) -> Iterator[tuple[str, str, str, int]]:
        """(replaced name, replacement, path, line): `upstream.X = OmniX`, `*.X` for a `sys.modules` sweep."""
        for rel, resolved in self.resolutions.items():
            for target, value, line in resolved.get("subst", ()):
                yield target, value, rel, line

    def writer_params(self, dotted: str) -> list[int]:
        """Positions of a function's parameters it only writes into (`param[k] = v`)."""
        module = dotted.rpartition(".")[0]
        rel = self.index.module_file(module)
        return list(self.resolutions.get(rel or "", {}).get("writers", {}).get(dotted, [])) if rel else []

    def name_only(self, name: str, resolved_targets: set[str]) -> list[Hit]:
        """Mentions of `name` that resolve to none of `resolved_targets` (and to nothing else on that line
        ending in `.name`): the weaker, name-only evidence."""
        found = []
        suffix = "." + name
        for hit in self.index.hits(name):
            targets = self.targets_on_line(hit.path, hit.line)
            if targets & resolved_targets:
                continue
            if any(t.endswith(suffix) for t in targets) and not hit.via.startswith(("str", "yaml", "doc", "json", "toml")):
                continue  # the name on that line resolves to another definition of the same name
            if hit.via == "attr" and self.module_member(hit.path, hit.line, name):
                continue  # `torch.distributed.barrier()`, `asyncio.gather(...)`: a module's function, not a method
            found.append(hit)
        return found


def _tables_of(index: ProjectIndex, state: _State) -> dict[str, ModuleTable]:
    """Every module's export table; a file whose stamp is unchanged keeps its known digest."""
    tables: dict[str, ModuleTable] = {}
    for rel, facts in index.python_files():
        entry = index.entries[rel]
        module = entry.get("module", "")
        links = facts.get("links")
        if module and links is not None:
            old = state.entries.get(rel)
            known = old.get("export") if old and old.get("stamp") == store.file_stamp(entry) else None
            tables[module] = ModuleTable.of(links, known)
    return tables


def build_graph(index: ProjectIndex) -> ReferenceGraph:
    """Resolve every file, reusing what is still valid (memory first, then the disk store)."""
    started = time.perf_counter()
    state: _State = index.graph_state.setdefault("state", _State())
    cache_file = index.cache_file()
    store_file = store.store_path(cache_file) if cache_file is not None else None
    if not state.loaded:
        state.entries = store.load(store_file) if store_file is not None else {}
        state.loaded = True
    tables = _tables_of(index, state)
    resolver = Resolver(tables)
    tops = frozenset(module.partition(".")[0] for module in tables)
    stats = GraphStats()
    entries: dict[str, dict[str, Any]] = {}
    for rel, entry in index.entries.items():
        if entry.get("problem"):
            continue
        stamp = store.file_stamp(entry)
        old = state.entries.get(rel)
        if old and old.get("stamp") == stamp and all(resolver.digest_of(m) == d for m, d in old.get("deps", {}).items()):
            entries[rel] = old
            stats.reused += 1
            continue
        resolved = resolve_file(entry.get("facts", {}), resolver, tops)
        table = tables.get(entry.get("module", ""))
        entries[rel] = {"stamp": stamp, "deps": resolved.pop("deps"), "resolved": resolved,
                        "export": table.digest if table is not None else None}
        stats.resolved += 1
    state.entries = entries
    # An editor run (a buffer replaces a file) keeps the disk store as it is: rewriting
    # the whole store for one buffer costs more than the run, and what the buffer made
    # stale is re-resolved from memory in a long-lived process anyway.
    if stats.resolved and store_file is not None and not index.overrides:
        stats.note = store.save(store_file, entries)
    stats.seconds = time.perf_counter() - started
    return ReferenceGraph(index, Resolver(tables), {rel: e["resolved"] for rel, e in entries.items()}, stats)


def graph_of(index: ProjectIndex) -> ReferenceGraph:
    """The reference graph of the index's current state (built on the first question of a run)."""
    return _GRAPH.of(index)


_GRAPH: Derived[ReferenceGraph] = Derived("graph.reference", build_graph)
