"""The report's order (SPEC §6): score each candidate's benefit, bundle micro findings, pick the top.

Policy, in one place so that every reporter shows the same thing:
- a **score** per candidate (a change set: its members' lines together) from its
  `Benefit`: the lines that go, weighted by kind (state kept in sync by hand costs
  more than the same lines of code), plus, for data movement, a run-time gain scaled
  by heat (a copy on a decode step is worth far more than the same copy in
  `__init__`); a whole module counts twice; micro findings count half;
- **bundles**: micro findings of one message and one kind (`bundle`) in one file
  become one candidate ("7 no-op `.to()` calls in `x.py`: lines ..."), scored as
  their sum, so that a file full of no-ops is one line of the audit, not seven; a
  kind whose benefit says it is one `PATTERN` of the codebase, found in
  `REPEATED_IN_FILES` files or more, is one candidate across them ("33 fields naming
  the same object as another in 33 files");
- **entries** strongest first: high confidence before medium, lost features first
  among each (a decision hides behind them), then by score;
- **top candidates**: the first `TOP_LIMIT` high-confidence entries that are not compact (medium ones only
  when no entry is high);
- **compact**: medium candidates whose score stays below `COMPACT_BELOW` go to a
  short table instead of full entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from pylint_omni.evidence.benefit import Benefit, BenefitKind, Heat

TOP_LIMIT = 5  # rows of the report's top candidates
COMPACT_BELOW = 8.0  # a medium candidate scoring below this goes to the compact table
MICRO_FACTOR = 0.5  # a micro finding's share of its score
KIND_WEIGHT = {BenefitKind.STATE: 2.0}  # others: 1 per line
RUNTIME_GAIN = 12.0  # a transfer or copy removed, in line-equivalents, before heat
HEAT_FACTOR = {Heat.HOT: 3.0, Heat.UNKNOWN: 1.0, Heat.COLD: 0.2, Heat.NEVER: 0.2}
STATE_HEAT_FACTOR = {Heat.HOT: 1.5, Heat.UNKNOWN: 1.0, Heat.COLD: 1.0, Heat.NEVER: 1.0}
# Changes that matter beyond their lines (SPEC §5): a whole module goes at once, so it weighs twice its lines; a
# lost feature hides a decision (wire it back or remove it), so it comes first among candidates of its confidence.
CHANGE_WEIGHT = {"module": 2.0}
FIRST_CHANGES = frozenset({"lost-feature"})
CONFIDENCE_ORDER = {"high": 0, "medium": 1}
MAX_LINES_LISTED = 12  # lines of a bundle listed in its title
MAX_FILES_LISTED = 6  # files of a bundle across files listed in its title
REPEATED_IN_FILES = 3  # files one micro pattern (one message, one kind) repeats in before it is one bundle across them
PATTERN = "pattern"  # `Benefit.change` of a micro finding that is one fix wherever it repeats (a field named twice)


def score(benefit: Benefit) -> float:
    """The benefit as one number: weighted lines, plus heat-scaled run-time gain for data movement."""
    value = max(benefit.lines, 1) * KIND_WEIGHT.get(benefit.kind, 1.0)
    if benefit.kind is BenefitKind.TRANSFERS:
        gain = 0.0 if benefit.micro else RUNTIME_GAIN * benefit.sites
        value = (value + gain) * HEAT_FACTOR[benefit.heat]
    elif benefit.kind is BenefitKind.STATE:
        value *= STATE_HEAT_FACTOR[benefit.heat]
    value *= CHANGE_WEIGHT.get(benefit.change, 1.0)
    return round(value * (MICRO_FACTOR if benefit.micro else 1.0), 2)


@dataclass(frozen=True)
class Ranked:
    """One candidate as the ranking sees it; `key` is the caller's handle on it."""

    key: int
    symbol: str
    path: str
    line: int
    confidence: str
    benefit: Benefit


@dataclass(frozen=True)
class Entry:
    """One candidate of the report: a finding, or a bundle of micro findings of one kind in one file."""

    members: tuple[Ranked, ...]
    score: float
    confidence: str
    title: str  # a bundle's title; "" for a single finding
    compact: bool

    @property
    def bundled(self) -> bool:
        return len(self.members) > 1

    @property
    def lead(self) -> Ranked:
        return self.members[0]

    @property
    def heat(self) -> Heat:
        """The hottest member's heat."""
        heats = {m.benefit.heat for m in self.members}
        return next(heat for heat in (Heat.HOT, Heat.UNKNOWN, Heat.COLD, Heat.NEVER) if heat in heats)


