"""External consumer roots: other checkouts and installed distributions that use this project.

Out-of-tree hardware plugins and forks use the core package; a surface they use is
not dead. `omni-external-roots` names them: a folder is a sibling checkout; any other
entry is the name of an installed distribution, whose source is found through
`importlib.metadata` (never imported): the folder of an editable install, else the
folders of its top-level packages. Each source is indexed like a project (read-only:
its cache lives in the cache folder, nothing is written in it) and refreshed once
per run. `external_indexes` is the one door to them, so that an index of upstream
packages can share this machinery.

A project that is one folder of a larger repository (a monorepo: kserve's `python/kserve`
beside the model servers that import it) has consumers there too: the other Python projects
of the repository (folders with a `pyproject.toml` or `setup.py`) whose code imports one of its
packages are read the same way, without being named (`sibling_roots`, found by `git grep`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from pylint_omni.index.git import git
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


MAX_SIBLINGS = 40  # sibling projects of a monorepo read as consumers; more is a repository to name roots for


def _package_tops(root: Path) -> list[str]:
    """The top-level packages a project folder holds (flat or `src/` layout)."""
    return sorted({p.parent.name for pattern in ("*/__init__.py", "src/*/__init__.py") for p in root.glob(pattern)})


@lru_cache(maxsize=8)
def sibling_roots(project_root: Path) -> tuple[ExternalRoot, ...]:
    """The other Python projects of the git repository that holds `project_root` whose code imports one of its
    packages (none when the project is the whole repository, or outside git)."""
    ok, top = git(project_root, "rev-parse", "--show-toplevel")
    tops = _package_tops(project_root)
    if not ok or not tops or Path(top).resolve() == project_root.resolve():
        return ()
    repo = Path(top).resolve()
    own = project_root.resolve().relative_to(repo).as_posix()
    pattern = rf"^\s*(from|import)\s+({'|'.join(re.escape(t) for t in tops)})\b"
    ok, importing = git(repo, "grep", "-l", "-E", pattern, "--", "*.py")
    ok_markers, markers = git(repo, "ls-files", "--", "*pyproject.toml", "*setup.py")
    if not ok or not ok_markers:
        return ()  # `git grep` fails when no file matches
    projects = sorted({str(Path(m).parent) for m in markers.splitlines()} - {"."}, key=len, reverse=True)
    found: dict[str, ExternalRoot] = {}
    for rel in importing.splitlines():
        owner = next((p for p in projects if rel.startswith(p + "/")), None)
        if owner is None or owner == own or own.startswith(owner + "/") or owner.startswith(own + "/"):
            continue  # outside any project, the project itself, or a project around or inside it
        found.setdefault(owner, ExternalRoot(f"sibling:{owner}", repo / owner))
    return tuple(found[name] for name in sorted(found)[:MAX_SIBLINGS])


def external_indexes(settings: OmniSettings, project_root: Path) -> list[tuple[ExternalRoot, ProjectIndex]]:
    """The index of every external root of the project, named or a sibling project of its repository, refreshed
    once per run (empty without any)."""
    found: list[tuple[ExternalRoot, ProjectIndex]] = []
    named = [root for entry in settings.external_roots for root in resolve(entry)[0]]
    for root in [*named, *sibling_roots(project_root)]:
        if root.path == project_root:
            continue  # the project itself is not its own consumer
        own = OmniSettings(root=root.path, cache_dir=settings.cache_dir, cache_enabled=settings.cache_enabled,
                           max_file_bytes=settings.max_file_bytes)
        found.append((root, get_index(root.path, own)))
    return found
