"""The one finding of a copy group: its reported copies folded into the change that shares them.

A group with one copy reported keeps that copy's own message (and its id). With
several, one message at the first of them (in the group's order: the kept copy first,
then the others by the project's preference) names the others and the kept copy,
proposes one fix for them all and counts the lines that go at them all; the copies are
its members, each with the id a one-message-per-copy run gives it. A copy whose drift
changes behaviour (`kinds`) makes the fix "extract the part they share", never "share
one"; the candidates of a group are one finding, its rejected copies another.
"""

from __future__ import annotations

from pylint_omni.changes.wording import counted, named
from pylint_omni.copies.keeper import shared_base
from pylint_omni.copies.members import Member
from pylint_omni.copies.reported import CopyFinding, Reported
from pylint_omni.copies.verdict import Judgement
from pylint_omni.copies.wording import heat, name_of, reference, said, short_path, where
from pylint_omni.evidence.benefit import Benefit, BenefitKind, Heat
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import short_message
from pylint_omni.index.project_index import ProjectIndex

RISK = ("A difference between the copies may be deliberate (a model, a backend, a lifecycle): check each difference "
        "named here, then run the tests of every copy's callers.")
SHARED_FIXES = ("keep one and call it here", "extract one helper both call", "share it via a base class or mixin",
                "share one, ", "delete the override", "keep only the differing lines", "extract only the part")
OWN_WORDS = ("keep one and call it here", "extract one helper both call", "delete the override", "keep only the differing",
             "extract only the part")  # a copy's fix worded for one copy: the group words its own


def verdict_of(items: list[Reported]) -> Verdict:
    """High when every copy is; else medium with the first doubt; a group of rejected copies is rejected."""
    if all(not item.candidate for item in items):
        return Verdict(Status.REJECTED, None, items[0].verdict.reason)
    if all(item.high for item in items):
        return Verdict(Status.CANDIDATE, "high", items[0].verdict.reason)
    doubtful = next(item for item in items if not item.high)
    unknowns = list(dict.fromkeys(u for item in items for u in item.verdict.unknowns))
    return Verdict(Status.CANDIDATE, "medium", doubtful.verdict.reason, unknowns=unknowns or [doubtful.verdict.reason])


def hottest(members: list[Member]) -> Heat:
    heats = {heat(m) for m in members}
    return Heat.HOT if Heat.HOT in heats else Heat.UNKNOWN if Heat.UNKNOWN in heats else Heat.COLD


def differing(judgement: Judgement, items: list[Reported]) -> list[Reported]:
    """The copies whose drift changes behaviour."""
    return [item for item in items if judgement.behaviour(item.member)]


def generic(item: Reported) -> bool:
    """The copy's fix is the group's change (share it), not one of its own (retire a legacy file, a mixin, delete
    copies nobody calls, keep an override that skips a nearer version): such a copy is a change apart."""
    if item.fix.startswith("delete the override: the inherited"):
        return False  # the override of a copy the class inherits: deleting it is a change of its own
    return item.fix.startswith(SHARED_FIXES) or item.fix.endswith(", which both classes derive from")


def fold_fix(index: ProjectIndex, judgement: Judgement, items: list[Reported]) -> str:
    """One fix for every copy of the group reported here."""
    fixes = list(dict.fromkeys(item.fix for item in items))
    if len(fixes) == 1 and not fixes[0].startswith(OWN_WORDS) and not fixes[0].endswith("which both classes derive from"):
        return fixes[0]  # the same for every copy: a doubt's own fix, the state or code passed in, share one
    count = len(items)
    identical = all(judgement.identical(item.member) for item in items)
    behaviour = differing(judgement, items)
    if judgement.overrides:
        return f"delete the {count} overrides" if identical else "keep only what each override changes and call super()"
    if behaviour:
        return "extract only the part they share" + (" into one helper" if judgement.kept.kind == "block" else "")
    kept = judgement.kept
    if kept.kind == "block":
        return f"extract one helper the {count + 1} places call"
    if not identical:
        return "share one, the differences as parameters"
    home = shared_base(index, judgement.group.members, items[0].member)
    if home and all(item.member.kind == "method" for item in items):
        return f"move it into {home}, which their classes derive from"
    if kept.kind == "method" and any(item.fix == "share it via a base class or mixin" for item in items):
        return "share it via a base class or mixin"
    if kept.kind == "class":
        return f"keep {name_of(kept)} and import it where the {count} copies are"
    return f"keep {name_of(kept)} and call it from the {count} copies"


