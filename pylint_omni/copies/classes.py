"""A class that repeats another class's methods: one change at the class, not one per method.

When class B holds copies of at least `CLASS_COPIES` methods of one other class A, or
of more than half of its own methods, the decision is one — derive B from A or give
both a shared base, the differences as parameters — so its method copies fold into one
finding at class B, listing them as members (`forks` is the same idea one level up: a
module holding five or more copies of another's definitions). A copy counts for the
class whose method its group keeps; each folds into one class finding at most, the
pair of classes with the most copies first, and two
classes holding copies of each other's methods are one finding ("A and B share N
methods": move them into a base both derive from). A class that already has a base
is told to share a base, not to derive from the other class. A subclass of A whose
copies override A's methods is told to delete the overrides or keep only what they
change. High only when every folded copy is; a copy that differs in behaviour (`kinds`)
makes the fix "share a base holding the part they share", never "the differences as
parameters".
"""

from __future__ import annotations

from dataclasses import dataclass

from pylint_omni.changes.wording import counted, named
from pylint_omni.copies.grouped import RISK, generic, hottest, verdict_of
from pylint_omni.copies.members import Member
from pylint_omni.copies.reported import CopyFinding, Reported
from pylint_omni.copies.wording import said, short_path
from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import short_message
from pylint_omni.index.project_index import ProjectIndex

CLASS_COPIES = 2  # method copies of one other class that make the class itself the copy to share


@dataclass(frozen=True)
class ClassCopy:
    """Class `at` repeating methods of the class `of` (both as class members: path, qualified name, lines)."""

    at: Member
    of: Member
    items: list[Reported]  # the method copies: those of `at`, then those of `of` (copies of `at`'s methods)
    based: bool = False  # `at` already derives from a base: deriving it from `of` instead would change what it is


def _class(index: ProjectIndex, path: str, qual: str) -> tuple[Member, int, bool] | None:
    """The class as a member to emit at, how many methods it defines, and whether it already has a base."""
    data = next((c for c in index.facts(path).get("classes", []) if c.get("qual", c["name"]) == qual), None)
    if data is None:
        return None
    based = any(b not in ("object", "ABC", "abc.ABC") for b in data.get("bases", []))
    return Member(path, "class", qual, int(data["line"]), int(data["end"]), 0, 0, 0), len(data.get("methods", [])), based


Pair = tuple[tuple[str, str], tuple[str, str]]


def _pairs(items: list[Reported]) -> dict[Pair, list[Reported]]:
    """(class, other class) -> the method copies of the first whose group keeps the second's method."""
    pairs: dict[Pair, list[Reported]] = {}
    for item in items:
        member = item.member
        if not item.candidate or member.kind != "method" or "." not in member.qual or not generic(item):
            continue
        own, kept = (member.path, member.qual.rpartition(".")[0]), item.judgement.kept
        other = (kept.path, kept.qual.rpartition(".")[0])
        if kept.kind == "method" and "." in kept.qual and other != own:
            pairs.setdefault((own, other), []).append(item)
    return pairs


def class_copies(index: ProjectIndex, items: list[Reported]) -> list[ClassCopy]:
    """The classes whose method copies fold into one finding (see the module docstring); `items`: candidates.

    Two classes holding copies of each other's methods (each group keeps the copy it prefers) are one change: the
    copies of both go into one finding, at the class that holds more of them."""
    pairs = _pairs(items)
    found: list[ClassCopy] = []
    folded: set[int] = set()
    done: set[frozenset[tuple[str, str]]] = set()
    for (mine, theirs), candidates in sorted(pairs.items(), key=lambda pair: (-len(pair[1]), pair[0])):
        if frozenset((mine, theirs)) in done:
            continue
        copies = [item for item in candidates if id(item) not in folded]
        back = [item for item in pairs.get((theirs, mine), []) if id(item) not in folded and item not in copies]
        here, there = _class(index, *mine), _class(index, *theirs)
        if here is None or there is None:
            continue
        overrides = any(item.judgement.overrides for item in copies + back)
        if not (len(copies) + len(back) >= CLASS_COPIES or (2 * len(copies) > here[1] and not back and not overrides)):
            continue
        done.add(frozenset((mine, theirs)))
        copies.sort(key=lambda item: item.member.line)
        back.sort(key=lambda item: item.member.line)
        found.append(ClassCopy(here[0], there[0], copies + back, here[2]))
        folded.update(id(item) for item in copies + back)
    return found


