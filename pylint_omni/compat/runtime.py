"""What the project runs on without declaring it: distribution metadata, never imports.

vLLM-Omni installs vLLM separately and gets torch through it, so its own files pin
neither. Then the evidence is the metadata of the distributions it runs on: a
distribution's version and its own `Requires-Dist` (vllm pins torch exactly). It is
read from the `*.dist-info` folder beside each upstream package the upstream index
found in an `omni-upstream-paths` folder (an unpacked wheel: `vllm/` and
`vllm-0.12.0.dist-info/`), and else from the environment pylint runs in
(`importlib.metadata`, which reads metadata files and imports nothing) unless the
settings say not to (`omni-upstream-installed`). Findings
built on it are medium confidence and say where the version came from.

Import names map to distributions through the metadata's `top_level.txt`, the
environment's `packages_distributions()`, then a small table of the well-known
names that differ (`PIL` -> pillow, `yaml` -> pyyaml, ...), then the name itself.
"""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass, replace
from email.parser import HeaderParser
from functools import lru_cache
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from pylint_omni.index.discovery import read_text
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.data_scan import InputProblem
from pylint_omni.index.upstream import upstream_of
from pylint_omni.index.vocabulary import IMPORT_TO_DISTRIBUTIONS



@dataclass(frozen=True)
class DistMetadata:
    """One distribution's metadata: version, its requirements and the import names it provides."""

    name: str  # canonical
    version: str
    requires: tuple[str, ...]
    top_level: tuple[str, ...]
    origin: str  # the dist-info folder, or "installed"

    def hard_requirements(self) -> list[Requirement]:
        """`Requires-Dist` lines that always install (no extra, no environment marker)."""
        found = []
        for line in self.requires:
            try:
                req = Requirement(line)
            except InvalidRequirement:
                continue
            if req.marker is None:
                found.append(req)
        return found

    def describe(self) -> str:
        where = "installed" if self.origin == "installed" else Path(self.origin).name
        return f"{self.name} {self.version} ({where})"


def _parse_metadata(text: str, origin: str, top_level: tuple[str, ...]) -> DistMetadata | None:
    headers = HeaderParser().parsestr(text)
    name, version = headers.get("Name"), headers.get("Version")
    if not name or not version:
        return None
    return DistMetadata(canonicalize_name(name), version.strip(), tuple(headers.get_all("Requires-Dist") or ()), top_level, origin)


@lru_cache(maxsize=64)
def read_dist_info(folder: Path) -> DistMetadata | None:
    """One `*.dist-info` (or `*.egg-info`) folder's metadata; None when it cannot be read."""
    for name in ("METADATA", "PKG-INFO"):
        file = folder / name
        if file.is_file():
            try:
                text = read_text(file, 5_000_000)
            except InputProblem:
                return None
            top = folder / "top_level.txt"
            top_level: tuple[str, ...] = ()
            if top.is_file():
                try:
                    top_level = tuple(line.strip() for line in read_text(top, 100_000).splitlines() if line.strip())
                except InputProblem:
                    top_level = ()
            return _parse_metadata(text, str(folder), top_level)
    return None


@lru_cache(maxsize=256)
def installed(name: str) -> DistMetadata | None:
    """The metadata of an installed distribution (read from its files; nothing is imported)."""
    try:
        dist = importlib.metadata.distribution(name)
    except (importlib.metadata.PackageNotFoundError, ValueError, OSError):
        return None
    version = dist.version
    if not version:
        return None
    top = dist.read_text("top_level.txt") or ""
    return DistMetadata(canonicalize_name(name), version, tuple(dist.requires or ()), tuple(top.split()), "installed")


@lru_cache(maxsize=1)
def _installed_import_names() -> dict[str, tuple[str, ...]]:
    try:
        found = importlib.metadata.packages_distributions()
    except (OSError, ValueError):
        return {}
    return {name: tuple(canonicalize_name(d) for d in dists) for name, dists in found.items()}


class RuntimeMetadata:
    """Metadata for one project's run: the upstream packages found in paths first, then the environment."""

    def __init__(self, index: ProjectIndex) -> None:
        self.installed_too = index.settings.upstream_installed
        self.given: dict[str, DistMetadata] = {}
        for package in upstream_of(index).packages():
            folder = package.located.metadata
            meta = read_dist_info(folder) if folder is not None else None
            if meta is not None and meta.name not in self.given:
                self.given[meta.name] = replace(meta, top_level=tuple(dict.fromkeys([*meta.top_level, package.name])))

    def of(self, name: str) -> DistMetadata | None:
        name = canonicalize_name(name)
        return self.given.get(name) or (installed(name) if self.installed_too else None)

    def distributions_of(self, import_name: str) -> tuple[str, ...]:
        """Distribution names that may provide the top-level import `import_name`, best first."""
        head = import_name.partition(".")[0]
        found = [meta.name for meta in self.given.values() if head in meta.top_level]
        found += _installed_import_names().get(head, ()) if self.installed_too else ()
        found += IMPORT_TO_DISTRIBUTIONS.get(head, ())
        found += [canonicalize_name(head)]
        return tuple(dict.fromkeys(found))