def _plural(noun: str, count: int) -> str:
    if count == 1:
        return noun
    head, space, tail = noun.partition(" of ")  # "unread field of X" -> "unread fields of X"
    if head.endswith("y") and not head.endswith(("ay", "ey", "oy", "uy")):
        head = head[:-1] + "ies"
    else:
        head += "es" if head.endswith(("s", "x", "ch")) else "s"
    return head + (space + tail if space else "")


def _scope_class(scope: str) -> str:
    """`Sampler` of `Sampler.forward()` or of `Sampler`; "" for a plain function."""
    head = scope.split(".")[0] if "." in scope else scope
    return head if head and not head.endswith(")") else ""


def bundle_title(members: list[Ranked]) -> str:
    noun = members[0].benefit.bundle or members[0].symbol
    count = sum(m.benefit.sites for m in members)
    paths = sorted({m.path for m in members})
    if len(paths) > 1:  # one pattern repeated across files: the files say where
        shown = ", ".join(f"`{path}`" for path in paths[:MAX_FILES_LISTED])
        return f"{count} {_plural(noun, count)} in {len(paths)} files: {shown}" + (", ..." if len(paths) > MAX_FILES_LISTED else "")
    classes = {_scope_class(m.benefit.scope) for m in members}
    owner = f" of `{classes.pop()}`" if len(classes) == 1 and "" not in classes else ""
    ordered = sorted(members, key=lambda m: m.line)
    shown = ", ".join(f"{m.line}" + (f" (×{m.benefit.sites})" if m.benefit.sites > 1 else "") for m in ordered[:MAX_LINES_LISTED])
    return f"{count} {_plural(noun, count)}{owner} in `{members[0].path}`: lines {shown}" + (
        ", ..." if len(members) > MAX_LINES_LISTED else "")


def _entry(members: list[Ranked]) -> Entry:
    members = sorted(members, key=lambda m: m.line)
    confidence = members[0].confidence
    total = round(sum(score(m.benefit) for m in members), 2)
    title = bundle_title(members) if len(members) > 1 else ""
    return Entry(tuple(members), total, confidence, title, confidence != "high" and total < COMPACT_BELOW)


def plan(findings: Iterable[Ranked]) -> list[Entry]:
    """Every candidate as an entry of the report, bundles made, strongest first."""
    singles: list[list[Ranked]] = []
    bundles: dict[tuple[str, str, str, str], list[Ranked]] = {}
    for finding in findings:
        if finding.benefit.micro:
            key = (finding.symbol, finding.confidence, finding.benefit.bundle or finding.symbol, finding.path)
            bundles.setdefault(key, []).append(finding)
        else:
            singles.append([finding])
    # One micro pattern in REPEATED_IN_FILES files or more is one line of the audit, not one per file.
    by_pattern: dict[tuple[str, str, str], list[list[Ranked]]] = {}
    for (symbol, confidence, noun, _), members in bundles.items():
        if all(m.benefit.change == PATTERN for m in members):
            by_pattern.setdefault((symbol, confidence, noun), []).append(members)
        else:
            singles.append(members)
    merged: list[list[Ranked]] = []
    for per_file in by_pattern.values():
        if len(per_file) >= REPEATED_IN_FILES:
            merged.append([m for members in per_file for m in members])
        else:
            merged.extend(per_file)
    groups = singles + merged
    entries = [_entry(group) for group in groups]
    return sorted(entries, key=lambda e: (CONFIDENCE_ORDER.get(e.confidence, 2), e.lead.benefit.change not in FIRST_CHANGES,
                                          -e.score, e.lead.path, e.lead.line))


def top(entries: list[Entry], limit: int = TOP_LIMIT) -> list[Entry]:
    """The report's top candidates: the high-confidence ones, by benefit; never a compact one. Medium ones only when
    no high one exists: a row a maintainer acts on first must not be a guess (OLMo's first row was a medium finding a
    library's callbacks contradicted), and three sure rows beat five with two unsure."""
    shown = [e for e in entries if not e.compact]
    sure = [e for e in shown if e.confidence == "high"]
    return (sure or shown)[:limit]
