"""Names upstream code reads, from the source folders the `omni-upstream-source` option names.

A stop-gap for the upstream index of SPEC §2.3, kept behind two functions
(`upstream_names`, `upstream_defines`): when that index lands, this module is where it plugs in.
Upstream source (e.g. an unpacked vllm wheel's `vllm/`) is read with `ast`, never
imported. For each name it remembers the first place upstream code reads it:
an attribute read (`x.name`), a literal `getattr`/`hasattr` name, a string key
read (`d["name"]`, `d.get("name")`), a field of a class body, or a parameter (a
keyword a caller may hand in). The table is cached per folder in the index's cache
folder, keyed by the folder's files' sizes and times, so a warm run costs one JSON read.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pylint_omni.index import cache
from pylint_omni.index.settings import OmniSettings

MAX_FILE_BYTES = 3_000_000
SKIPPED_PARTS = frozenset({"tests", "test", "benchmarks", "examples", "__pycache__"})


@dataclass(frozen=True)
class UpstreamNames:
    """name -> the first upstream place that reads it (`vllm/config/model.py:123 (attr)`).

    `reads`: attribute reads, literal `getattr`/`hasattr` names and string key reads;
    `accepts`: fields of class bodies and parameters (a keyword a caller may hand in).
    """

    reads: dict[str, str]
    accepts: dict[str, str]
    folders: tuple[str, ...]

    def read(self, name: str) -> str | None:
        return self.reads.get(name)

    def accepted(self, name: str) -> str | None:
        return self.reads.get(name) or self.accepts.get(name)


def _python_files(folder: Path) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_PARTS and not d.startswith("."))
        found += [Path(dirpath) / f for f in sorted(filenames) if f.endswith(".py")]
    return found


def _reads_of(tree: ast.AST) -> list[tuple[str, int, str]]:
    found: list[tuple[str, int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            found.append((node.attr, node.lineno, "attr"))
        elif isinstance(node, ast.Call) and node.args:
            func = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""
            index = 1 if func in ("getattr", "hasattr") else 0 if func in ("get", "pop") else -1
            if 0 <= index < len(node.args) and isinstance(node.args[index], ast.Constant) and isinstance(node.args[index].value, str):
                found.append((node.args[index].value, node.lineno, func))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            found.append((node.slice.value, node.lineno, "key"))
        elif isinstance(node, ast.ClassDef):
            found += [(s.target.id, s.lineno, "field") for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [(a.arg, node.lineno, "parameter") for a in [*node.args.args, *node.args.kwonlyargs] if a.arg not in ("self", "cls")]
    return found


def _stamp(files: list[Path]) -> str:
    digest = hashlib.sha1()
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            continue
        digest.update(f"{path}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def _read_folder(folder: Path, cache_dir: Path | None) -> dict[str, dict[str, str]]:
    files = _python_files(folder)
    stamp = _stamp(files)
    cached = cache_dir / f"upstream-names-{hashlib.sha1(str(folder).encode()).hexdigest()[:12]}.json" if cache_dir else None
    if cached is not None and cached.is_file():
        try:
            data = json.loads(cached.read_text(encoding="utf-8"))
            if data.get("stamp") == stamp:
                return {"reads": dict(data["reads"]), "accepts": dict(data["accepts"])}
        except (OSError, ValueError, KeyError, TypeError):
            pass
    reads: dict[str, str] = {}
    accepts: dict[str, str] = {}
    for path in files:
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
            continue
        where = f"{folder.name}/{path.relative_to(folder).as_posix()}"
        for name, line, via in _reads_of(tree):
            (accepts if via in ("field", "parameter") else reads).setdefault(name, f"{where}:{line} ({via})")
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps({"stamp": stamp, "reads": reads, "accepts": accepts}), encoding="utf-8")
        except OSError:
            pass  # no cache: the next run reads the folder again
    return {"reads": reads, "accepts": accepts}


@lru_cache(maxsize=8)
def _names(folders: tuple[Path, ...], cache_dir: Path | None) -> UpstreamNames:
    reads: dict[str, str] = {}
    accepts: dict[str, str] = {}
    for folder in folders:
        if folder.is_dir():
            found = _read_folder(folder, cache_dir)
            for name, where in found["reads"].items():
                reads.setdefault(name, where)
            for name, where in found["accepts"].items():
                accepts.setdefault(name, where)
    return UpstreamNames(reads, accepts, tuple(str(f) for f in folders))


def upstream_names(settings: OmniSettings) -> UpstreamNames | None:
    """What upstream code reads by name, or None when no upstream source is configured."""
    if not settings.upstream_source:
        return None
    folders = tuple(settings.resolve(f).resolve() for f in settings.upstream_source)
    cache_dir = (settings.cache_dir or cache.default_cache_dir()) if settings.cache_enabled else None
    return _names(folders, cache_dir)


@lru_cache(maxsize=512)
def _top_level_names(path: Path) -> dict[str, int]:
    """Names a module file binds at import time (definitions, assignments, imports), with their lines."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
        return {}
    found: dict[str, int] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.setdefault(stmt.name, stmt.lineno)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                found.setdefault(alias.asname or alias.name.partition(".")[0], stmt.lineno)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, stmt.lineno)
    return found


def upstream_defines(settings: OmniSettings, module: str, name: str) -> str | None:
    """Where the upstream source defines `module.name` (a name bound in the module, or a submodule), or None."""
    head, _, rest = module.partition(".")
    for folder in (settings.resolve(f) for f in settings.upstream_source):
        if folder.name != head:
            continue
        base = folder.joinpath(*rest.split(".")) if rest else folder
        if (base / name).is_dir() or (base / f"{name}.py").is_file():
            return f"{head}/{(base / name).relative_to(folder).as_posix()}"
        for candidate in (base / "__init__.py", base.with_suffix(".py")):
            line = _top_level_names(candidate).get(name) if candidate.is_file() else None
            if line is not None:
                return f"{head}/{candidate.relative_to(folder).as_posix()}:{line}"
    return None
