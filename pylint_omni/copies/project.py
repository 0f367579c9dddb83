"""The copy groups of one project for this run: every production file's fingerprint, grouped once.

Validation files (tests, examples, benchmarks, docs, tools) and generated files (their
header says so) take no part: a copy there is not a production surface. The result
is remembered in the index's per-run results, so every module of the run (and the
editor's next run, until a file changes) asks for it at no cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pylint_omni.copies.blocks import block_groups
from pylint_omni.copies.fingerprints import FingerprintFact
from pylint_omni.copies.groups import CopyGroup, Thresholds, unit_groups
from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex

FACT_KEY = "copies.fingerprints"


@dataclass
class ProjectCopies:
    """Copy groups of a project, and for each file the copies it holds."""

    groups: list[CopyGroup]
    by_path: dict[str, list[tuple[CopyGroup, Member]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for group in self.groups:
            for member in group.members:
                self.by_path.setdefault(member.path, []).append((group, member))

    def inside_other_group(self, group: CopyGroup, member: Member) -> bool:
        """The copy lies inside a bigger copy another group reports (its message covers it)."""
        return any(big is not member and big.contains(member) and other is not group
                   for other, big in self.by_path.get(member.path, ()))


def production_fingerprints(index: ProjectIndex) -> dict[str, FileCopies]:
    files: dict[str, FileCopies] = {}
    for relpath, facts in index.python_files():
        fact: FingerprintFact | None = facts.get("extra", {}).get(FACT_KEY)
        if not fact or index.location(relpath) is Location.VALIDATION:
            continue
        if (facts.get("provenance") or {}).get("generated"):
            continue
        files[relpath] = FileCopies(relpath, fact)
    return files


def project_copies(index: ProjectIndex, limits: Thresholds) -> ProjectCopies:
    memo: dict[Thresholds, ProjectCopies] = index.derived.setdefault("copies.project", {})
    found = memo.get(limits)
    if found is None:
        files = production_fingerprints(index)
        units = unit_groups(files, limits)
        blocks = block_groups(files, limits, [m for g in units for m in g.members])
        found = memo[limits] = ProjectCopies([*units, *blocks])
    return found