def _fix(found: ClassCopy) -> str:
    items = found.items
    name = found.of.qual.rpartition(".")[2]
    judgements = [item.judgement for item in items]
    behaviour = [item for item in items if item.judgement.behaviour(item.member)]
    if all(j.overrides for j in judgements):
        if all(j.identical(i.member) for j, i in zip(judgements, items)):
            return "delete the overrides: the inherited methods do the same"
        return "keep only what each override changes and call super()"
    if behaviour:
        return (f"share a base holding only the part they share: {counted(len(behaviour), 'method')} "
                f"{'differs' if len(behaviour) == 1 else 'differ'} in behaviour")
    both = any(item.member.path != found.at.path or not item.member.qual.startswith(found.at.qual + ".") for item in items)
    derive = "move them into a base both classes derive from" if both or found.based else f"derive it from {name} or share a base"
    if all(j.identical(i.member) for j, i in zip(judgements, items)):
        return derive
    return f"{derive}, the differences as parameters"


def class_finding(index: ProjectIndex, found: ClassCopy) -> CopyFinding:
    """The message, verdict and details of one class repeating another's methods."""
    at, of, items = found.at, found.of, found.items
    verdict = verdict_of(items)
    lines = sum(item.saved for item in items)
    methods = [item.member.qual.rpartition(".")[2] for item in items]
    name, other = at.qual.rpartition(".")[2], of.qual.rpartition(".")[2]
    place = f"{other} ({short_path(of.path, at.path)}:{of.line})" if of.path != at.path else f"{other} (line {of.line})"
    mutual = any(not item.member.qual.startswith(at.qual + ".") or item.member.path != at.path for item in items)
    what = (f"{name} and {place} share {counted(len(items), 'method')} ({named(methods)})" if mutual
            else f"{name} repeats {counted(len(items), 'method')} ({named(methods)}) of {place}")
    same = sum(1 for item in items if item.judgement.identical(item.member))
    if verdict.confidence == "high":
        reason = said(items[0].judgement, items[0].member, items[0].verdict)
    else:
        differing = next((item for item in items if item.judgement.behaviour(item.member)), None)
        shown = (f"{differing.member.qual.rpartition('.')[2]}: {said(differing.judgement, differing.member, differing.verdict)}"
                 if differing is not None else verdict.reason)
        reason = f"{same} identical, {len(items) - same} drifted; {shown}"
    text = short_message(what, _fix(found), f"{reason}; {lines} lines go", keep_last=True)
    module = index.entries.get(at.path, {}).get("module", "")
    other_module = index.entries.get(of.path, {}).get("module", "")
    surface = [f"{at.label} (the class)", f"{of.label} (the class it repeats)",
               *(f"{item.member.label} (copy of {item.judgement.kept.label}; {item.verdict.confidence or 'rejected'}: "
                 f"{item.verdict.reason})" for item in items)]
    drift = "; ".join(f"{item.member.qual.rpartition('.')[2]} differs in {item.judgement.drift_text(item.member)}"
                      for item in items if not item.judgement.identical(item.member))
    simplification = (f"Make {name} reuse the {counted(len(items), 'method')} it repeats from {other} ({of.path}:{of.line}): "
                      f"derive it from {other}, or move them into a base both derive from" + (f"; {drift}" if drift else "") + ".")
    benefit = Benefit(lines, BenefitKind.COPIES, f"{lines} lines in {counted(len(items), 'method')} of {name} "
                      f"repeating {other}", hottest([item.member for item in items]))
    details = FindingDetails(surface, simplification, benefit, RISK, [name, other, *methods],
                             proof="; ".join(dict.fromkeys(item.verdict.reason for item in items)),
                             subject=f"{module}.{at.qual}:copies-of:{other_module}.{of.qual}", kind="class-copies",
                             members=tuple(item.ref for item in items if item.ref is not None))
    return CopyFinding(at, verdict, text, details, ((of.path, of.line, of.end),))
