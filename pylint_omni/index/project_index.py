"""The project index: every definition and every reference of a project, read once per run.

Files -> facts (scanners, cached per file) -> derived lookups (built lazily):
- `hits(token)`: every place a symbol, key or dotted path is mentioned, with `via`;
- `definitions`: classes and functions by dotted path and by name;
- `registries()`: every registry declared in the project.
Checkers ask the index; they never read files themselves. A long-lived process (an
editor's) calls `refresh()` at the start of each run, which re-reads only what changed.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from pylint_omni.index import cache
from pylint_omni.index.derived import DerivedStore, Table
from pylint_omni.index.facts import DefinitionFact, PythonFacts, RegistryFact
from pylint_omni.index.discovery import SourceFile, content_digest, declared_namespaces, discover, module_names, read_text
from pylint_omni.index.paths import Location, classify_path
from pylint_omni.index.scan.data_scan import InputProblem
from pylint_omni.index.scan.dispatch import scan_file
from pylint_omni.index.scan_pool import BackgroundScan, PendingScan, start_scan
from pylint_omni.index.scan.tokens import decode_hits, files_by_key
from pylint_omni.index.settings import OmniSettings

Judgement = Callable[["ProjectIndex"], None]  # a project judgement: computes one and writes its store (`index.background`)

FILE_TEXT: Table[str, str | None] = Table("index.file_text")  # the texts read last in this state, most recent last
# How many file texts stay in memory: the checks that look again at a file's lines ask a few files many times,
# while holding every text a run reads kept 15 MB on a 1,500-module project.
MAX_TEXTS_KEPT = 256


@dataclass(frozen=True, slots=True)  # slots: a big project's runs hold a few hundred thousand
class Hit:
    """One mention of a token: where, and how it was seen."""

    path: str
    line: int
    via: str


@dataclass(frozen=True, slots=True)
class Definition:
    """A class or function of the project, with the file that defines it."""

    path: str
    module: str
    kind: str  # "class" | "function"
    data: DefinitionFact

    @property
    def dotted(self) -> str:
        return f"{self.module}.{self.data['qual']}"


@dataclass
class BuildStats:
    """What one refresh did: files by kind, how many were read anew, and how long it took."""

    files_by_kind: dict[str, int] = field(default_factory=dict)
    scanned: int = 0
    reused: int = 0
    seconds: float = 0.0


@dataclass
class _PendingRefresh:
    """A refresh started but not finished: what was found on disk, and the scan of what changed."""

    started: float
    files: list[SourceFile]
    reused: dict[str, dict[str, Any]]
    stale: list[SourceFile]
    scan: PendingScan | BackgroundScan
    count_changed: bool
    waiting: list[Judgement]  # what the main process judges while a child scans and judges (`await_background`)


class ProjectIndex:
    """Facts of every file under one project root, kept fresh across runs."""

    def __init__(self, root: Path, settings: OmniSettings) -> None:
        self.root = root
        self.settings = settings
        self.entries: dict[str, dict[str, Any]] = {}
        self.problems: dict[str, str] = {}
        self.overrides: dict[str, str] = {}
        self.stats = BuildStats()
        self.cache_note: str | None = None
        self._locations: dict[str, Location] = {}
        self._hits: dict[str, list[Hit]] | None = None
        self._postings: dict[str, list[str]] = {}
        self._defs: dict[str, list[Definition]] | None = None
        self._by_dotted: dict[str, Definition] | None = None
        self._modules: dict[str, str] | None = None
        self._tops: frozenset[str] = frozenset()  # first segments of `_modules`, built with them
        self.derived = DerivedStore()  # facts derived from this state (`index.derived`: declared, typed)
        self.graph_state: dict[str, Any] = {}  # what the reference graph keeps between runs (`index.graph`)
        self._pending: _PendingRefresh | None = None
        self._beside: BackgroundScan | None = None  # a cold scan's child still judging (`index.background`)
        self._waiting: list[Judgement] = []  # judged here before waiting for that child
        self._discovery_problems: dict[str, str] = {}
        self._relpath_of: dict[str, str | None] = {}

    # -- building ----------------------------------------------------------------------
    def cache_file(self) -> Path | None:
        """The on-disk cache of this index (None when caching is off); derived caches sit beside it."""
        return self._cache_path()

    def _cache_path(self) -> Path | None:
        if not self.settings.cache_enabled:
            return None
        folder = self.settings.cache_dir or cache.default_cache_dir()
        return cache.cache_file(folder, self.root, self.settings.cache_key())

    def derived_cache(self, name: str, key: str) -> Path | None:
        """Where a family may cache a result derived from this index (None: caching is off)."""
        if not self.settings.cache_enabled:
            return None
        return cache.derived_file(self.settings.cache_dir or cache.default_cache_dir(), self.root, name, key)

    def _exclude_globs(self) -> tuple[str, ...]:
        """The configured exclusions, plus the cache folder when it lies inside the project."""
        folder = self.settings.cache_dir or cache.default_cache_dir()
        try:
            inside = Path(os.path.abspath(folder)).relative_to(self.root).as_posix()
        except ValueError:
            return self.settings.exclude_globs
        return (*self.settings.exclude_globs, f"{inside}/**")

    def start_refresh(self, judgements: list[Judgement] | None = None, waiting: list[Judgement] | None = None) -> None:
        """Find what changed and start reading it (in a process pool when there is much); `refresh` finishes.

        Started before pylint builds its own trees, a cold scan runs beside that build, and
        so do `judgements` (their stores written for this index) when caching is on; the
        main process then computes `waiting` while it waits for them.
        Once started, starting again does nothing until `refresh` has collected it.
        """
        if self._pending is not None:
            return
        if self._beside is not None:
            self._beside.cancel()  # a run that never asked for them
        started = time.perf_counter()
        self._discovery_problems = {}
        files = list(discover(self.root, self._exclude_globs(), self._discovery_problems, self.settings.respect_gitignore))
        modules = module_names(files, declared_namespaces(self.root, files))
        cache_path = self._cache_path()
        previous = self.entries or (cache.load_entries(cache_path) if cache_path else {})
        reused: dict[str, dict[str, Any]] = {}
        stale: list[SourceFile] = []
        for f in files:
            old = previous.get(f.relpath)
            if old and old.get("size") == f.size and old.get("mtime") == f.mtime_ns and old.get("module") == modules.get(f.relpath, ""):
                reused[f.relpath] = old
            else:
                stale.append(f)
        jobs = [(str(self.root), f, modules.get(f.relpath, ""), self.settings.max_file_bytes,
                 self.location(f.relpath) is not Location.VALIDATION) for f in stale]  # a test: consumer facts only
        pending = self._pending = _PendingRefresh(started, files, reused, stale, PendingScan([]), len(previous) != len(files),
                                                  list(waiting or ()))

        def judge_beside(entries: list[dict[str, Any]], kept: Callable[[], None]) -> None:  # in the child
            self._adopt(pending, entries, save=True)  # this index, saved here: the main process then need not
            kept()
            for judge in judgements or ():
                judge(self)

        pending.scan = start_scan(jobs, judge_beside if judgements and cache_path is not None else None)

    def refresh(self) -> BuildStats:
        """Bring every file's facts up to date; read only files whose stat changed."""
        if self._pending is None:
            self.start_refresh()
        pending, self._pending = self._pending, None
        assert pending is not None
        scanned = pending.scan.entries()
        child_saves = False
        if isinstance(pending.scan, BackgroundScan):
            self._beside, self._waiting = pending.scan, pending.waiting
            child_saves = pending.scan.handed_over
        stats = self._adopt(pending, scanned, save=not child_saves)
        cache_path = self._cache_path()
        if child_saves and cache_path is not None:
            # The child writes the cache after the hand-over (off this process's path, and without the encoder's
            # garbage at this process's peak); a folder it cannot write is said here all the same.
            self.cache_note = cache.unwritable(cache_path)
        return stats

    def _adopt(self, pending: _PendingRefresh, scanned: list[dict[str, Any]], save: bool) -> BuildStats:
        problems, self._discovery_problems = self._discovery_problems, {}
        entries = dict(pending.reused)
        stats = BuildStats(reused=len(entries), scanned=len(pending.stale))
        for f in pending.files:
            stats.files_by_kind[f.kind] = stats.files_by_kind.get(f.kind, 0) + 1
        for f, entry in zip(pending.stale, scanned):
            entries[f.relpath] = entry
        entries = {f.relpath: entries[f.relpath] for f in pending.files}
        for rel, entry in entries.items():
            note = entry.get("problem") or entry["facts"].get("warning")
            if note:
                problems[rel] = note
        cache_path = self._cache_path()
        if save and (pending.count_changed or pending.stale) and cache_path is not None:
            self.cache_note = cache.save_entries(cache_path, self.root, entries)
        self.entries = entries
        self.problems = problems
        self._locations = {
            rel: classify_path(rel, self.settings.validation_globs, self.settings.production_globs) for rel in entries
        }
        for rel, text in self.overrides.items():
            self._apply_override(rel, text)
        self._invalidate()
        stats.seconds = time.perf_counter() - pending.started
        self.stats = stats
        return stats

    def await_background(self) -> None:
        """Wait for the judgements the cold scan's child runs: their stores are then written (`index.background`).
        The judgements registered for the main process are computed first, while the child still judges."""
        waiting, self._waiting = self._waiting, []
        self.judge(waiting)
        if self._beside is not None:
            self._beside.settle()
            self._beside = None

    def judge(self, judgements: list[Judgement]) -> None:
        """Run each judgement ahead of the checkers; one that fails is judged again where a checker asks, which says why."""
        for judge in judgements:
            try:
                judge(self)
            except Exception:  # pylint: disable=broad-exception-caught
                pass

    def override(self, relpath: str, text: str) -> None:
        """Use `text` for `relpath` (an editor buffer on stdin) instead of the file on disk."""
        if self.overrides.get(relpath) == text:
            return
        self.overrides[relpath] = text
        self._apply_override(relpath, text)
        self._invalidate()

    def _apply_override(self, relpath: str, text: str) -> None:
        old = self.entries.get(relpath, {})
        module = old.get("module") or relpath.rsplit(".", 1)[0].replace("/", ".")
        entry: dict[str, Any] = {"size": -1, "mtime": -1, "module": module, "kind": "python", "digest": content_digest(text)}
        try:
            entry["facts"] = scan_file("python", text, relpath, module, self.location(relpath) is not Location.VALIDATION)
        except InputProblem as exc:
            entry["problem"] = str(exc)
            entry["facts"] = {"kind": "python", "refs": {}}
        self.entries[relpath] = entry
        self._locations[relpath] = classify_path(relpath, self.settings.validation_globs, self.settings.production_globs)

    def _invalidate(self) -> None:
        self.derived = DerivedStore()
        self._hits = None
        self._defs = None
        self._by_dotted = None
        self._modules = None

    # -- queries -----------------------------------------------------------------------
    def relpath(self, path: str | os.PathLike[str]) -> str | None:
        """Root-relative posix path of a file, or None when it lies outside the root (kept per absolute path:
        every checker asks it of every module)."""
        absolute = os.path.abspath(path)
        if absolute not in self._relpath_of:
            try:
                self._relpath_of[absolute] = Path(absolute).relative_to(self.root).as_posix()
            except ValueError:
                self._relpath_of[absolute] = None
        return self._relpath_of[absolute]

    def text(self, relpath: str) -> str | None:
        """A project file's text: the editor buffer that replaces it, else the file on disk (the last
        `MAX_TEXTS_KEPT` read are kept per index state); None when it cannot be read. For checks that look again at a file's own lines."""
        memo = FILE_TEXT.values(self)
        if relpath in memo:
            text = memo[relpath] = memo.pop(relpath)  # the most recently used go last
            return text
        text = self.overrides.get(relpath)
        if text is None:
            try:
                text = (self.root / relpath).read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = None
        if len(memo) >= MAX_TEXTS_KEPT:
            del memo[next(iter(memo))]  # the least recently used
        memo[relpath] = text
        return text

    def location(self, relpath: str) -> Location:
        return self._locations.get(relpath) or classify_path(
            relpath, self.settings.validation_globs, self.settings.production_globs
        )

    def facts(self, relpath: str) -> PythonFacts:
        return self.entries.get(relpath, {}).get("facts", {})

    def extra(self, relpath: str, key: str) -> Any:
        """The fact a family's registered scanner (`scanners`) recorded for one file, or None."""
        return self.facts(relpath).get("extra", {}).get(key)

    def source(self, relpath: str) -> str | None:
        """The text of one indexed file (the editor's buffer when it overrides the file), None when unreadable.

        For checkers that must compare another file's code with the one being checked
        (a copy's drift): they ask the index, which reads safely and within the size cap.
        """
        if relpath in self.overrides:
            return self.overrides[relpath]
        if relpath not in self.entries:
            return None
        try:
            return read_text(self.root / relpath, self.settings.max_file_bytes)
        except InputProblem:
            return None

    def python_files(self) -> Iterator[tuple[str, PythonFacts]]:
        for rel, entry in self.entries.items():
            if entry.get("kind") == "python" and not entry.get("problem"):
                yield rel, entry["facts"]

    def hits(self, token: str) -> list[Hit]:
        """Every mention of `token` in the project (symbols, keys, dotted paths).

        The token -> files table is built on the first question of a run (one pass over
        the files' token dicts); the occurrences of a token are expanded and remembered
        when it is first asked for.
        """
        if self._hits is None:
            self._hits = {}
            self._postings = files_by_key((rel, entry["facts"].get("refs", ())) for rel, entry in self.entries.items())
        found = self._hits.get(token)
        if found is None:
            found = []
            for rel in self._postings.get(token, ()):
                found.extend(Hit(rel, line, via) for line, via in decode_hits(self.entries[rel]["facts"]["refs"][token]))
            self._hits[token] = found
        return found

    def occurrences(self, relpath: str, token: str) -> list[tuple[int, str]]:
        """(line, via) of each mention of `token` in one file."""
        encoded = self.facts(relpath).get("refs", {}).get(token)
        return decode_hits(encoded) if encoded else []

    def file_occurrences(self, relpath: str) -> Iterator[tuple[str, list[tuple[int, str]]]]:
        """Every token of one file with its (line, via) mentions."""
        for token, encoded in self.facts(relpath).get("refs", {}).items():
            yield token, decode_hits(encoded)

    def _build_definitions(self) -> None:
        by_name: dict[str, list[Definition]] = {}
        by_dotted: dict[str, Definition] = {}
        modules: dict[str, str] = {}
        for rel, facts in self.python_files():
            module = self.entries[rel].get("module", "")
            modules[module] = rel
            for kind, key in (("class", "classes"), ("function", "functions")):
                for data in facts.get(key, []):
                    definition = Definition(rel, module, kind, data)
                    by_name.setdefault(data["name"], []).append(definition)
                    by_dotted.setdefault(definition.dotted, definition)
        self._defs, self._by_dotted, self._modules = by_name, by_dotted, modules
        self._tops = frozenset(module.partition(".")[0] for module in modules)

    def definitions_named(self, name: str) -> list[Definition]:
        if self._defs is None:
            self._build_definitions()
        return self._defs.get(name, [])  # type: ignore[union-attr]

    def module_file(self, module: str) -> str | None:
        if self._modules is None:
            self._build_definitions()
        return self._modules.get(module)  # type: ignore[union-attr]

    def top_packages(self) -> frozenset[str]:
        """The first segment of every module of the project (`chatlearn`): an import under none is a library's."""
        if self._modules is None:
            self._build_definitions()
        return self._tops

    def resolve_target(self, target: str, suffix: bool = False) -> Definition | None:
        """The project definition a registry target names (`suffix`: a tail of the path)."""
        if self._by_dotted is None:
            self._build_definitions()
        assert self._by_dotted is not None
        if not suffix:
            found = self._by_dotted.get(target)
            if found is None and self.module_file(target.rpartition(".")[0]) is None:
                # `pkg.Name` re-exported by a package __init__: match by name within pkg.
                head, _, name = target.rpartition(".")
                candidates = [d for d in self.definitions_named(name) if d.module.startswith(head + ".")]
                found = candidates[0] if len(candidates) == 1 else None
            return found
        found = self._by_dotted.get(target)
        if found is not None:
            return found
        name = target.rpartition(".")[2]
        module_tail = target.rpartition(".")[0]
        for definition in self.definitions_named(name):
            if definition.module == module_tail or definition.module.endswith("." + module_tail):
                return definition
        return None

    def registries(self) -> Iterator[tuple[str, RegistryFact]]:
        for rel, facts in self.python_files():
            for registry in facts.get("registries", []):
                yield rel, registry

    def templated(self) -> list[str]:
        """YAML files that are templates (Helm, Jinja), read as text rather than as YAML."""
        return sorted(rel for rel, entry in self.entries.items() if entry.get("facts", {}).get("templated"))

    def counts(self) -> dict[str, Any]:
        """Summary for the CLI and the report header."""
        symbols = sum(len(f.get("classes", [])) + len(f.get("functions", [])) for _, f in self.python_files())
        references = sum(len(e.get("facts", {}).get("refs", {})) for e in self.entries.values())
        return {
            "root": str(self.root),
            "files_by_kind": dict(sorted(self.stats.files_by_kind.items())),
            "definitions": symbols,
            "registries": sum(1 for _ in self.registries()),
            "distinct_tokens_per_file_summed": references,
            "problems": dict(sorted(self.problems.items())),
            "templated": self.templated(),
        }
