"""Building an upstream package's cached parts from one scan that is never held whole.

The summary needs every module's export table before it resolves any file (a class
of one module subclasses one re-exported by another), and the `names` part reads the
files in path order, not in scan order. Holding every file's facts for both (all of
transformers: hundreds of MB) made the build the peak of a cold run. So each file's
facts, as they come out of the scan (`scan_pool.stream_entries`), are reduced to what
the two parts read and spilled to a temporary file; the process keeps only the export
tables, the imports and where each file's facts start in the spill; the two parts then
read the facts back one file at a time, each in its own order.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import IO, Any, Iterator

from pylint_omni.index.discovery import SourceFile
from pylint_omni.index.graph.exports import ModuleTable, Resolver
from pylint_omni.index.graph.resolve import resolve_file
from pylint_omni.index.scan_pool import PARALLEL_MIN_FILES, stream_entries
from pylint_omni.index.upstream.names import summarize_names

SUMMARY_VERSION = 5
MAX_FILE_BYTES = 3_000_000
OPS_PREFIX = "torch.ops."
SPILLED = ("refs", "classes", "functions", "links")  # the facts the summary and `names` read


def module_of(rel: str) -> str:
    """`vllm/v1/core/__init__.py` -> `vllm.v1.core`."""
    parts = rel[:-3].split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_file(parent: Path, rel: str) -> SourceFile | None:
    try:
        stat = (parent / rel).stat()
    except OSError:
        return None
    return SourceFile(rel, "python", stat.st_size, stat.st_mtime_ns)


def walk(folder: Path) -> Iterator[tuple[str, str, SourceFile]]:
    """(relpath under the parent folder, module, file) of every `.py` file of the package."""
    parent = folder.parent
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")) and (Path(current) / d / "__init__.py").is_file())
        for file in sorted(files):
            if not file.endswith(".py"):
                continue
            rel = (Path(current) / file).relative_to(parent).as_posix()
            found = source_file(parent, rel)
            if found is not None:
                yield rel, module_of(rel), found


class _Spill:
    """Each file's reduced facts in a temporary file, read back one file at a time."""

    def __init__(self, handle: IO[bytes]) -> None:
        self.handle = handle
        self.where: dict[str, tuple[int, int, str]] = {}  # relpath -> (offset, length, module), in scan order

    def add(self, rel: str, module: str, facts: dict[str, Any]) -> None:
        data = json.dumps({key: facts[key] for key in SPILLED if key in facts}, separators=(",", ":")).encode()
        self.where[rel] = (self.handle.tell(), len(data), module)
        self.handle.write(data)

    def read(self, rels: list[str]) -> Iterator[tuple[str, str, dict[str, Any]]]:
        for rel in rels:
            offset, length, module = self.where[rel]
            self.handle.seek(offset)
            yield rel, module, json.loads(self.handle.read(length))
        self.handle.seek(0, os.SEEK_END)


def build_parts(name: str, folder: Path, seeds: frozenset[str] | None = None) -> tuple[dict[str, Any], dict[str, Any], list[list[Any]]]:
    """(summary, names, files) of the package in `folder`: one scan without any family's scanner (`facts_of` makes
    those per file when asked); `files` is [relpath, module, imports] per file read, in scan order.

    `seeds`: the package's dotted names the project imports; then only the modules that importing them runs are read
    (`_Reach`): a project that imports a dozen of transformers' 2,200 modules runs some 300, and code in the
    others never runs in its process. None: every module."""
    walked = list(walk(folder))
    tables: dict[str, ModuleTable] = {}
    files: list[list[Any]] = []
    with tempfile.TemporaryFile(prefix="pylint-omni-upstream-") as handle:
        spill = _Spill(handle)

        def scan(chosen: list[tuple[str, str, SourceFile]]) -> None:
            jobs = [(str(folder.parent), f, module, MAX_FILE_BYTES, None) for _, module, f in chosen]
            for (rel, module, _), entry in zip(chosen, stream_entries(jobs)):
                if entry.get("problem"):
                    continue
                facts = entry["facts"]
                tables[module] = ModuleTable.of(facts.get("links") or {})
                files.append([rel, module, facts.get("imports", {})])
                spill.add(rel, module, facts)

        reached = None
        if seeds is None:
            scan(walked)
        else:
            reach = _Reach(seeds, walked, tables, folder)
            while chosen := reach.unread({module: imports for _, module, imports in files}):
                scan(chosen)
            reached = reach.modules({module: imports for _, module, imports in files})
            files = [row for row in files if row[1] in reached]  # what was read beyond the reach does not count
        summary = summarize(name, tables, spill.read(list(spill.where)), reached)
        names = summarize_names(spill.read(sorted(rel for rel, (_, _, module) in spill.where.items() if reached is None or module in reached)))
    return summary, names, files


TOP_LEVEL_NAME = re.compile(r"^(?:class|def|async def)\s+(\w+)|^(\w+)\s*(?::[^=\n]*)?=", re.MULTILINE)


