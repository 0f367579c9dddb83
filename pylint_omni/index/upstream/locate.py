"""Find an upstream package's source without importing it.

Two places are looked at, in order:
- the folders of `omni-upstream-paths`: a folder holding the package folder (an
  unpacked wheel such as `/tmp/upstream/vllm-0.12.0` with `vllm/` and
  `vllm-0.12.0.dist-info/`) or the package folder itself;
- the distributions installed where pylint runs (`importlib.metadata`: the
  distribution's file list names the package's `__init__.py`; nothing is imported),
  unless the settings say not to (`OmniSettings.upstream_installed`).
The version comes from the `*.dist-info/METADATA` beside the package, else from the
distribution, else from a digest of the folder's path and newest modification time.
The dist-info folder found beside a package is kept (`Located.metadata`): its
`Requires-Dist` pins are what a project that does not declare the package runs on.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path


@dataclass(frozen=True)
class Located:
    """Where an upstream package's source lives (`folder` holds its `__init__.py`)."""

    name: str
    version: str
    folder: Path
    source: str  # "path" (an omni-upstream-paths folder) or "installed"
    metadata: Path | None = None  # the `*.dist-info` folder beside a package found in a path


def _normal(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


def _dist_info(parent: Path, name: str) -> tuple[Path, str | None] | None:
    """The `*.dist-info` folder beside the package that ships it (by `Name`, else `top_level.txt`), and its version."""
    for info in sorted(parent.glob("*.dist-info")):
        try:
            text = (info / "METADATA").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        fields = dict(line.split(": ", 1) for line in text.splitlines()[:20] if ": " in line)
        try:
            top = (info / "top_level.txt").read_text(encoding="utf-8", errors="replace").split()
        except OSError:
            top = []
        if _normal(fields.get("Name", "")) == _normal(name) or name in top:
            return info, fields.get("Version")
    return None


def _folder_version(folder: Path) -> str:
    """A stand-in version for a bare source folder: its path and newest file time."""
    newest = 0
    for current, _, files in os.walk(folder):
        for file in files:
            if file.endswith(".py"):
                try:
                    newest = max(newest, os.stat(os.path.join(current, file)).st_mtime_ns)
                except OSError:
                    continue
    return "src-" + hashlib.sha1(f"{folder}|{newest}".encode()).hexdigest()[:10]


def in_paths(name: str, paths: tuple[str, ...]) -> Located | None:
    """The package `name` inside one of the configured folders."""
    for raw in paths:
        base = Path(raw).expanduser()
        for folder, parent in ((base / name, base), (base, base.parent)):
            if folder.name == name and (folder / "__init__.py").is_file():
                info = _dist_info(parent, name)
                version = (info[1] if info else None) or _folder_version(folder)
                return Located(name, version, folder.resolve(), "path", info[0].resolve() if info else None)
    return None


def installed(name: str) -> Located | None:
    """The installed distribution that ships `name/__init__.py`, found from its metadata."""
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return None
    for file in dist.files or ():
        if file.parts[:1] == (name,) and file.name == "__init__.py" and len(file.parts) == 2:
            folder = Path(str(dist.locate_file(file))).parent
            if folder.is_dir():
                return Located(name, dist.version, folder.resolve(), "installed")
    return None


def locate(name: str, paths: tuple[str, ...], installed_too: bool) -> Located | None:
    """The package in the configured folders, else (`installed_too`) among the installed distributions."""
    return in_paths(name, paths) or (installed(name) if installed_too else None)


def names_in_paths(paths: tuple[str, ...]) -> list[str]:
    """Package names found directly in the configured folders (a folder given for a package counts too)."""
    found: list[str] = []
    for raw in paths:
        base = Path(raw).expanduser()
        if (base / "__init__.py").is_file():
            found.append(base.name)
            continue
        if base.is_dir():
            found += sorted(p.name for p in base.iterdir() if (p / "__init__.py").is_file())
    return list(dict.fromkeys(found))
