"""Wording of `duplicated-implementation` and `upstream-reimplementation`: messages and the report's details.

A message is emitted at every copy after the kept one: what this copy repeats, the
fix, and one evidence clause: how many copies the group has (how many identical, how
many drifted, and where, when it holds both), this copy's drift, and the lines sharing
deletes here. The report's details name every copy of the group, the lines sharing
would delete, and what of a block stays in its caller.
"""

from __future__ import annotations

import re

from pylint_omni.changes.wording import named
from pylint_omni.copies.doubts import (
    CALLS_SUPER,
    LEGACY_FIX,
    LEGACY_REASON,
    MIXIN_FIX,
    NEVER_CALLED,
)
from pylint_omni.copies.drift import Difference
from pylint_omni.copies.kinds import WHAT_DIFFERS
from pylint_omni.copies.members import Member
from pylint_omni.copies.reimplementation import Reimplementation
from pylint_omni.copies.verdict import Judgement
from pylint_omni.evidence.benefit import Benefit, BenefitKind, Heat
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import short_message

HOT = re.compile(r"(^|_)(forward|step|decode|sample|execute|generate|call|run|schedule|update_from_output|process)", re.I)
COLD = re.compile(r"(^|_)(init|load|setup|build|register|create|from_|config|download|warmup)", re.I)


def name_of(member: Member) -> str:
    """`Class.method()`, `function()`, `Class`, `module.py`, `lines 12-30 of method()`."""
    if member.kind == "block":
        return f"lines {member.line}-{member.end} of {member.qual}()"
    if member.kind == "module":
        return member.path.rpartition("/")[2]
    return member.qual + ("()" if member.kind in ("function", "method") else "")


def short_path(path: str, seen_from: str = "") -> str:
    """The last folder and the file, short enough for one message line; seen from another file, the
    folders from where the two paths part (`bloom/triton_kernel/x.py` beside `llama/triton_kernel/x.py`)."""
    parts, other = path.split("/"), seen_from.split("/") if seen_from else []
    common = 0
    while common < min(len(parts), len(other)) - 1 and parts[common] == other[common]:
        common += 1
    return "/".join(parts[min(common, len(parts) - 2):]) if other and path != seen_from else "/".join(parts[-2:])


def where(member: Member) -> str:
    """A copy as a reader finds it: its name and `path:line`."""
    if member.kind == "block":
        return f"lines {member.line}-{member.end} of {member.qual}() ({member.path})"
    if member.kind == "module":
        return member.path
    return f"{name_of(member)} ({member.path}:{member.line})"


def reference(member: Member, seen_from: str) -> str:
    """The kept copy in a message: a path short but telling, seen from the reported copy's file."""
    path = short_path(member.path, seen_from)
    if member.kind == "block":
        return f"lines {member.line}-{member.end} of {member.qual}() ({path})"
    if member.kind == "module":
        return path
    return f"{name_of(member)} ({path}:{member.line})"


def heat(member: Member) -> Heat:
    name = member.qual.rpartition(".")[2]
    if HOT.search(name):
        return Heat.HOT
    if COLD.search(name) or name.startswith("__init"):
        return Heat.COLD
    return Heat.UNKNOWN


def _fix(judgement: Judgement, member: Member, identical: bool) -> str:
    reason = judgement.verdicts[member].reason
    if reason.startswith(("each copy uses", "the module-level")):
        return "share one, the module-level state as a parameter"
    if reason.startswith(("each copy imports its own", "each copy calls its own")):
        return "share one, the code each copy runs as a parameter"
    behaviour = judgement.behaviour(member)
    if judgement.overrides:
        return "delete the override" if identical else "keep only the differing lines and call super()"
    if behaviour:
        return extract_shared(member.kind, behaviour)
    if member.kind == "block":
        return "extract one helper both call"
    if identical:
        return "keep one and call it here"
    return "share one, the differences as parameters"


def extract_shared(kind: str, behaviour: list[Difference]) -> str:
    """The fix of copies that compute something else (`kinds`): never "share one"; what differs is in the evidence."""
    return "extract only the part they share into one helper" if kind == "block" else "extract only the part they share"


def said(judgement: Judgement, member: Member, verdict: Verdict) -> str:
    """What a copy's verdict says in a message: identical, only log text, its first difference (one that changes
    behaviour first), or the doubt that lowered it."""
    found = judgement.drifts.get(member)
    first = (judgement.behaviour(member) or (found.substantive() if found else []) or
             (list(found.differences) if found else []))[:1]
    if verdict.status is Status.REJECTED:
        return "rejected: " + verdict.reason
    if verdict is not judgement.verdicts[member]:  # lowered as reported (`verdict.as_reported`): say why
        return verdict.reason.replace("differs only in message text or imports", "differs only in log or error text")
    if verdict.confidence == "high":
        return "differs only in log or error text" if verdict.reason.startswith("differs only in message") else verdict.reason
    if "vendor" in verdict.reason and first:
        return f"differs only in vendor calls, e.g. {first[0].describe()}"
    if verdict.reason.startswith(("each copy", "the module-level")):
        return verdict.reason
    behaviour = judgement.behaviour(member)
    if behaviour:
        return f"they differ in {WHAT_DIFFERS[behaviour[0].kind]}: {behaviour[0].describe()}"
    return f"drift: {first[0].describe()}" if first else verdict.reason


