"""Lint one tree and read its findings back, cached: what `diff`, `baseline write` and `explain` share.

pylint runs in a subprocess (astroid's caches and pylint's state stay per run) with
the plugin and the `omni-json` reporter writing to a temporary file; the findings
are its candidates and rejected ideas, each with its stable id. A result is cached
in the cache folder under a key made of the tree's state (a commit, or the stat of
every file the index sees plus the configuration files), the plugin's own source,
the pylint and astroid versions, the paths and the options; a second run on an
unchanged tree reads the cache. At most `MAX_CACHED` results are kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import astroid
import pylint

import pylint_omni
from pylint_omni.index.cache import default_cache_dir, read_json, write_json
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.run_options import settings_for_root
from pylint_omni.cli.precommit import BROKEN_MARKERS, FATAL, PYLINT_ARGS, USAGE_ERROR

CACHE_FORMAT = "pylint-omni-tree-findings/1"
MAX_CACHED = 24
CONFIG_FILES = ("pyproject.toml", "setup.cfg", "tox.ini", ".pylintrc", "pylintrc", "CODEOWNERS", ".github/CODEOWNERS",
                "docs/CODEOWNERS")


class LintFailed(RuntimeError):
    """pylint or the plugin did not run on a tree; the text says why."""


@dataclass
class TreeFindings:
    """The findings of one lint of one tree."""

    root: str
    candidates: list[dict[str, Any]]
    rejected: list[dict[str, Any]]
    modules_linted: int
    not_run: list[dict[str, str]] = field(default_factory=list)
    from_cache: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"format": CACHE_FORMAT, "root": self.root, "candidates": self.candidates, "rejected": self.rejected,
                "modules_linted": self.modules_linted, "not_run": self.not_run}


@lru_cache(maxsize=1)
def plugin_fingerprint() -> str:
    """The plugin's own source, pylint's and astroid's versions: a changed checker never reuses old findings."""
    digest = hashlib.sha256(f"{pylint.__version__}|{astroid.__version__}|{sys.version_info[:2]}".encode())
    package = Path(pylint_omni.__file__).parent
    for source in sorted(package.rglob("*.py")):
        digest.update(source.relative_to(package).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def working_tree_state(root: Path) -> str:
    """The state of a working tree as the lint sees it: every indexed file's size and mtime, and the config files."""
    index = ProjectIndex(root, settings_for_root(root))
    index.refresh()
    digest = hashlib.sha256()
    for relpath, entry in sorted(index.entries.items()):
        digest.update(f"{relpath}|{entry.get('size')}|{entry.get('mtime')}\n".encode())
    for name in CONFIG_FILES:
        try:
            digest.update(name.encode() + (root / name).read_bytes())
        except OSError:
            continue
    return "tree:" + digest.hexdigest()


def _cache_file(cache_dir: Path, state: str, paths: Sequence[str], extra: Sequence[str]) -> Path:
    key = json.dumps([CACHE_FORMAT, plugin_fingerprint(), state, list(paths), list(extra)])
    return cache_dir / "findings" / f"findings-{hashlib.sha256(key.encode()).hexdigest()[:20]}.json"


def _read_cached(path: Path) -> TreeFindings | None:
    data = read_json(path)
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return None
    return TreeFindings(data["root"], data["candidates"], data["rejected"], data["modules_linted"], data.get("not_run", []), True)


def _write_cached(path: Path, found: TreeFindings) -> None:
    """Atomically, then drop the oldest results beyond `MAX_CACHED`; a cache that cannot be written is skipped."""
    try:
        write_json(path, found.as_json(), ".findings-")
        kept = sorted(path.parent.glob("findings-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[MAX_CACHED:]:
            old.unlink(missing_ok=True)
    except OSError:
        return


def run_lint(root: Path, paths: Sequence[str], extra: Sequence[str] = (), cache_dir: Path | None = None) -> TreeFindings:
    """pylint with the plugin on `paths` (relative to `root`, which is also the working folder), no baseline."""
    with tempfile.TemporaryDirectory(prefix="pylint-omni-lint-") as folder:
        report = Path(folder) / "audit.json"
        command = [sys.executable, "-m", "pylint", *PYLINT_ARGS, f"--omni-root={root}", "--omni-baseline=",
                   *([f"--omni-cache-dir={cache_dir}"] if cache_dir else []), *extra,
                   f"--output-format=omni-json:{report}", *paths]
        env = {key: value for key, value in os.environ.items() if key != "PYLINT_OMNI_FINDINGS_DIR"}
        proc = subprocess.run(command, cwd=root, capture_output=True, text=True, env=env, check=False)
        broken = proc.returncode & (FATAL | USAGE_ERROR) or any(marker in proc.stderr for marker in BROKEN_MARKERS)
        try:
            data = json.loads(report.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if broken or data is None:
            detail = proc.stderr.strip() or proc.stdout.strip()
            raise LintFailed(f"pylint failed on {root} (exit {proc.returncode}): {detail[-2000:]}")
    return TreeFindings(str(root), data["candidates"], data["rejected"], data["scanned"].get("modules_linted", 0),
                        data.get("not_run", []))


def cached_findings(state: str, paths: Sequence[str], extra: Sequence[str] = (), cache_dir: Path | None = None) -> TreeFindings | None:
    """The cached findings of a tree in `state`, or None."""
    return _read_cached(_cache_file(cache_dir or default_cache_dir(), state, paths, extra))


def store_findings(state: str, paths: Sequence[str], extra: Sequence[str], found: TreeFindings, cache_dir: Path | None = None) -> None:
    _write_cached(_cache_file(cache_dir or default_cache_dir(), state, paths, extra), found)


def lint_findings(root: Path, paths: Sequence[str], extra: Sequence[str] = (), cache_dir: Path | None = None) -> TreeFindings:
    """The findings of `paths` in the working tree at `root`, from the cache when no file changed."""
    state = working_tree_state(root)
    found = cached_findings(state, paths, extra, cache_dir)
    if found is not None:
        found.root = str(root)
        return found
    found = run_lint(root, paths, extra)
    store_findings(state, paths, extra, found, cache_dir)
    return found
