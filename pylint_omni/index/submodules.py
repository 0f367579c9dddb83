"""Git submodules this checkout lacks: code there may consume the project, and no index read it.

`.gitmodules` names each submodule's `path`; a path that is missing or empty is not
checked out (`git clone` without `--recurse-submodules`). Read as text, line by line:
git's config syntax indents keys, which `configparser` would take for continuations.
"""

from __future__ import annotations

import re
from pathlib import Path

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
