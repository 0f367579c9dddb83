"""One copy as it is reported on its own, and one finding of the family as its checker emits it.

`Reported` is a copy after its group's kept one with the verdict the message gives
(`doubts.as_reported`), its fix, its own message and details, and the member it is in
a folded finding (`MemberRef`: the id a one-message-per-copy run gives it). A
`CopyFinding` is what the checker emits in one file: at a copy, a class or a module.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylint_omni.copies.keeper import inherited_copy, shared_base
from pylint_omni.copies.members import Member
from pylint_omni.copies.verdict import Judgement
from pylint_omni.copies.wording import copy_fix, details, message
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.findings import FindingDetails, MemberRef
from pylint_omni.evidence.identity import finding_id
from pylint_omni.index.project_index import ProjectIndex

SYMBOL = "duplicated-implementation"


@dataclass(frozen=True)
class Reported:
    """One copy as it would be reported on its own."""

    judgement: Judgement
    member: Member
    verdict: Verdict
    fix: str = ""
    text: str = ""
    details: FindingDetails | None = None
    ref: MemberRef | None = None

    @property
    def candidate(self) -> bool:
        return self.verdict.status is Status.CANDIDATE

    @property
    def high(self) -> bool:
        return self.candidate and self.verdict.confidence == "high"

    @property
    def saved(self) -> int:
        return self.judgement.saved(self.member)


@dataclass(frozen=True)
class CopyFinding:
    """One message of the family in one file: `at` is the copy, class or module it is emitted at."""

    at: Member
    verdict: Verdict
    text: str
    details: FindingDetails | None
    # (path, first, last) of the copy a pair's reported one repeats: when dead code that a change deletes holds it,
    # no second copy is left to share with, and this finding goes with that change (a group of three keeps two).
    partners: tuple[tuple[str, int, int], ...] = ()


def _identical_to(judgement: Judgement, member: Member):  # type: ignore[no-untyped-def]
    """Whether another copy of the group is the same code as `member` (both identical to the kept one)."""
    return lambda other: other.exact == member.exact or (judgement.identical(other) and judgement.identical(member))


def report(index: ProjectIndex, judgement: Judgement, member: Member, verdict: Verdict, ordinal: int = 1) -> Reported:
    """The copy with its message, details and member ref; `ordinal`: how many findings of the same subject and kind
    its file holds up to it, as a one-message-per-copy run counts them (`evidence.identity`)."""
    module = index.entries.get(member.path, {}).get("module", "")
    home = shared_base(index, judgement.group.members, member)
    inherited = None if judgement.overrides else inherited_copy(
        index, judgement.group.members, member, _identical_to(judgement, member))
    fix = copy_fix(judgement, member, verdict, home, inherited)
    text = message(judgement, member, verdict, home, inherited)
    found = details(judgement, member, module)
    ref = MemberRef(SYMBOL, found.kind, found.subject, finding_id(SYMBOL, found.subject, found.kind, ordinal), member.path,
                    member.line, found.benefit.lines or member.lines, verdict.confidence if verdict.status is Status.CANDIDATE
                    else None, text)
    return Reported(judgement, member, verdict, fix, text, found, ref)


def alone(item: Reported) -> CopyFinding:
    """The copy's own message (a group with one reported copy, or a run of one message per copy)."""
    kept = item.judgement.kept
    pair = len(item.judgement.group.members) == 2  # three copies leave two when the kept one goes
    return CopyFinding(item.member, item.verdict, item.text, item.details, ((kept.path, kept.line, kept.end),) if pair else ())
