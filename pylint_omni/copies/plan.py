"""The copy findings of one project state: every reported copy folded into the change a maintainer would make.

Every copy after its group's kept one is judged as its message reports it
(`doubts.as_reported`, `doubts.kept_copy_lowered`); a copy `upstream-reimplementation` reports
high is said there only (the fix is the upstream one). Then, in order:
1. conventions (`conventions`): a group that is a per-model convention is one rejected
   idea, its copies the members;
2. forks (`forks`): five or more copies in one module of another module's definitions
   are one finding at the top of the module;
3. classes (`classes`): a class repeating methods of one other class is one finding at
   the class;
4. function pairs (`pairs`): blocks of one function copied from one other function are one
   finding at the first block;
5. groups (`grouped`): the copies of a group left are one finding at the first of them
   (its rejected copies another), the others its members; one copy left keeps its own
   message and id.
A copy that the baseline or the keep list holds stays alone (its own message, which
is then held), so a baseline written one message per copy never brings it back inside
a new finding. With `omni-granularity=member` every copy is its own message again,
nothing folded. Computed once per index state, thresholds and enabled upstream check.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Callable

from pylint_omni.copies.classes import class_copies, class_finding
from pylint_omni.copies.conventions import convention
from pylint_omni.copies.doubts import as_reported, kept_copy_lowered
from pylint_omni.copies.forks import boilerplate, fork_finding, forks
from pylint_omni.copies.grouped import generic, group_finding
from pylint_omni.copies.groups import Thresholds
from pylint_omni.copies.members import Member
from pylint_omni.copies.pairs import function_pairs, pair_finding
from pylint_omni.copies.project import production_fingerprints, project_copies
from pylint_omni.copies.reimplementation import Reimplementation
from pylint_omni.copies.reported import CopyFinding, Reported, alone, report
from pylint_omni.copies.verdict import Judgement
from pylint_omni.evidence.baseline import BaselineError, load_baseline
from pylint_omni.evidence.consumers import Status, Verdict, decide
from pylint_omni.evidence.findings import MemberRef
from pylint_omni.evidence.identity import finding_id
from pylint_omni.evidence.keep import keep_list
from pylint_omni.index.derived import Table
from pylint_omni.index.project_index import ProjectIndex

Upstream = dict[str, list[Reimplementation]]

_PLANS: Table[tuple[Thresholds, bool, str], dict[str, list[CopyFinding]]] = Table("copies.plan")


def _of_upstream(upstream: Upstream, member: Member) -> Reimplementation | None:
    """The high `upstream-reimplementation` finding at this very copy, if any."""
    return next((item for item in upstream.get(member.path, ()) if item.copy.line == member.line
                 and item.copy.end == member.end and item.verdict.status is Status.CANDIDATE
                 and item.verdict.confidence == "high"), None)


def _judged(index: ProjectIndex, limits: Thresholds, upstream: Upstream) -> list[tuple[Judgement, Member, Verdict]]:
    """Every copy to report, with its verdict as reported; a convention's copies rejected as one."""
    copies = project_copies(index, limits)
    files = production_fingerprints(index)
    found: list[tuple[Judgement, Member, Verdict]] = []
    for judgement in copies.judgements:
        kept_upstream = _of_upstream(upstream, judgement.kept)
        mine = [m for m in judgement.group.members[1:] if m in judgement.verdicts
                and not copies.inside_other_group(judgement, m) and _of_upstream(upstream, m) is None]
        if not mine:
            continue
        why = convention(index, judgement, files)
        for member in mine:
            verdict = kept_copy_lowered(as_reported(index, judgement, member, files.get(member.path), limits.min_statements),
                              kept_upstream)
            if why is not None and verdict.status is Status.CANDIDATE:
                verdict = decide("", rejects=[why])
            found.append((judgement, member, verdict))
    return found


def _reported(index: ProjectIndex, judged: list[tuple[Judgement, Member, Verdict]]) -> list[Reported]:
    """Each copy as reported on its own; a file's copies in line order, numbered as a per-copy run numbers findings of
    one subject and kind (`evidence.identity`)."""
    items = [report(index, judgement, member, verdict) for judgement, member, verdict in judged]
    items.sort(key=lambda item: (item.member.path, item.member.line, item.member.end))
    seen: dict[tuple[str, str], int] = {}
    numbered: list[Reported] = []
    for item in items:
        ref = item.ref
        if ref is not None:
            key = (ref.path, ref.id)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                ref = replace(ref, id=finding_id(ref.symbol, ref.subject, ref.kind, seen[key]))
        numbered.append(replace(item, ref=ref))
    return numbered