class _Reach:
    """The modules of a package that importing the project's `seeds` runs, read in rounds.

    A module is reached when it defines a seed or a name a reached module imports, or is passed through on the way
    (a re-export, a lazy export: `from transformers import LlamaModel`), or is a parent package of one (it runs
    first); an import inside a function counts (it runs when the function does). Each round resolves what the
    modules read so far say, then reads the modules that named and lacked. A name a read module does not bind
    (one it star-imports) is looked for in the modules below it whose text defines it at the top level: each of
    transformers' model packages is star-imported under `if TYPE_CHECKING:`, and walking them in order would read
    all of them."""

    def __init__(self, seeds: frozenset[str], walked: list[tuple[str, str, SourceFile]], tables: dict[str, ModuleTable],
                 folder: Path) -> None:
        self.seeds = seeds
        self.walked = walked
        self.folder = folder
        self.existing = frozenset(module for _, module, _ in walked)
        self.resolver = Resolver(tables)
        self.read: set[str] = set()
        self._definers: dict[str, list[str]] | None = None

    def unread(self, imports: dict[str, dict[str, str]]) -> list[tuple[str, str, SourceFile]]:
        """The files of the modules to read next, given the imports of the modules read (none: the reach is complete)."""
        wanted = set(self.modules(imports, unread=True)) - self.read
        if len(self.existing) >= PARALLEL_MIN_FILES and 2 * len(self.read | wanted) > len(self.existing):
            wanted = set(self.existing) - self.read  # most of a big package: the rest in one pooled round costs less
        self.read |= wanted
        return [item for item in self.walked if item[1] in wanted]

    def modules(self, imports: dict[str, dict[str, str]], unread: bool = False) -> frozenset[str]:
        """The modules the seeds reach through the modules read so far (`imports`: module -> its imports); `unread`:
        with the existing modules named on the way that are not read yet."""
        found: set[str] = set()
        todo = list(self.seeds)
        while todo:
            dotted = todo.pop()
            target = self.resolver.resolve(dotted)
            named = [dotted, target.dotted, *target.hops, *target.alternatives]
            if unread and target.kind == "attribute":
                named += self._defining(target.dotted)
            for path in named:
                parts = path.split(".")
                for end in range(len(parts), 0, -1):
                    module = ".".join(parts[:end])
                    if module not in found and (module in self.resolver.tables or (unread and module in self.existing)):
                        found.add(module)
                        todo += imports.get(module, {}).values()
        return frozenset(found)

    def _defining(self, dotted: str) -> list[str]:
        """The modules under the one `dotted` starts in whose text binds its next name at the top level."""
        if self._definers is None:
            self._definers = {}
            for rel, module, _ in self.walked:
                try:
                    text = (self.folder.parent / rel).read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                for match in TOP_LEVEL_NAME.finditer(text):
                    self._definers.setdefault(match.group(1) or match.group(2), []).append(module)
        parts = dotted.split(".")
        size = self.resolver.module_prefix(parts)
        if size == 0 or size == len(parts):
            return []
        under, name = ".".join(parts[:size]), parts[size]
        return [f"{m}.{name}" for m in self._definers.get(name, ()) if m.startswith(under + ".")]


def _base_of(resolver: Resolver, module: str, written: str) -> str:
    """A base class as its defining path: a bare name (a class of the same module) is looked up there first."""
    if "." not in written:
        local = resolver.resolve(f"{module}.{written}")
        if local.kind == "class":
            return local.dotted
    return resolver.canonical_class(written)


def summarize(name: str, tables: dict[str, ModuleTable], files: Iterator[tuple[str, str, dict[str, Any]]],
              reached: frozenset[str] | None = None) -> dict[str, Any]:
    """Classes, attribute uses by owner class, op uses and re-export aliases of one package, from every module's
    export table and each file's (relpath, module, facts) in scan order; uses only from the `reached` modules
    (None: every one)."""
    resolver = Resolver(tables)
    tops = frozenset({name})
    classes: dict[str, list[Any]] = {}
    uses: list[tuple[str, str]] = []  # (target, "rel,line,via")
    attrs: dict[str, list[str]] = {}
    ops: dict[str, list[str]] = {}
    aliases: dict[str, str] = {}
    attr_names: set[str] = set()
    for rel, module, facts in files:
        if reached is not None and module not in reached:
            continue
        attr_names.update(token for token, encoded in facts.get("refs", {}).items()
                          if ",attr" in encoded and _read_as_attribute(encoded))
        for data in facts.get("classes", []):
            bases = [_base_of(resolver, module, b) for b in data.get("bases", [])]
            classes[f"{module}.{data['qual']}"] = [rel, data["line"], bases, data.get("methods", [])]
        for local, binding in tables[module].bindings.items():  # the module's last file, as the resolver reads it
            kind, target = (binding + ["", ""])[:2]
            if kind in ("import", "alias") and target:
                found = resolver.resolve(target)
                if found.kind == "class":
                    aliases[f"{module}.{local}"] = found.dotted
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