def _named_copies(items: list[Reported]) -> str:
    """`f() and g() (b.py)` for two copies; `f() and 3 other copies (b.py, c.py and d.py)` for more: the first by its
    name (the message's line), the others by their file (their name when in the same file)."""
    first = items[0].member
    head = f"lines {first.line}-{first.end}" if first.kind == "block" else name_of(first)
    head = "L" + head[1:] if head.startswith("lines ") else head
    others = [item.member for item in items[1:]]
    if len(others) == 1:
        other = others[0]
        return f"{head} and {name_of(other)}" + ("" if other.path == first.path else f" ({short_path(other.path)})")
    places = [name_of(m) if m.path == first.path else place for m, place in zip(others, _places([m.path for m in others]))]
    return f"{head} and {counted(len(others), 'other copy')} ({named(places)})"


def _places(paths: list[str]) -> list[str]:
    """Each path by its shortest tail no other path shares (`b.py`, `llama/layer_infer/pre.py`)."""
    found = []
    for path in paths:
        parts = path.split("/")
        depth = 1
        while depth < len(parts) and any(other != path and other.endswith("/" + "/".join(parts[-depth:])) for other in paths):
            depth += 1
        found.append("/".join(parts[-depth:]))
    return found


def _relation(judgement: Judgement, items: list[Reported]) -> str:
    if judgement.overrides:
        return "override with copies of"
    same = sum(1 for item in items if judgement.identical(item.member))
    return "repeat" if same == len(items) else "drifted from" if same == 0 else "copy"


def _evidence(judgement: Judgement, items: list[Reported], verdict: Verdict, lines: int) -> str:
    if verdict.status is Status.REJECTED:
        return f"rejected: {verdict.reason}"
    count = len(judgement.group.members)
    same, drifted = judgement.tally()
    head = f"{count} copies" + (f": {same} identical, {drifted} drifted" if same >= 2 and drifted else "")
    shown = (differing(judgement, items) or [item for item in items if not item.high] or items)[0]
    return f"{head}; {said(judgement, shown.member, shown.verdict)}; {lines} lines go"


def group_finding(index: ProjectIndex, judgement: Judgement, items: list[Reported]) -> CopyFinding:
    """The finding of several reported copies of one group, at the first of them."""
    first, kept = items[0].member, judgement.kept
    verdict = verdict_of(items)
    lines = sum(item.saved for item in items)
    what = f"{_named_copies(items)} {_relation(judgement, items)} {reference(kept, first.path)}"
    fix = fold_fix(index, judgement, items)
    text = short_message(what, fix, _evidence(judgement, items, verdict, lines), keep_last=True)
    behaviour = differing(judgement, items)
    if behaviour:
        change = (f"Extract only what {where(kept)} and the {counted(len(items), 'copy')} share into one helper, or keep "
                  f"them apart: " + "; ".join(f"{name_of(i.member)} differs in {judgement.drift_text(i.member)}" for i in behaviour))
    elif judgement.overrides:
        change = f"Delete or trim the {counted(len(items), 'override')} of {where(kept)}, calling super() for what they repeat"
    else:
        change = f"Keep {where(kept)} and make the {counted(len(items), 'copy')} use it"
    drifted = [i for i in items if not judgement.identical(i.member) and i not in behaviour]
    if drifted:
        change += "; " + "; ".join(f"{name_of(i.member)} differs in {judgement.drift_text(i.member)}" for i in drifted)
    module = index.entries.get(kept.path, {}).get("module", "")
    same, drift = judgement.tally()
    benefit = Benefit(lines, BenefitKind.COPIES, f"{lines} lines over the {counted(len(items), 'copy')} reported here, in a "
                      f"group of {len(judgement.group.members)} {judgement.group.tier} {judgement.group.kind} copies "
                      f"({same} identical, {drift} drifted)", hottest([i.member for i in items]))
    surface = [*(item.member.label + f" ({item.verdict.confidence or 'rejected'}: {item.verdict.reason})" for item in items),
               f"{kept.label} (kept)"]
    surface += [f"{m.label} (reported apart)" for m in judgement.group.members[1:] if all(m is not i.member for i in items)]
    subject = f"{module}.{kept.qual}" + (f":block:{kept.exact[:12]}" if kept.kind == "block" else "")
    details = FindingDetails(surface, change + ".", benefit, RISK,
                             list(dict.fromkeys([kept.qual.rpartition(".")[2], *(i.member.qual.rpartition(".")[2] for i in items)])),
                             proof="; ".join(dict.fromkeys(i.verdict.reason for i in items)), subject=subject,
                             kind="copies" if verdict.status is Status.CANDIDATE else "copies-rejected",
                             members=tuple(item.ref for item in items if item.ref is not None))
    # Only a pair leaves nothing to share when the kept copy goes: three copies leave two.
    alone_with_kept = len(judgement.group.members) == 2
    return CopyFinding(first, verdict, text, details, ((kept.path, kept.line, kept.end),) if alone_with_kept else ())