def _held(index: ProjectIndex) -> Callable[[MemberRef], bool]:
    """Whether the baseline or the keep list holds a copy back by its own id or subject."""
    try:
        known = load_baseline(index.settings.baseline) if index.settings.baseline is not None else frozenset()
    except BaselineError:
        known = frozenset()  # refused before linting started
    keep = keep_list(index.root)
    today = datetime.date.today()

    def held(ref: MemberRef) -> bool:
        entry = keep.match(ref.symbol, ref.subject, ref.id)
        return ref.id in known or (entry is not None and not entry.expired(today))
    return held


def _module_lines(index: ProjectIndex, path: str) -> int:
    return (index.text(path) or "").count("\n") + 1


def _folded(index: ProjectIndex, items: list[Reported]) -> list[CopyFinding]:
    """Forks, then classes, then function pairs, then groups (the module docstring)."""
    findings: list[CopyFinding] = []
    taken: set[int] = set()
    by_path: dict[str, list[Reported]] = {}
    for item in items:
        by_path.setdefault(item.member.path, []).append(item)
    for path, mine in sorted(by_path.items()):
        module = index.entries.get(path, {}).get("module", "")
        eligible = [i for i in mine if i.candidate and not boilerplate(i.judgement)]
        for other, folded in forks(index, path, _module_lines(index, path), eligible).items():
            text, verdict, details = fork_finding(path, module, other, folded)
            at = Member(path, "module", module, 1, _module_lines(index, path), 0, 0, 0)
            findings.append(CopyFinding(at, verdict, text, details))
            taken.update(id(item) for item in folded)
    for found in class_copies(index, [i for i in items if id(i) not in taken and i.candidate]):
        findings.append(class_finding(index, found))
        taken.update(id(item) for item in found.items)
    for blocks in function_pairs([i for i in items if id(i) not in taken]):
        findings.append(pair_finding(index, blocks))
        taken.update(id(item) for item in blocks)
    by_group: dict[int, list[Reported]] = {}
    for item in items:
        if id(item) not in taken:
            by_group.setdefault(id(item.judgement), []).append(item)
    for group in by_group.values():
        order = {id(m): n for n, m in enumerate(group[0].judgement.group.members)}
        group.sort(key=lambda item: order[id(item.member)])
        for part in _changes(group):
            findings.append(alone(part[0]) if len(part) == 1 else group_finding(index, part[0].judgement, part))
    return findings


def _changes(group: list[Reported]) -> list[list[Reported]]:
    """The copies of one group by the change each asks for: the candidates sharing it, those whose own fix is another
    change (one per fix: retire a legacy file, delete the copies nobody calls), and the rejected ones."""
    parts: dict[str, list[Reported]] = {}
    for item in group:
        key = "" if item.candidate and generic(item) else item.fix if item.candidate else "\x00rejected"
        parts.setdefault(key, []).append(item)
    return list(parts.values())


def _plan(index: ProjectIndex, limits: Thresholds, upstream: Upstream) -> dict[str, list[CopyFinding]]:
    items = _reported(index, _judged(index, limits, upstream))
    if index.settings.per_member:
        findings = [alone(item) for item in items]
    else:
        held = _held(index)
        findings = [alone(item) for item in items if item.ref is not None and held(item.ref)]
        findings += _folded(index, [item for item in items if item.ref is None or not held(item.ref)])
    by_path: dict[str, list[CopyFinding]] = {}
    for finding in findings:
        by_path.setdefault(finding.at.path, []).append(finding)
    for found in by_path.values():
        found.sort(key=lambda f: (f.at.line, f.at.end))
    return by_path


def copy_plan(index: ProjectIndex, limits: Thresholds, upstream: Upstream, upstream_on: bool) -> dict[str, list[CopyFinding]]:
    """What the family emits in each file (once per index state, thresholds and whether upstream copies are
    reported by `upstream-reimplementation`)."""
    key = (limits, upstream_on, index.settings.granularity)
    return _PLANS.of(index, key, lambda: _plan(index, limits, upstream if upstream_on else {}))
