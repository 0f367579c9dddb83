"""A module that is a fork of another: many copy groups linking the same two files, one finding.

When five or more copies in one module repeat definitions one other module holds too
(a connector forked into a "hybrid" variant, a model file copied and edited), the
decision is one — merge the fork back, or share the common part — not one per
function. The copies are folded into a single finding at the top of the module that
lists them; it is high only when every folded copy is (identical, not copied on
purpose), and its benefit is the lines sharing deletes at them all.
A definition copied into `BOILERPLATE_MODULES` modules or more (`load_weights`,
`compute_logits` in every model file) is per-model boilerplate, not a sign of a fork:
it does not count towards one and stays reported on its own.
"""

from __future__ import annotations

import re

from pylint_omni.changes.wording import counted, named
from pylint_omni.copies.reported import Reported
from pylint_omni.copies.verdict import Judgement
from pylint_omni.copies.wording import heat, short_path
from pylint_omni.evidence.benefit import Benefit, BenefitKind, Heat
from pylint_omni.evidence.consumers import Status, Verdict, decide
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import short_message
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.vocabulary import Vocabulary

FORK_COPIES = 5  # copies of one other module's definitions before the module counts as its fork
BOILERPLATE_MODULES = 5  # modules holding copies of one definition: per-model boilerplate
# Suffixes naming a kernel, numeric or version variant kept apart on purpose (`_simt`, `_legacy`, `_fp8`); a platform
# of the vocabulary (`_a5`, `_310p`) is one too.
VARIANT_TAG = re.compile(r"^(?:a\d+|\d{3}\w?|simt|simd|triton|cpu|legacy|old|v\d+|fp8|int8|w8a8)$")


def forks(index: ProjectIndex, relpath: str, module_lines: int, reported: list[Reported]) -> dict[str, list[Reported]]:
    """Other module's path -> the copies of its definitions here, for the modules this one forks.

    A copy here counts for every other module its group has a copy in, whichever copy the
    group keeps (the kept one of a definition may lie in a third module); each copy is
    folded into one fork at most, the other module with the most copies first. Not a fork:
    a module whose classes subclass the other's (its copies are overrides), a variant named
    after the other (`attn_a5.py` beside `attn.py`: a hardware or algorithm variant kept
    apart on purpose), or copies that are under a tenth of the module or mostly one method
    (one big copy, reported as such)."""
    by_other: dict[str, list[Reported]] = {}
    for item in reported:
        if item.verdict.status is Status.CANDIDATE and item.member.kind != "module" and not boilerplate(item.judgement):
            for other in dict.fromkeys(m.path for m in item.judgement.group.members if m.path != relpath):
                by_other.setdefault(other, []).append(item)
    found: dict[str, list[Reported]] = {}
    folded: set[int] = set()
    for other, candidates in sorted(by_other.items(), key=lambda pair: (-len(pair[1]), pair[0])):
        items = [item for item in candidates if id(item) not in folded]
        if len(items) < FORK_COPIES:
            continue
        lines = sum(item.member.lines for item in items)
        biggest = max(sum(i.member.lines for i in items if i.member.qual == item.member.qual) for item in items)
        if (10 * lines >= module_lines and 10 * biggest <= 6 * lines
                and not _variant(relpath, other, index.settings.vocabulary) and not _subclasses(index, relpath, other)):
            found[other] = items
            folded.update(id(item) for item in items)
    return found


def boilerplate(judgement: Judgement) -> bool:
    """The group's copies lie in `BOILERPLATE_MODULES` modules or more: a per-model pattern, not one module's fork."""
    return len({m.path for m in judgement.group.members}) >= BOILERPLATE_MODULES


def _variant(path: str, other: str, words: Vocabulary) -> bool:
    """`x_a5.py` beside `x.py` (or the other way round): one named as a hardware or kernel variant of the other
    (`pipeline_edit.py` beside `pipeline.py` is a model variant: a fork worth merging)."""
    mine, theirs = path.rpartition("/")[2].removesuffix(".py"), other.rpartition("/")[2].removesuffix(".py")
    longer, shorter = (mine, theirs) if len(mine) > len(theirs) else (theirs, mine)
    tag = longer[len(shorter) + 1:]
    return longer.startswith(shorter + "_") and (VARIANT_TAG.match(tag) is not None or words.is_platform(tag))


def _subclasses(index: ProjectIndex, path: str, other: str) -> bool:
    """A class of one module has a project ancestor in the other."""
    graph = class_graph(index)
    for dotted, node in graph.nodes.items():
        here = node.definition.path
        if here in (path, other):
            there = other if here == path else path
            if any(graph.nodes[a].definition.path == there for a in graph.ancestors(dotted) if a in graph.nodes):
                return True
    return False


def fork_finding(relpath: str, module: str, other: str, items: list[Reported]) -> tuple[str, Verdict, FindingDetails]:
    """The message, verdict and details of one fork."""
    lines = sum(item.judgement.saved(item.member) for item in items)
    identical = [item for item in items if item.verdict.confidence == "high"]
    blocks: dict[str, int] = {}  # several blocks of one function are named once, with their number
    for item in items:
        unit = item.member.qual + ("()" if item.member.kind in ("function", "method", "block") else "")
        blocks[unit] = blocks.get(unit, 0) + 1
    units = [unit + (f" ({n} blocks)" if n > 1 else "") for unit, n in blocks.items()]
    reason = f"{len(identical)} identical, {len(items) - len(identical)} drifted"
    drifted = len(identical) < len(items)
    verdict = decide(reason, doubts=[reason] if drifted else [],
                     unknowns=["whether the drifted copies differ on purpose"] if drifted else None)
    differing = [item for item in items if item.judgement.behaviour(item.member)]
    fix = ("merge the fork back, or move the shared part into one module both use" if not differing else
           f"move only the shared part into one module both use: {counted(len(differing), 'copy')} "
           f"{'differs' if len(differing) == 1 else 'differ'} in behaviour")
    text = short_message(f"{short_path(relpath)} forks {short_path(other, relpath)}: {counted(len(items), 'copy')} "
                         f"({named(units)})", fix, f"{reason}; {lines} lines go")
    surface = [f"{item.member.label} (copy of {item.judgement.kept.label}; {item.verdict.confidence}: {item.verdict.reason})"
               for item in items]
    heats = {heat(item.member) for item in items}
    hottest = Heat.HOT if Heat.HOT in heats else Heat.UNKNOWN if Heat.UNKNOWN in heats else Heat.COLD
    benefit = Benefit(lines, BenefitKind.COPIES, f"{lines} lines in {len(items)} copies of {other}", hottest)
    details = FindingDetails(
        surface, f"Make {relpath} reuse {other} (or both a shared module) instead of keeping {len(items)} copies.", benefit,
        "A fork often exists to change a few things on purpose: list what the drifted copies change before merging.",
        [item.member.qual.rpartition(".")[2] for item in items], subject=f"{module}:fork:{other}", kind="fork",
        members=tuple(item.ref for item in items if item.ref is not None))
    return text, verdict, details
