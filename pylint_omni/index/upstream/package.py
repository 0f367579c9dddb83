"""One upstream package read from source: per-file facts and the summary the evidence asks.

The package's `.py` files go through the same per-file scan as project files
(`scan.dispatch.scan_file`: references, definitions and link facts), then through the
same resolver (`graph.exports`), over the package's own modules. Three cache files
per distribution name and version (and scanner digest), built once and shared by
every project on the machine that builds on that version (`_cache_file`):
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
family's scanner, and kept for the process.
"""

from __future__ import annotations

import hashlib
import os
import time
from importlib import metadata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from pylint_omni.index.cache import SCANNER_FINGERPRINT, read_json, write_json
from pylint_omni.index.discovery import SourceFile
from pylint_omni.index.graph.exports import ModuleTable, Resolver
from pylint_omni.index.graph.resolve import resolve_file
from pylint_omni.index.graph.store import GRAPH_CODE_DIGEST
from pylint_omni.index.scan_pool import scan_entries, scan_entry
from pylint_omni.index.scanners import scanners_digest
from pylint_omni.index.upstream.locate import Located
from pylint_omni.index.upstream.names import NAMES_VERSION, defined_in, summarize_names

SUMMARY_VERSION = 4
MAX_FILE_BYTES = 3_000_000
OPS_PREFIX = "torch.ops."


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


