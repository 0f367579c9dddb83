"""One upstream package read from source: per-file facts and the summary the evidence asks.

The package's `.py` files that the project's imports run (`seeds`, `upstream.build`) go
through the same per-file scan as project files (`scan.dispatch.scan_file`: references,
definitions and link facts), then through the same resolver (`graph.exports`), over the
package's own modules. Three cache files per distribution name, version, scanner digest
and the project's imports of the package, built once and shared by every project on the
machine that builds on that version and imports the same names (`_cache_file`):
- `summary`: classes (bases resolved; a bare base name is first looked up in its
  class's own module), methods), attribute reads, writes and calls by
  owner class (`self.x` in a class, `p.x` on a parameter annotated with the class,
  `Cls.x`, a local bound to `Cls(...)`), `torch.ops.NS.NAME` uses, and the names
  read as attributes anywhere (`obj.name`, `getattr(obj, "name")`) whatever the
  object: a duck-typed reader of a name on objects it receives;
- `names` (`upstream.names`: names read, names accepted, names each module binds);
- `files`: each file's relpath, module and imports, in scan order.
The per-file facts are not kept: they would hold every file of vLLM, diffusers and
transformers in memory (hundreds of MB) while the project reaches a few hundred of
them. A family that compares project code with upstream code (the copies' fingerprints)
asks `facts_of(relpath)` for the files it reaches: that file is scanned then, with every
family's scanner, kept for the process and cached in a file of its own.
A package big enough for a scan pool is built in a forked process that writes the cache
(`_built_aside`): the build's working data never stays in the process that lints.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Iterator

from pylint_omni.index.cache import SCANNER_FINGERPRINT, read_json, write_json
from pylint_omni.index.graph.store import GRAPH_CODE_DIGEST
from pylint_omni.index.scan_pool import become_side_process, scan_entry, worth_other_processes
from pylint_omni.index.scanners import scanners_digest
from pylint_omni.index.upstream.build import MAX_FILE_BYTES, SUMMARY_VERSION, build_parts, module_of, source_file, walk
from pylint_omni.index.upstream.locate import Located
from pylint_omni.index.upstream.names import NAMES_VERSION, defined_in

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


BUILT_PARTS = ("summary", "names", "files")  # built together by one read (`_build`)


@dataclass(frozen=True)
class UpstreamRef:
    """A place in upstream source: package, file (relative to the package's parent), line and how."""

    package: str
    version: str
    path: str
    line: int
    via: str

    def describe(self) -> str:
        return f"{self.package} {self.version} {self.path}" + (f":{self.line}" if self.line else "")


@dataclass
class UpstreamClass:
    """An upstream class: where it is defined, its resolved bases and its methods."""

    dotted: str
    path: str
    line: int
    bases: list[str]
    methods: list[str]


def _stamp(located: Located) -> str:
    """What tells two copies of one version apart in the cache key: the wheel's RECORD (its files' hashes, the same
    for every install of that wheel: a second project, in another environment, reuses the cache), else the folder."""
    try:
        if located.metadata is not None:
            record: str | None = (located.metadata / "RECORD").read_text(encoding="utf-8", errors="replace")
        else:
            record = metadata.distribution(located.name).read_text("RECORD") if located.source == "installed" else None
    except (OSError, metadata.PackageNotFoundError):
        record = None
    return "record-" + hashlib.sha1(record.encode()).hexdigest()[:12] if record else str(located.folder)


@dataclass
class UpstreamPackage:
    """An upstream package: summary loaded on first question, facts on demand."""

    located: Located
    cache_dir: Path | None
    seeds: frozenset[str] | None = None  # the package's names the project imports (`upstream.build.reach`); None: all
    _summary: dict[str, Any] | None = None
    _files: list[list[Any]] | None = None
    _file_facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    _digest: str | None = None
    _classes: dict[str, UpstreamClass] | None = None
    _by_name: dict[str, list[str]] | None = None
    _names: dict[str, Any] | None = None
    _attr_names: frozenset[str] | None = None
    build_seconds: float | None = field(default=None)

    @property
    def name(self) -> str:
        return self.located.name

    @property
    def version(self) -> str:
        return self.located.version

    def _cache_file(self, part: str, suffix: str = ".json") -> Path | None:
        if self.cache_dir is None:
            return None
        if self._digest is None:
            key = f"{SUMMARY_VERSION}|{NAMES_VERSION}|{_stamp(self.located)}|{scanners_digest()}|{GRAPH_CODE_DIGEST}|{SCANNER_FINGERPRINT}"
            self._digest = hashlib.sha1(key.encode()).hexdigest()[:12]
        if part in BUILT_PARTS and self.seeds is not None:  # read from the modules the project's imports reach
            part += "-" + hashlib.sha1("|".join(sorted(self.seeds)).encode()).hexdigest()[:10]
        return self.cache_dir / f"upstream-{self.name}-{self.version}-{self._digest}-{part}{suffix}"

    # -- building -------------------------------------------------------------------------
    def _build(self) -> None:
        """Every part at once, from one scan (`upstream.build`), kept and cached."""
        self._summary, self._names, self._files = build_parts(self.name, self.located.folder, self.seeds)
        for part, data in zip(BUILT_PARTS, (self._summary, self._names, {"files": self._files})):
            path = self._cache_file(part)
            if path is not None:
                _save(path, data)

    def _built_aside(self) -> bool:
        """Whether a forked process built and cached every part: done for a package big enough for a scan pool when
        there is a cache to hand the parts back through. What a build holds (every module's export table, the
        spill's offsets, the pool's results) then ends with that process: built here, it stayed in this one for
        the rest of the run (ColossalAI's cold run with transformers and diffusers: 67 MB more kept, 40 MB more peak)."""
        if self.cache_dir is None or not worth_other_processes(sum(1 for _ in walk(self.located.folder))):
            return False
        try:
            builder = multiprocessing.get_context("fork").Process(target=_build_aside, args=(self,), name="pylint-omni-upstream")
            builder.start()
        except (OSError, ValueError, RuntimeError):
            return False
        builder.join()
        return builder.exitcode == 0

    def _part(self, part: str) -> dict[str, Any]:
        """One cached part, or every part built now when it is missing (in a forked process: `_built_aside`).
        Another process building the same version (the cold scan's child, a `-j` worker, another project's run)
        is waited for, then read: never built twice."""
        path = self._cache_file(part)
        found = _load(path) if path is not None else None
        if found is None:
            with _exclusive(self._cache_file("build", ".lock")):
                found = _load(path) if path is not None else None
                if found is None:
                    started = time.perf_counter()
                    found = _load(path) if self._built_aside() and path is not None else None
                    if found is None:  # no cache, a small package, or the forked build failed: built here
                        self._build()
                        found = {"summary": self._summary, "names": self._names, "files": {"files": self._files}}[part]
                    self.build_seconds = time.perf_counter() - started
        assert found is not None
        return found

    def summary(self) -> dict[str, Any]:
        if self._summary is None:
            self._summary = self._part("summary")
        return self._summary

    def names(self) -> dict[str, Any]:
        """The `names` part (`upstream.names`)."""
        if self._names is None:
            self._names = self._part("names")
        return self._names

    def files(self) -> list[list[Any]]:
        """[relpath, module, its imports (local name -> dotted)] of every file scanned, in scan order."""
        if self._files is None:
            self._files = self._part("files")["files"]
        return self._files

    def facts_of(self, relpath: str) -> dict[str, Any]:
        """One file's facts, every family's scanner included (what a project file has): scanned on the first ask of
        any run on this version, then read from its own cache file; empty for a file that is not there or cannot be
        read."""
        if relpath not in self._file_facts:
            path = self._cache_file("file-" + hashlib.sha1(relpath.encode()).hexdigest()[:12])
            found = _load(path) if path is not None else None
            if found is None:
                parent = self.located.folder.parent
                source = source_file(parent, relpath) if relpath.endswith(".py") else None
                entry = scan_entry((str(parent), source, module_of(relpath), MAX_FILE_BYTES, True)) if source else {"problem": ""}
                found = {} if "problem" in entry else entry["facts"]
                if path is not None:
                    _save(path, found)
            self._file_facts[relpath] = found
        return self._file_facts[relpath]

    # -- questions --------------------------------------------------------------------------
    def reads(self, name: str) -> UpstreamRef | None:
        """The first place upstream code reads `.name` (or a literal `getattr` of it) off any object."""
        return self._ref(self.names()["reads"].get(name))

    def accepts(self, name: str) -> UpstreamRef | None:
        """The first parameter or class-body field of that name (a keyword a caller may hand in)."""
        return self._ref(self.names()["accepts"].get(name))

    def defines(self, module: str, name: str) -> UpstreamRef | None:
        """Where `module` binds `name` at import time (definition, assignment, import, submodule), or None."""
        found = defined_in(self.names()["modules"], module, name)
        return UpstreamRef(self.name, self.version, found[0], found[1], "defines") if found else None

    def classes(self) -> dict[str, UpstreamClass]:
        if self._classes is None:
            self._classes = {d: UpstreamClass(d, *row) for d, row in self.summary()["classes"].items()}
            by_name: dict[str, list[str]] = {}
            for dotted in self._classes:
                by_name.setdefault(dotted.rpartition(".")[2], []).append(dotted)
            self._by_name = by_name
        return self._classes

    def classes_named(self, name: str) -> list[UpstreamClass]:
        classes = self.classes()
        assert self._by_name is not None
        return [classes[d] for d in self._by_name.get(name, [])]

    def canonical(self, dotted: str) -> str:
        """A dotted path through the package's re-exports (`vllm.Request` -> its defining module)."""
        return self.summary()["aliases"].get(dotted, dotted)

    def ancestors(self, dotted: str) -> list[str]:
        """Upstream classes `dotted` descends from (itself first)."""
        classes = self.classes()
        seen: list[str] = []
        stack = [self.canonical(dotted)]
        while stack:
            current = stack.pop()
            if current in seen or current not in classes:
                continue
            seen.append(current)
            stack.extend(self.canonical(b) for b in classes[current].bases)
        return seen

    def attribute_uses(self, owner: str, attr: str) -> list[UpstreamRef]:
        """Reads, writes and calls of `attr` on objects of class `owner` (exact class)."""
        encoded = self.summary()["attrs"].get(f"{owner}|{attr}")
        return self._refs(encoded)

    def op_uses(self, namespace: str, name: str) -> list[UpstreamRef]:
        return self._refs(self.summary()["ops"].get(f"{namespace}.{name}"))

    def attribute_names(self) -> frozenset[str]:
        """Every name the package reads as an attribute of some object (`obj.name`, `getattr(obj, "name")`)."""
        if self._attr_names is None:
            self._attr_names = frozenset(self.summary().get("attr_names", []))
        return self._attr_names

    def op_uses_any(self, name: str) -> list[UpstreamRef]:
        """`torch.ops.NS.name` in any namespace."""
        return [ref for key, encoded in self.summary()["ops"].items() if key.rpartition(".")[2] == name for ref in self._refs(encoded)]

    def _ref(self, encoded: str | None) -> UpstreamRef | None:
        found = self._refs(encoded)
        return found[0] if found else None

    def _refs(self, encoded: str | None) -> list[UpstreamRef]:
        found = []
        for item in (encoded or "").split(";"):
            if item:
                path, line, via = item.split(",")
                found.append(UpstreamRef(self.name, self.version, path, int(line), via))
        return found


def _build_aside(package: UpstreamPackage) -> None:
    """The forked builder (`UpstreamPackage._built_aside`): quiet, and gone with the process that waits for it; at
    that process's priority, since it waits (the builder's scan pool still yields to it, as it did before)."""
    become_side_process(niceness=0)
    package._build()  # pylint: disable=protected-access  # the same object, in the forked copy of this process


@contextmanager
def _exclusive(lock: Path | None) -> Iterator[None]:
    """Hold an exclusive lock on `lock` (none without a cache folder, or where `fcntl` is missing: then two
    processes may both build, as before); the system releases it when its holder dies."""
    if lock is None or fcntl is None:
        yield
        return
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        handle = open(lock, "a+b")  # pylint: disable=consider-using-with  # closed below, after the unlock
    except OSError:
        yield
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing releases the lock


def _load(path: Path) -> dict[str, Any] | None:
    data = read_json(path)
    return data if isinstance(data, dict) else None


def _save(path: Path, data: dict[str, Any]) -> None:
    """Atomic write; an unwritable cache only costs a rebuild next time."""
    try:
        write_json(path, data, ".upstream-")
    except OSError:
        return
