"""Design contracts: `docs/design/` pages with YAML front matter, and who owns a path.

A contract is an active design page (not under `archive/`, status not archived,
deprecated, superseded or obsolete) whose front matter names code paths:
`primary_code_paths` (with `primary_path_exceptions`) and `related_code_paths`, plus
`validation_paths`, `owners`, and optionally symbols it declares as boundaries or
extension points (`extension_points`, `boundaries`, `public_api`). Ownership is
matched by glob, primary before related; a folder path owns everything below it.
Malformed front matter is a problem to report, never fatal. Pages without front
matter still count as documentation mentions (the index already has their words).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pylint_omni.index.derived import Derived
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.paths import glob_match

DESIGN_FOLDER = "docs/design/"
INACTIVE_STATUSES = frozenset({"archived", "deprecated", "superseded", "obsolete", "historical", "retired"})
EXTENSION_KEYS = ("extension_points", "boundaries", "public_api", "stable_api")
GLOB_CHARS = set("*?[")


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(str(v) for v in value if isinstance(v, (str, int, float)))
    return ()


def _as_glob(path: str) -> str:
    """`pkg/engine/` or `pkg/engine` (a folder) owns `pkg/engine/**`; globs stay as written."""
    path = path.strip().lstrip("./")
    if any(ch in GLOB_CHARS for ch in path):
        return path
    if path.endswith("/"):
        return path + "**"
    last = path.rpartition("/")[2]
    return path if "." in last else path + "/**"


def _matches(relpath: str, patterns: tuple[str, ...]) -> bool:
    return any(glob_match(relpath, pattern) or relpath == pattern for pattern in patterns)


def is_design_page(relpath: str) -> bool:
    """A page of the project's own `docs/design/` (a nested project's pages are not ours)."""
    return relpath.startswith(DESIGN_FOLDER)


def filed_in_archive(relpath: str) -> bool:
    """A page under an `archive/` or `archived/` folder: history, whatever its front matter says."""
    return "/archive/" in f"/{relpath}" or "/archived/" in f"/{relpath}"


@dataclass(frozen=True)
class Contract:
    """One design page and what it declares."""

    path: str
    title: str
    kind: str
    status: str
    active: bool
    owners: tuple[str, ...]
    primary: tuple[str, ...]
    exceptions: tuple[str, ...]
    related: tuple[str, ...]
    validation_paths: tuple[str, ...]
    extension_points: tuple[str, ...]

    def owns(self, relpath: str) -> str | None:
        """'primary' or 'related' when this contract owns `relpath`, else None."""
        if _matches(relpath, self.primary) and not _matches(relpath, self.exceptions):
            return "primary"
        if _matches(relpath, self.related):
            return "related"
        return None

    def describe(self) -> str:
        return f"{self.title} ({self.path})"


def _contract(relpath: str, front: dict[str, Any]) -> Contract:
    status = str(front.get("status", "current")).strip().lower()
    return Contract(
        path=relpath,
        title=str(front.get("title") or relpath.rpartition("/")[2].removesuffix(".md")),
        kind=str(front.get("kind", "")),
        status=status,
        active=not filed_in_archive(relpath) and status not in INACTIVE_STATUSES,
        owners=_strings(front.get("owners")),
        primary=tuple(_as_glob(p) for p in _strings(front.get("primary_code_paths"))),
        exceptions=tuple(_as_glob(p) for p in _strings(front.get("primary_path_exceptions"))),
        related=tuple(_as_glob(p) for p in _strings(front.get("related_code_paths"))),
        validation_paths=_strings(front.get("validation_paths")),
        extension_points=tuple(s for key in EXTENSION_KEYS for s in _strings(front.get(key))),
    )


@dataclass
class ContractSet:
    """Every design page of the project: active contracts, history, and problems."""

    contracts: list[Contract]
    problems: dict[str, str]
    has_design_folder: bool
    archive_pages: frozenset[str] = field(default_factory=frozenset)  # design pages filed in an archive folder

    @property
    def active(self) -> list[Contract]:
        return [c for c in self.contracts if c.active]

    @cached_property
    def history(self) -> frozenset[str]:
        """Paths of archived design pages (filed in an archive folder, or an inactive status): what they say is
        history, not a consumer or a contract. The one answer to "is this design page archived?"."""
        return self.archive_pages | frozenset(c.path for c in self.contracts if not c.active)

    def owner_of(self, relpath: str) -> tuple[Contract, str] | None:
        """The owning active contract of a path: a primary owner first, else a related one."""
        for level in ("primary", "related"):
            for contract in self.active:
                if contract.owns(relpath) == level:
                    return contract, level
        return None

    def declaring_extension_point(self, name: str) -> Contract | None:
        """An active contract that lists `name` as a boundary or extension point."""
        for contract in self.active:
            if any(point == name or point.rpartition(".")[2] == name for point in contract.extension_points):
                return contract
        return None


def load_contracts(index: ProjectIndex) -> ContractSet:
    contracts: list[Contract] = []
    problems: dict[str, str] = {}
    design_pages = [rel for rel, entry in index.entries.items() if entry.get("kind") == "doc" and is_design_page(rel)]
    for rel in sorted(design_pages):
        facts = index.facts(rel)
        if facts.get("front_matter_error"):
            problems[rel] = facts["front_matter_error"]
        if isinstance(facts.get("front_matter"), dict):
            contracts.append(_contract(rel, facts["front_matter"]))
    return ContractSet(contracts, problems, bool(design_pages), frozenset(filter(filed_in_archive, design_pages)))


def contracts_of(index: ProjectIndex) -> ContractSet:
    """The index's contracts, computed once per refresh."""
    return _CONTRACTS.of(index)


_CONTRACTS: Derived[ContractSet] = Derived("evidence.contracts", load_contracts)