def _evidence(judgement: Judgement, member: Member, verdict: Verdict) -> str:
    shown = said(judgement, member, verdict)
    if verdict.status is Status.REJECTED:
        return shown
    count = len(judgement.group.members)
    same, drifted = judgement.tally()
    saved = judgement.saved(member)
    gone = f"{saved} of {member.lines} lines go" if saved != member.lines else f"{member.lines} lines go"
    if count <= 2:
        return f"{shown}; {gone}"
    if same < 2 or not drifted:
        return f"{count} copies; {shown}; {gone}"
    head = f"{count} copies: {same} identical, {drifted} drifted"
    if judgement.identical(member) and verdict.status is Status.CANDIDATE and verdict.confidence == "high":
        # where the drifted copies are; what each changes is said at it
        places = [short_path(m.path, member.path) if m.path != member.path else f"line {m.line}"
                  for m in judgement.group.members if not judgement.identical(m)]
        return f"{head}: {named(places, 1)}; {gone}"
    return f"{head}; {shown}; {gone}"


def relation(judgement: Judgement, member: Member) -> str:
    """How a copy relates to the kept one: `repeats`, `drifted from`, `overrides with a copy of`."""
    verdict = judgement.verdicts[member]
    if judgement.overrides:
        return "overrides with a copy of"
    identical = judgement.group.tier == "exact" or (verdict.status is Status.CANDIDATE and verdict.confidence == "high")
    if not identical:
        return "drifted from"
    return "repeat" if member.kind == "block" else "repeats"


def copy_fix(judgement: Judgement, member: Member, reported: Verdict, home: str | None = None,
             inherited: Member | None = None) -> str:
    """The fix of one copy; `reported` is its verdict as emitted (`doubts.as_reported`), `home` the project class
    both copies' classes derive from (`keeper.shared_base`), `inherited` the copy of the group this one overrides with
    the same body (`keeper.inherited_copy`)."""
    verdict = judgement.verdicts[member]
    identical = judgement.group.tier == "exact" or (verdict.status is Status.CANDIDATE and verdict.confidence == "high")
    behaviour = judgement.behaviour(member)
    if LEGACY_REASON in reported.reason:
        return LEGACY_FIX
    if reported.reason.startswith((CALLS_SUPER, "another class's constructor")):
        return MIXIN_FIX
    if reported.reason.startswith("it overrides "):
        return f"call {name_of(judgement.kept)} explicitly, or say why the nearer version is skipped"
    if inherited is not None:
        return f"delete the override: the inherited {name_of(inherited)} ({short_path(inherited.path, member.path)}) does the same"
    if reported.reason.startswith(NEVER_CALLED):
        return "delete the copies nobody calls"
    if home and not judgement.overrides and not behaviour:
        return f"move it into {home}, which both classes derive from"
    if member.kind == "method" and judgement.kept.kind == "method" and not judgement.overrides and identical and (
            (member.path, member.qual.rpartition(".")[0]) != (judgement.kept.path, judgement.kept.qual.rpartition(".")[0])):
        return "share it via a base class or mixin"
    return _fix(judgement, member, identical)


def message(judgement: Judgement, member: Member, reported: Verdict, home: str | None = None,
            inherited: Member | None = None) -> str:
    """The copy's message: what it repeats, its fix (`copy_fix`), and one evidence clause."""
    subject = f"Lines {member.line}-{member.end}" if member.kind == "block" else name_of(member)
    what = f"{subject} {relation(judgement, member)} {reference(judgement.kept, member.path)}"
    fix = copy_fix(judgement, member, reported, home, inherited)
    return short_message(what, fix, _evidence(judgement, member, reported), keep_last=True)


