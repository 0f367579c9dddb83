"""The words of a change set: its one message, and the report entry that lists its members.

Counts and lists are generated from the members, never joined by hand: the names shown
and the "and N more" always add up to the count.
"""

from __future__ import annotations

from pylint_omni.changes.model import Member
from pylint_omni.evidence.benefit import Benefit, BenefitKind, Heat
from pylint_omni.evidence.consumers import Verdict
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.memo import Planned
from pylint_omni.evidence.wording import evidence_clause, short_message

MAX_NAMED = 3  # names shown before 'and N more'


def named(names: list[str], most: int = MAX_NAMED) -> str:
    """`a, b, c and 2 more`: the first `most` names, then how many are not shown (they add up to `len(names)`)."""
    shown = names[:most]
    rest = len(names) - len(shown)
    if rest <= 0:
        return ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1] if shown else ""
    return ", ".join(shown) + f" and {rest} more"


def counted(count: int, noun: str) -> str:
    """`1 method`, `3 methods`, `2 entries`."""
    if count == 1:
        return f"1 {noun}"
    plural = noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"
    return f"{count} {plural}"


def member_surface(members: list[Member]) -> list[str]:
    """Every surface line of the members' own details, in member order, each once."""
    lines: list[str] = []
    for member in members:
        details = member.details
        for item in (details.surface if details is not None else [f"{member.path}:{member.line} {member.dotted}"]):
            if item not in lines:
                lines.append(item)
    return lines


def member_names(members: list[Member]) -> list[str]:
    names: list[str] = []
    for member in members:
        for name in (member.details.names if member.details is not None else []):
            if name not in names:
                names.append(name)
    return names


def change_planned(
    root: tuple[str, int, str],
    what: str,
    fix: str,
    verdict: Verdict,
    members: list[Member],
    entry: tuple[str, str, str],
    gain: tuple[int, BenefitKind, str, Heat, str],
    extra_surface: tuple[str, ...] = (),
    extra_names: tuple[str, ...] = (),
) -> Planned:
    """The one message of a change set and its report entry.

    `root` is (symbol, line, anchor); `entry` is (subject, kind, simplification); `gain`
    is (lines, benefit kind, benefit text, heat, heat reason).
    """
    symbol, line, anchor = root
    subject, kind, simplification = entry
    lines, benefit_kind, benefit_text, heat, heat_reason = gain
    text = short_message(what, fix, evidence_clause(verdict))
    proof = "; ".join(dict.fromkeys(m.details.proof for m in members if m.details is not None and m.details.proof))
    details = FindingDetails(
        [*member_surface(members), *extra_surface], simplification,
        Benefit(lines, benefit_kind, benefit_text, heat=heat, heat_reason=heat_reason, scope=subject.rpartition(".")[2]),
        members[0].details.risk if members[0].details is not None else "",
        [*member_names(members), *extra_names], proof=proof or verdict.reason, subject=subject, kind=kind,
        members=tuple(m.ref() for m in members))
    return Planned(symbol, line, anchor, (text,), verdict, details)
