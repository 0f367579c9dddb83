"""Blocks of one function copied from one other function: one change, not one finding per block.

accelerate's `prepare_deepspeed_cmd_env()` repeats two blocks of `prepare_multi_gpu_env()`
(the port check, the device ladder), each found as its own pair: four findings for what a
maintainer fixes in one pull request (helpers the two functions share). Two or more
candidate block copies whose groups are pairs, each between the same two functions, fold
into one finding at the first of them; the blocks are its members. A block too small to
extract on its own lowers nothing beside a high one: together they are worth the helpers.
"""

from __future__ import annotations

from pylint_omni.changes.wording import counted, named
from pylint_omni.copies.doubts import SMALL_BLOCK
from pylint_omni.copies.grouped import RISK, differing, hottest, verdict_of
from pylint_omni.copies.members import Member
from pylint_omni.copies.reported import CopyFinding, Reported
from pylint_omni.copies.wording import said, short_path
from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import short_message
from pylint_omni.index.project_index import ProjectIndex

MIN_BLOCKS = 2  # block pairs between the same two functions before they are one change

Unit = tuple[str, str]  # (path, qualified name) of the function a block lies in


def function_pairs(items: list[Reported]) -> list[list[Reported]]:
    """Candidate block copies folded by the two functions they join (see the module docstring), first block first."""
    by_pair: dict[tuple[Unit, Unit], list[Reported]] = {}
    for item in items:
        members = item.judgement.group.members
        kept = item.judgement.kept
        if item.member.kind != "block" or len(members) != 2 or kept.kind != "block" or not item.candidate:
            continue
        mine, theirs = (item.member.path, item.member.qual), (kept.path, kept.qual)
        if mine != theirs:
            by_pair.setdefault((mine, theirs), []).append(item)
    return [sorted(found, key=lambda i: i.member.line) for _, found in sorted(by_pair.items())
            if len({id(i.judgement) for i in found}) >= MIN_BLOCKS]


def _lines(members: list[Member]) -> str:
    return named([f"{m.line}-{m.end}" for m in members])


def pair_finding(index: ProjectIndex, items: list[Reported]) -> CopyFinding:
    """The finding of the blocks one function copies from another (`function_pairs`)."""
    first = items[0].member
    kept = [item.judgement.kept for item in items]
    source = kept[0]
    # A block too small to extract alone is no doubt once it goes with a bigger one into the same change.
    sized = [i for i in items if i.high or not (i.candidate and i.verdict.reason.startswith(SMALL_BLOCK))]
    verdict = verdict_of(sized if any(i.high for i in items) else items)
    saved = sum(item.saved for item in items)
    behaviour = [item for item in items if differing(item.judgement, [item])]
    place = "" if source.path == first.path else f" ({short_path(source.path, first.path)})"
    what = (f"{first.qual}() repeats {counted(len(items), 'block')} of {source.qual}(){place}: lines {_lines([i.member for i in items])} "
            f"copy lines {_lines(kept)}")
    fix = ("extract only the parts they share into helpers both call" if behaviour
           else f"extract {'one helper' if len(items) == 1 else f'{len(items)} helpers'} both functions call")
    shown = (behaviour or [i for i in items if i.high] or items)[0]
    evidence = f"{said(shown.judgement, shown.member, shown.verdict)}; {saved} lines go"
    text = short_message(what, fix, evidence, keep_last=True)
    change = (f"Extract the blocks {first.qual}() and {source.qual}() share into helpers both call"
              + ("; " + "; ".join(f"lines {i.member.line}-{i.member.end} differ in {i.judgement.drift_text(i.member)}"
                                  for i in behaviour) if behaviour else "") + ".")
    module = index.entries.get(source.path, {}).get("module", "")
    benefit = Benefit(saved, BenefitKind.COPIES, f"{saved} lines over {counted(len(items), 'block')} of {first.qual}() "
                      f"copied from {source.qual}()", hottest([i.member for i in items]))
    surface = [*(f"{item.member.label} ({item.verdict.confidence}: {item.verdict.reason})" for item in items),
               *(f"{k.label} (kept)" for k in kept)]
    details = FindingDetails(surface, change, benefit, RISK,
                             list(dict.fromkeys([source.qual.rpartition(".")[2], first.qual.rpartition(".")[2]])),
                             proof="; ".join(dict.fromkeys(i.verdict.reason for i in items)),
                             subject=f"{module}.{source.qual}:blocks-of:{first.qual}", kind="copies",
                             members=tuple(item.ref for item in items if item.ref is not None))
    return CopyFinding(first, verdict, text, details)
