"""The copy groups of one project and their verdicts, for this run.

Validation files (tests, examples, benchmarks, docs, tools) and generated files (their
header says so) take no part: a copy there is not a production surface. Groups are
computed and judged once per run, all at once (the copies' files parsed to compare
them are let go right after), and cached between runs (`store`); every module of the
run reads the result from the index's per-run results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pylint_omni.copies import store
from pylint_omni.copies.blocks import block_groups
from pylint_omni.copies.drift import PARSED, Drift, drift
from pylint_omni.copies.fingerprints import FACT_KEY, FingerprintFact
from pylint_omni.copies.groups import Thresholds, unit_groups
from pylint_omni.copies.keeper import preference
from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.copies.movable import claim
from pylint_omni.copies.verdict import Judgement, is_model_code, judge
from pylint_omni.evidence.consumers import Status
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Derived, Table
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex

_PROJECT: Table[Thresholds, ProjectCopies] = Table("copies.project")


@dataclass
class ProjectCopies:
    """Judged copy groups of a project, and for each file the copies it holds."""

    judgements: list[Judgement]
    by_path: dict[str, list[tuple[Judgement, Member]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for judgement in self.judgements:
            for member in judgement.group.members:
                self.by_path.setdefault(member.path, []).append((judgement, member))

    def inside_other_group(self, judgement: Judgement, member: Member) -> bool:
        """The copy lies inside a bigger copy another group reports (that message covers it); a bigger copy kept
        or rejected there says nothing of this one."""
        return any(big is not member and other is not judgement and big.contains(member) and big is not other.kept
                   and (verdict := other.verdicts.get(big)) is not None and verdict.status is not Status.REJECTED
                   for other, big in self.by_path.get(member.path, ()))


def production_fingerprints(index: ProjectIndex) -> dict[str, FileCopies]:
    """Fingerprints of the production files (decoded once per run)."""
    return _FINGERPRINTS.of(index)


def _fingerprints(index: ProjectIndex) -> dict[str, FileCopies]:
    files: dict[str, FileCopies] = {}
    for relpath, facts in index.python_files():
        fact: FingerprintFact | None = facts.get("extra", {}).get(FACT_KEY)
        if not fact or index.location(relpath) is Location.VALIDATION or not index.entries[relpath].get("module"):
            continue  # a test, or a module file a package shadows (it never runs)
        if (facts.get("provenance") or {}).get("generated"):
            continue
        files[relpath] = FileCopies(relpath, fact)
    return files


_FINGERPRINTS: Derived[dict[str, FileCopies]] = Derived("copies.production_fingerprints", _fingerprints)


def _inheritance(index: ProjectIndex) -> Callable[[Member, Member], bool]:
    """Whether two class copies are a class and its subclass (resolved in the project's class graph)."""
    graph = class_graph(index)

    def dotted(member: Member) -> str:
        return f"{index.entries.get(member.path, {}).get('module', '')}.{member.qual}"

    def related(a: Member, b: Member) -> bool:
        if a.kind != "class" or b.kind != "class":
            return False
        first, second = dotted(a), dotted(b)
        return first in graph.ancestors(second) or second in graph.ancestors(first)

    return related


def _judged(index: ProjectIndex, files: dict[str, FileCopies], limits: Thresholds, cached: dict[str, list]) -> tuple[list[Judgement], dict[str, list]]:
    """Groups computed and judged; drifts of unchanged copy pairs come from `cached`."""
    keep = preference(index, files)
    units = unit_groups(files, limits, _inheritance(index), keep)
    covered = [m for g in units for m in g.members]
    groups = [*units, *block_groups(files, limits, covered, lambda block: claim(index, block), keep)]
    used: dict[str, list] = {}

    def drift_of(kept: Member, other: Member) -> Drift | None:
        key = store.pair_key(kept, other)
        if key in cached:
            used[key] = cached[key]
            return store.decode_drift(cached[key])
        found = drift(index, kept, other, arithmetic=is_model_code(kept) or is_model_code(other))
        if found is not None:
            used[key] = store.encode_drift(found)
        return found

    judgements = [judge(index, group, drift_of) for group in groups]
    PARSED.forget(index)  # the copies' parsed files are not needed any more
    return judgements, used


def project_copies(index: ProjectIndex, limits: Thresholds) -> ProjectCopies:
    memo = _PROJECT.values(index)
    found = memo.get(limits)
    if found is not None:
        return found
    index.await_background()  # a cold run's child may be writing the store
    files = production_fingerprints(index)
    key = store.state_key(index, files)
    stored = store.load(index, limits)
    judgements = None
    if stored.get("key") == key:
        try:
            judgements = store.decode(stored["judgements"])
        except (KeyError, TypeError, ValueError):
            judgements = None  # a damaged cache is computed again
    if judgements is None:
        cached = stored.get("drifts") if isinstance(stored.get("drifts"), dict) else {}
        judgements, used = _judged(index, files, limits, cached)
        store.save(index, limits, key, judgements, used)
    found = memo[limits] = ProjectCopies(judgements)
    return found
