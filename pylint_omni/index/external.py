"""External consumer roots: other checkouts and installed distributions that use this project.

Out-of-tree hardware plugins and forks use the core package; a surface they use is
not dead. `omni-external-roots` names them: a folder is a sibling checkout; any other
entry is the name of an installed distribution, whose source is found through
`importlib.metadata` (never imported): the folder of an editable install, else the
folders of its top-level packages. Each source is indexed like a project (read-only:
its cache lives in the cache folder, nothing is written in it) and refreshed once
per run. `external_indexes` is the one door to them, so that an index of upstream
packages can share this machinery.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from pylint_omni.index.live import get_index
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.settings import OmniSettings


@dataclass(frozen=True)
class ExternalRoot:
    label: str  # what the evidence names: the folder's name, or "dist:<name>/<package>"
    path: Path


def _editable_source(dist: metadata.Distribution) -> Path | None:
    try:
        text = dist.read_text("direct_url.json")
        info = json.loads(text) if text else {}
    except (OSError, ValueError):
        return None
    url = info.get("url", "") if isinstance(info, dict) else ""
    if not (isinstance(info, dict) and info.get("dir_info", {}).get("editable") and url.startswith("file:")):
        return None
    folder = Path(unquote(urlparse(url).path))
    return folder if folder.is_dir() else None


def _top_level_folders(dist: metadata.Distribution) -> list[Path]:
    text = dist.read_text("top_level.txt") or ""
    names = [line.strip() for line in text.splitlines() if line.strip()]
    if not names:  # no top_level.txt (modern wheels): the first folder of each installed .py file
        names = sorted({f.parts[0] for f in dist.files or () if f.suffix == ".py" and len(f.parts) > 1
                        and not f.parts[0].endswith((".dist-info", ".egg-info", ".data")) and f.parts[0] != ".."})
    folders = [Path(str(dist.locate_file(name))) for name in names]
    return [folder for folder in folders if folder.is_dir()]


def resolve(entry: str) -> tuple[list[ExternalRoot], str | None]:
    """The source folders an `omni-external-roots` entry names, or why it names none."""
    folder = Path(entry).expanduser()
    if folder.is_dir():
        folder = folder.resolve()
        return [ExternalRoot(folder.name, folder)], None
    if "/" in entry or entry.startswith("."):
        return [], f"{entry!r}: no such folder"
    try:
        dist = metadata.distribution(entry)
    except metadata.PackageNotFoundError:
        return [], f"{entry!r} is neither a folder nor an installed distribution"
    editable = _editable_source(dist)
    if editable is not None:
        return [ExternalRoot(f"dist:{entry}", editable.resolve())], None
    folders = _top_level_folders(dist)
    if not folders:
        return [], f"the installed distribution {entry!r} has no package folder to read"
    return [ExternalRoot(f"dist:{entry}/{f.name}", f.resolve()) for f in folders], None


def external_problems(entries: tuple[str, ...]) -> list[str]:
    """Why some entries of `omni-external-roots` name nothing (a usage error)."""
    return [problem for entry in entries if (problem := resolve(entry)[1])]


def external_indexes(settings: OmniSettings) -> list[tuple[ExternalRoot, ProjectIndex]]:
    """The index of every external root of the project, refreshed once per run (empty without any)."""
    found: list[tuple[ExternalRoot, ProjectIndex]] = []
    for entry in settings.external_roots:
        for root in resolve(entry)[0]:
            if settings.root is not None and root.path == settings.root:
                continue  # the project itself is not its own consumer
            own = OmniSettings(root=root.path, cache_dir=settings.cache_dir, cache_enabled=settings.cache_enabled,
                               max_file_bytes=settings.max_file_bytes)
            found.append((root, get_index(root.path, own)))
    return found
