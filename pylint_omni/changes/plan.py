"""The change plan of one project state: every change set, what each file emits, and what the sets take in.

`change_plan(index, enabled)` asks every registered source whose messages are enabled
for its members (each source once per index state: a cold run computes them while it
waits for the copies), folds them (`fold`), names the lost features (`lost`), bundles the small cleanups
left, and plans one message
per change set at its root. With `omni-granularity=member` every member is its own
message again (an editor's view), and nothing is taken in.

A finding of another family inside the code a high-confidence dead change deletes is
taken in by that change (`absorbing`): listed there, not emitted.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from typing import Callable

from pylint_omni.changes.fold import DELETING, fold, never_runs, single, small_cleanups
from pylint_omni.changes.lost import lost_features
from pylint_omni.changes.model import HIGH, ChangeSet, Member, sources
from pylint_omni.evidence.baseline import BaselineError, load_baseline
from pylint_omni.evidence.keep import keep_list
from pylint_omni.evidence.memo import Planned
from pylint_omni.index.derived import Table
from pylint_omni.index.project_index import ProjectIndex



@dataclass
class ChangePlan:
    """The change sets of one project state and the messages they plan, by file."""

    sets: list[ChangeSet]
    by_path: dict[str, list[Planned]] = field(default_factory=dict)
    _deleting: dict[str, list[tuple[int, int, str]]] = field(default_factory=dict)  # path -> (first, last, set id)

    def __post_init__(self) -> None:
        for change in self.sets:
            self.by_path.setdefault(change.path, []).append(change.planned)
            if change.planned.verdict.confidence == HIGH and change.members[0].status in DELETING:
                for path, first, last in change.spans:
                    self._deleting.setdefault(path, []).append((first, last, change.id))

    def planned_in(self, relpath: str, symbols: frozenset[str]) -> list[Planned]:
        """What the checker of `symbols` emits in one file, by line."""
        return sorted((p for p in self.by_path.get(relpath, ()) if p.symbol in symbols), key=lambda p: p.line)

    def absorbing(self, relpath: str, first: int, last: int) -> str:
        """The id of the high-confidence change that deletes the code at those lines ("" when none does)."""
        return next((change for start, end, change in self._deleting.get(relpath, ()) if start <= first and last <= end), "")


_MEMBERS: Table[str, list[Member]] = Table("changes.members")  # by source


def source_members(index: ProjectIndex, name: str) -> list[Member]:
    """One source's members in the index's current state (computed once per state)."""
    return _MEMBERS.of(index, name, lambda: list(dict(sources())[name].members(index)))


def _held(index: ProjectIndex) -> Callable[[Member], bool]:
    """Whether the baseline or the keep list holds a member back by its own id or subject: such a member stays
    alone (`emit` records it as known or kept), so a baseline written one message per member, or before change sets,
    never brings a known finding back inside a new change."""
    try:
        known = load_baseline(index.settings.baseline) if index.settings.baseline is not None else frozenset()
    except BaselineError:
        known = frozenset()  # refused before linting started
    keep = keep_list(index.root)
    today = datetime.date.today()

    def held(member: Member) -> bool:
        ref = member.ref()
        entry = keep.match(ref.symbol, ref.subject, ref.id)
        return ref.id in known or (entry is not None and not entry.expired(today))
    return held


def _plan(index: ProjectIndex, enabled: frozenset[str]) -> ChangePlan:
    members = [m for name, source in sources() if source.symbols & enabled for m in source_members(index, name)]
    members = [m for m in members if m.symbol in enabled]
    if index.settings.per_member:
        return ChangePlan([single(never_runs(m)) for m in members])
    held = _held(index)
    alone = [single(never_runs(m)) for m in members if held(m)]
    folded = lost_features(index, fold(index, [m for m in members if not held(m)]), enabled)
    return ChangePlan([_weighed(change) for change in small_cleanups(index, folded)] + alone)


WHOLE_UNITS = frozenset({"module", "package"})


def _weighed(change: ChangeSet) -> ChangeSet:
    """Stamp what the change is when it weighs beyond its lines (`evidence.ranking`): a lost feature, a whole module."""
    details = change.planned.details
    weight = "lost-feature" if change.kind == "lost-feature" else "module" if change.members[0].unit in WHOLE_UNITS else ""
    if details is None or not weight or details.benefit.change == weight:
        return change
    details = replace(details, benefit=replace(details.benefit, change=weight))
    return replace(change, planned=replace(change.planned, details=details))


_PLANS: Table[frozenset[str], ChangePlan] = Table("changes.plans")  # by the stage's messages a run enables


def stage_symbols() -> frozenset[str]:
    """The messages whose members the stage folds: a plan depends on which of them a run emits, and on no other."""
    return frozenset(s for _, source in sources() for s in source.symbols)


def change_plan(index: ProjectIndex, enabled: frozenset[str]) -> ChangePlan:
    """The plan for the enabled messages of this run (once per index state and set of the stage's messages)."""
    key = enabled & stage_symbols()
    return _PLANS.of(index, key, lambda: _plan(index, key))


def plan_ahead(index: ProjectIndex, enabled: frozenset[str]) -> None:
    """The plan, computed while a cold run waits (`index.background`), so that a split run's helper forks with it."""
    change_plan(index, enabled)
