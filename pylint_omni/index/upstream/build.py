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
import tempfile
from pathlib import Path
from typing import IO, Any, Iterator

from pylint_omni.index.discovery import SourceFile
from pylint_omni.index.graph.exports import ModuleTable, Resolver
from pylint_omni.index.graph.resolve import resolve_file
from pylint_omni.index.scan_pool import stream_entries
from pylint_omni.index.upstream.names import summarize_names

SUMMARY_VERSION = 4
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


def build_parts(name: str, folder: Path) -> tuple[dict[str, Any], dict[str, Any], list[list[Any]]]:
    """(summary, names, files) of the package in `folder`: one scan without any family's scanner (`facts_of` makes
    those per file when asked); `files` is [relpath, module, imports] per file read, in scan order."""
    walked = list(walk(folder))
    jobs = [(str(folder.parent), f, module, MAX_FILE_BYTES, None) for _, module, f in walked]
    tables: dict[str, ModuleTable] = {}
    files: list[list[Any]] = []
    with tempfile.TemporaryFile(prefix="pylint-omni-upstream-") as handle:
        spill = _Spill(handle)
        for (rel, module, _), entry in zip(walked, stream_entries(jobs)):
            if entry.get("problem"):
                continue
            facts = entry["facts"]
            tables[module] = ModuleTable.of(facts.get("links") or {})
            files.append([rel, module, facts.get("imports", {})])
            spill.add(rel, module, facts)
        summary = summarize(name, tables, spill.read(list(spill.where)))
        names = summarize_names(spill.read(sorted(spill.where)))
    return summary, names, files


def _base_of(resolver: Resolver, module: str, written: str) -> str:
    """A base class as its defining path: a bare name (a class of the same module) is looked up there first."""
    if "." not in written:
        local = resolver.resolve(f"{module}.{written}")
        if local.kind == "class":
            return local.dotted
    return resolver.canonical_class(written)


def summarize(name: str, tables: dict[str, ModuleTable], files: Iterator[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """Classes, attribute uses by owner class, op uses and re-export aliases of one package, from every module's
    export table and each file's (relpath, module, facts) in scan order."""
    resolver = Resolver(tables)
    tops = frozenset({name})
    classes: dict[str, list[Any]] = {}
    uses: list[tuple[str, str]] = []  # (target, "rel,line,via")
    attrs: dict[str, list[str]] = {}
    ops: dict[str, list[str]] = {}
    aliases: dict[str, str] = {}
    attr_names: set[str] = set()
    for rel, module, facts in files:
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
        for local, binding in tables[module].bindings.items():  # the module's last file, as the resolver reads it
            kind, target = (binding + ["", ""])[:2]
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
