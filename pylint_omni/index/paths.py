"""Where things live: the project root, module names, and the class of a path.

`classify_path` is the one place that decides whether a file is production code or
validation/support material (tests, benchmarks, examples, docs, CI, tools).
"""

from __future__ import annotations

import fnmatch
import os
from enum import Enum
from functools import lru_cache
from pathlib import Path

from pathspec import GitIgnoreSpec

ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
PACKAGE_ROOT_MARKERS = tuple(m for m in ROOT_MARKERS if m != "setup.py")


class Location(str, Enum):
    """Where a consumer lives, as the audit method classifies evidence."""

    PRODUCTION = "production"
    VALIDATION = "validation"
    EXTERNAL = "external"


@lru_cache(maxsize=8192)
def find_project_root(start: str | os.PathLike[str]) -> Path:
    """Nearest ancestor of `start` (a file or folder) holding a root marker; else the folder
    that holds its outermost package (as pylint puts on `sys.path`), so that a folder and
    the modules below it get the same root (`index` run there and `report` of its packages).

    Cached: every checker asks for every module of a run, and markers do not move mid-run.
    """
    path = Path(start).resolve()
    return _root_of_folder(path if path.is_dir() else path.parent)


@lru_cache(maxsize=4096)
def _root_of_folder(folder: Path) -> Path:
    # Cached: every module of a run asks, and the answer is the same for a folder.
    for candidate in (folder, *folder.parents):
        # In a package folder (`__init__.py`) a `setup.py` is a module of the package (NeMo RL's
        # `nemo_rl/models/megatron/setup.py`), not the project's build script.
        markers = ROOT_MARKERS if not (candidate / "__init__.py").is_file() else PACKAGE_ROOT_MARKERS
        if any((candidate / marker).exists() for marker in markers):
            return candidate
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        folder = folder.parent
    return folder


@lru_cache(maxsize=256)
def glob_spec(patterns: tuple[str, ...]) -> GitIgnoreSpec:
    """One compiled matcher per list of globs (with `.gitignore` semantics, through `pathspec`)."""
    return GitIgnoreSpec.from_lines(patterns)


def glob_match(relpath: str, pattern: str) -> bool:
    """True when a root-relative posix path matches one glob (`.gitignore` semantics)."""
    return glob_spec((pattern,)).match_file(relpath)


def matches_any(relpath: str, patterns: tuple[str, ...] | list[str]) -> bool:
    """True when a root-relative posix path matches any of the globs.

    Globs mean what they mean in a `.gitignore` (`pathspec`): a glob with a slash is
    anchored at the project root (`tests/**`, `docs/design/*.md`); a glob without one
    matches at any depth (`*.md`, `conftest.py`); `**` spans folders; a trailing `/`
    matches folders; `!` re-includes.
    """
    return bool(patterns) and glob_spec(tuple(patterns)).match_file(relpath)


def classify_path(
    relpath: str,
    validation_globs: tuple[str, ...],
    production_globs: tuple[str, ...] = (),
) -> Location:
    """Production unless a validation glob matches (an explicit production glob wins)."""
    if production_globs and matches_any(relpath, production_globs):
        return Location.PRODUCTION
    if matches_any(relpath, validation_globs):
        return Location.VALIDATION
    return Location.PRODUCTION


def key_matches_patterns(key: str, patterns: tuple[str, ...]) -> bool:
    """Case-sensitive shell-style match of a registry key against name patterns."""
    return any(fnmatch.fnmatchcase(key, p) for p in patterns)