def _module_of(rel: str) -> str:
    parts = rel[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _source_file(parent: Path, rel: str) -> SourceFile | None:
    try:
        stat = (parent / rel).stat()
    except OSError:
        return None
    return SourceFile(rel, "python", stat.st_size, stat.st_mtime_ns)


def _walk(folder: Path) -> Iterator[tuple[str, str, SourceFile]]:
    """(relpath under the parent folder, module, file) of every `.py` file of the package."""
    parent = folder.parent
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")) and (Path(current) / d / "__init__.py").is_file())
        for file in sorted(files):
            if not file.endswith(".py"):
                continue
            rel = (Path(current) / file).relative_to(parent).as_posix()
            found = _source_file(parent, rel)
            if found is not None:
                yield rel, _module_of(rel), found


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
    _summary: dict[str, Any] | None = None
    _files: list[list[Any]] | None = None
    _file_facts: dict[str, dict[str, Any]] = field(default_factory=dict)
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

    def _cache_file(self, part: str) -> Path | None:
        if self.cache_dir is None:
            return None
        key = f"{SUMMARY_VERSION}|{NAMES_VERSION}|{_stamp(self.located)}|{scanners_digest()}|{GRAPH_CODE_DIGEST}|{SCANNER_FINGERPRINT}"
        digest = hashlib.sha1(key.encode()).hexdigest()[:12]
        return self.cache_dir / f"upstream-{self.name}-{self.version}-{digest}-{part}.json"

    # -- building -------------------------------------------------------------------------
    def _build(self) -> None:
        """Every part at once, from one scan; the scan's facts are dropped when the parts are made."""
        started = time.perf_counter()
        walked = list(_walk(self.located.folder))
        root = str(self.located.folder.parent)
        jobs = [(root, f, module, MAX_FILE_BYTES, None) for _, module, f in walked]  # no family scanner: `facts_of`
        facts = {f.relpath: {"module": e["module"], "facts": e["facts"]}
                 for (_, _, f), e in zip(walked, scan_entries(jobs)) if not e.get("problem")}
        self._summary = summarize(self.name, facts)
        self._names = summarize_names(facts)
        self._files = [[rel, e["module"], e["facts"].get("imports", {})] for rel, e in facts.items()]
        del facts
        self.build_seconds = time.perf_counter() - started
        for part, data in (("summary", self._summary), ("names", self._names), ("files", {"files": self._files})):
            path = self._cache_file(part)
            if path is not None:
                _save(path, data)

    def _part(self, part: str) -> dict[str, Any]:
        """One cached part, or every part built now when it is missing."""
        path = self._cache_file(part)
        found = _load(path) if path is not None else None
        if found is None:
            self._build()
            found = {"summary": self._summary, "names": self._names, "files": {"files": self._files}}[part]
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
        """One file's facts, every family's scanner included (what a project file has), scanned on first ask;
        empty for a file that is not there or cannot be read."""
        if relpath not in self._file_facts:
            parent = self.located.folder.parent
            source = _source_file(parent, relpath) if relpath.endswith(".py") else None
            entry = scan_entry((str(parent), source, _module_of(relpath), MAX_FILE_BYTES, True)) if source else {"problem": ""}
            self._file_facts[relpath] = {} if "problem" in entry else entry["facts"]
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


def _base_of(resolver: Resolver, module: str, written: str) -> str:
    """A base class as its defining path: a bare name (a class of the same module) is looked up there first."""
    if "." not in written:
        local = resolver.resolve(f"{module}.{written}")
        if local.kind == "class":
            return local.dotted
    return resolver.canonical_class(written)


def summarize(name: str, files: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Classes, attribute uses by owner class, op uses and re-export aliases of one package."""
    links_by_module = {e["module"]: e["facts"].get("links") or {} for e in files.values()}
    resolver = Resolver({m: ModuleTable.of(links) for m, links in links_by_module.items()})
    tops = frozenset({name})
    classes: dict[str, list[Any]] = {}
    uses: list[tuple[str, str, str]] = []  # (target, "rel,line,via")
    attrs: dict[str, list[str]] = {}
    ops: dict[str, list[str]] = {}
    aliases: dict[str, str] = {}
    attr_names: set[str] = set()
    for rel, entry in files.items():
        facts, module = entry["facts"], entry["module"]
        attr_names.update(token for token, encoded in facts.get("refs", {}).items()
                          if ",attr" in encoded and _read_as_attribute(encoded))
        for data in facts.get("classes", []):
            bases = [_base_of(resolver, module, b) for b in data.get("bases", [])]
            classes[f"{module}.{data['qual']}"] = [rel, data["line"], bases, data.get("methods", [])]
        resolved = resolve_file(facts, resolver, tops)
        for target, encoded in resolved["refs"].items():
            for item in encoded.split("|"):
                line, _, via = item.partition(",")
                if via.startswith("attr-") or via in ("load", "call", "store"):
                    uses.append((target, f"{rel},{line},{via}"))
        for chain, encoded in (facts.get("links") or {}).get("chains", {}).items():
            if chain.startswith(OPS_PREFIX) and chain.count(".") == 3:
                line = encoded.partition(",")[0]
                ops.setdefault(chain[len(OPS_PREFIX):], []).append(f"{rel},{line},op")
        for local, binding in (links_by_module[module].get("bindings") or {}).items():
            kind, target = (binding + ["", ""])[:2] if local != "*" else ("", "")
            if kind in ("import", "alias") and target:
                found = resolver.resolve(target)
                if found.kind == "class":
                    aliases[f"{module}.{local}"] = found.dotted
    for target, where in uses:
        owner, _, attr = target.rpartition(".")
        if owner in classes or where.endswith(("attr-load", "attr-call", "attr-store")):
            attrs.setdefault(f"{owner}|{attr}", []).append(where)
    return {
        "version": SUMMARY_VERSION,
        "classes": classes,
        "attrs": {k: ";".join(v[:20]) for k, v in attrs.items()},
        "ops": {k: ";".join(v[:20]) for k, v in ops.items()},
        "aliases": aliases,
        "attr_names": sorted(attr_names),
    }


def _read_as_attribute(encoded: str) -> bool:
    """Whether one token's hits (`"line,via|..."`) include an attribute read or a `getattr` string."""
    return any(item.partition(",")[2] in ("attr", "getattr") for item in encoded.split("|"))


def _load(path: Path) -> dict[str, Any] | None:
    data = read_json(path)
    return data if isinstance(data, dict) else None


def _save(path: Path, data: dict[str, Any]) -> None:
    """Atomic write; an unwritable cache only costs a rebuild next time."""
    try:
        write_json(path, data, ".upstream-")
    except OSError:
        return
