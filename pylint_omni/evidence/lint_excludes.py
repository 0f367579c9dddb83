"""Folders the project keeps out of its own linters: vendored or generated code, by the project's own word.

A lint hook's `exclude:` in `.pre-commit-config.yaml` (ruff, flake8, pylint: the hooks that hold code to the
project's rules; not the file's top-level `exclude:`, which FastVideo uses to keep its own model code out of every
formatter) or `[tool.ruff] exclude` /
`extend-exclude` in `pyproject.toml` that covers a whole folder says the maintainers do not hold that code to
their rules: llama-stack excludes `^llama_stack/strong_typing/.*$`, a vendored copy of a library.
`evidence.provenance.copied_code` treats such a folder as vendored: findings there name it, and a high one is
medium (pruning a copy turns its next resync into a merge).

Only folder-wide patterns count: a pattern must also cover a file that does not exist in the same folder
(`folder/<probe>.py`), so a list of single files (`^pkg/cli/download\\.py$`, a formatter's one-off) never does.
The files are read with `yaml.safe_load` and tomllib, never executed; one that cannot be parsed excludes nothing.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import yaml
from pathspec import PathSpec

from pylint_omni.index.derived import Derived
from pylint_omni.index.project_index import ProjectIndex

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

LINT_HOOKS = frozenset({"ruff", "ruff-check", "flake8", "pylint"})
PROBE = "__pylint_omni_probe__.py"  # a file name no folder holds: a pattern matching it covers the whole folder


@dataclass(frozen=True)
class LintExclusion:
    """One exclusion: the pattern as written and where ("the ruff hook of .pre-commit-config.yaml")."""

    pattern: str
    source: str
    glob: bool  # a gitignore-style glob (ruff's settings), else a regular expression searched in the path (pre-commit)

    @cached_property
    def _matcher(self) -> Callable[[str], bool]:
        """Compiled once: `covers` is asked for every finding's file, twice."""
        if self.glob:
            return PathSpec.from_lines("gitwildmatch", [self.pattern.removeprefix("./")]).match_file
        try:
            expression = re.compile(self.pattern)
        except re.error:
            return lambda _: False
        return lambda relpath: expression.search(relpath) is not None

    def covers(self, relpath: str) -> bool:
        return self._matcher(relpath)


def _pre_commit(index: ProjectIndex) -> list[LintExclusion]:
    try:
        config = yaml.safe_load(index.text(".pre-commit-config.yaml") or "") or {}
    except yaml.YAMLError:
        return []
    if not isinstance(config, dict):
        return []
    found = []
    for repo in config.get("repos") or []:
        for hook in (repo.get("hooks") or []) if isinstance(repo, dict) else []:
            if isinstance(hook, dict) and hook.get("id") in LINT_HOOKS and isinstance(hook.get("exclude"), str):
                found.append(LintExclusion(hook["exclude"], f"the {hook['id']} hook of .pre-commit-config.yaml", glob=False))
    return found


def _ruff(index: ProjectIndex) -> list[LintExclusion]:
    try:
        ruff = tomllib.loads(index.text("pyproject.toml") or "").get("tool", {}).get("ruff", {})
    except tomllib.TOMLDecodeError:
        return []
    patterns = [*(ruff.get("exclude") or []), *(ruff.get("extend-exclude") or [])]
    return [LintExclusion(p, "[tool.ruff] of pyproject.toml", glob=True) for p in patterns if isinstance(p, str)]


_EXCLUSIONS: Derived[list[LintExclusion]] = Derived("evidence.lint_exclusions", lambda index: [*_pre_commit(index), *_ruff(index)])


def lint_excluded(index: ProjectIndex, relpath: str) -> tuple[str, LintExclusion] | None:
    """(the folder, the exclusion) when the project's linters skip the whole folder holding `relpath`, else None."""
    folder = relpath.rpartition("/")[0]
    if not folder:
        return None
    for exclusion in _EXCLUSIONS.of(index):
        if exclusion.covers(relpath) and exclusion.covers(f"{folder}/{PROBE}"):
            return folder, exclusion
    return None