def details(judgement: Judgement, member: Member, module: str) -> FindingDetails:
    """The report's details; `module` (the copy's dotted module) names the copy for its finding id."""
    group = judgement.group
    kept = judgement.kept
    surface = [member.label, f"{kept.label} (kept)", *[m.label for m in group.members[1:] if m is not member]]
    drift = judgement.drift_text(member, limit=10)
    others = len(group.members) - 1
    if judgement.overrides:
        change = (f"Delete the override {name_of(member)}: the inherited {where(kept)} does the same" if not drift
                  else f"Keep only what {name_of(member)} changes and call super() for the rest of {where(kept)}")
    elif judgement.behaviour(member):
        change = (f"Extract only what {where(kept)} and {name_of(member)} share into one helper both call, or keep them "
                  f"apart: they differ in behaviour")
    elif member.kind == "block":
        change = f"Extract {where(kept)} into one helper and call it from the {others} other cop{'y' if others == 1 else 'ies'}"
    else:
        change = f"Keep {where(kept)} and make the {others} other cop{'y' if others == 1 else 'ies'} use it"
    claimed = group.claims.get(member)
    if claimed is not None and claimed.why:
        change += f"; {', '.join(claimed.why)} stay in {member.qual}() (a helper cannot take them over)"
    simplification = change + (f"; this copy differs in: {drift}" if drift else "") + "."
    same, drifted = judgement.tally()
    saved = judgement.saved(member)
    text = (f"{saved} of this copy's {member.lines} lines go; {judgement.saved_lines} lines over the group of "
            f"{len(group.members)} {group.tier} {group.kind} copies ({same} identical, {drifted} drifted)")
    risk = ("A difference between the copies may be deliberate (a model, a backend, a lifecycle): check each "
            "difference named here, then run the tests of every copy's callers.")
    names = [kept.qual.rpartition(".")[2], member.qual.rpartition(".")[2]]
    if member.kind == "module":
        subject = module
    else:
        subject = f"{module}.{member.qual}" + (f":block:{member.exact[:12]}" if member.kind == "block" else "")
    kind = "override" if judgement.overrides else member.kind
    return FindingDetails(surface, simplification, Benefit(saved, BenefitKind.COPIES, text, heat(member)), risk, names,
                          subject=subject, kind=kind)


def _upstream_name(found: Reimplementation) -> str:
    return f"{name_of(found.original)} of {found.package} {found.version} ({found.original.path}:{found.original.line})"


def reimplementation_message(found: Reimplementation) -> str:
    """`upstream-reimplementation`: what the copy repeats upstream, the fix, and the drift or its absence."""
    verdict = found.verdict
    same = verdict.status is Status.CANDIDATE and found.same
    if found.override:
        what = f"{name_of(found.copy)} overrides {_upstream_name(found)} with {'the same body' if same else 'a copy'}"
        fix = "delete the override" if same else "keep only the changed lines and call super()"
    elif verdict.reason.startswith("it works on its own module's"):
        what = f"{name_of(found.copy)} repeats {_upstream_name(found)} on its own module state"
        fix = "share one implementation that takes the state as a parameter"
    else:
        what = f"{name_of(found.copy)} {'reimplements' if same else 'is a drifted copy of'} {_upstream_name(found)}"
        behaviour = found.drift.behaviour() if found.drift is not None else []
        if not same and behaviour:  # another computation: reusing upstream's would change what runs
            fix = (f"it differs from the {found.package} one in {WHAT_DIFFERS[behaviour[0].kind]}: call that one for "
                   "the part they share, or keep the copy")
        elif not same:
            fix = f"reuse the {found.package} one unless the drift is deliberate"
        elif found.original.kind == "method":
            fix = f"reuse the {found.package} method (inherit it or call it)"
        elif found.copy.kind == "method":
            fix = f"import it from {found.package} (a staticmethod alias keeps the call sites)"
        else:
            fix = f"import it from {found.package}"
    said = ("rejected: " if verdict.status is Status.REJECTED else "") + verdict.reason
    return short_message(what, found.fix or fix, f"{said}; {found.copy.lines} lines go", keep_last=True)


def reimplementation_details(found: Reimplementation, module: str) -> FindingDetails:
    copy, original = found.copy, found.original
    surface = [copy.label, f"{found.upstream_place} {original.qual} (upstream)"]
    differs = "; ".join(d.describe() for d in (found.drift.substantive() if found.drift else [])[:10])
    if found.override:
        change = (f"Delete {name_of(copy)}: the inherited {_upstream_name(found)} does the same" if not differs else
                  f"Keep only what {name_of(copy)} changes in {_upstream_name(found)} and call super() for the rest")
    else:
        change = f"Use {_upstream_name(found)} instead of {name_of(copy)}"
    text = f"{copy.lines} lines of a copy of {found.upstream_place}; one fewer place to resync after an upstream upgrade"
    risk = ("Upstream may have changed since the copy was made, and the copy may pin that older behaviour on purpose: read "
            "the differences named here, then run the tests of the copy's callers.")
    return FindingDetails(
        [*surface], change + (f"; the copy differs in: {differs}" if differs else "") + ".",
        Benefit(copy.lines, BenefitKind.COPIES, text, heat(copy)), risk, [copy.qual.rpartition(".")[2]],
        subject=f"{module}.{copy.qual}", kind="upstream-override" if found.override else "upstream-copy",
    )
