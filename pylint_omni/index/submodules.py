"""Code of the tree pylint never lints: git submodules this checkout lacks (code there may consume the project,
and no index read it) and namespace folders inside a package (`namespace_folders`).

`.gitmodules` names each submodule's `path`; a path that is missing or empty is not
checked out (`git clone` without `--recurse-submodules`). Read as text, line by line:
git's config syntax indents keys, which `configparser` would take for continuations.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

SUBMODULE_PATH = re.compile(r"^\s*path\s*=\s*(\S.*?)\s*$", re.MULTILINE)


def unchecked_submodules(root: Path) -> list[str]:
    """The paths of `.gitmodules` submodules that are missing or empty under `root`."""
    try:
        text = (root / ".gitmodules").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    missing: list[str] = []
    for path in SUBMODULE_PATH.findall(text):
        folder = root / path
        try:
            checked_out = folder.is_dir() and any(folder.iterdir())
        except OSError:
            checked_out = False
        if not checked_out:
            missing.append(path)
    return missing


def namespace_folders(python_relpaths: list[str], is_production: Callable[[str], bool]) -> list[tuple[str, int]]:
    """(folder, Python files under it) for each topmost folder without `__init__.py` inside a package.

    pylint walks a package argument through `__init__.py` folders only (unless `--recursive=y`), so
    these files are never linted: no finding of theirs is reported, while the index still reads them.
    """
    packages = {path.rpartition("/")[0] for path in python_relpaths if path.endswith("/__init__.py")}
    counts: dict[str, int] = {}
    for path in python_relpaths:
        if not is_production(path):
            continue
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts)):
            parent, folder = "/".join(parts[:depth]), "/".join(parts[:depth + 1])
            if parent in packages and folder not in packages:
                counts[folder] = counts.get(folder, 0) + 1
                break
            if parent not in packages:
                break
    return sorted(counts.items())
