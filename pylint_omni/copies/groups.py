"""Copy groups of a whole project, computed once per run from the cached fingerprints.

- exact tier: units with the same normalised hash, joined by hash (`exact_groups`);
- near tier: units whose statement shapes are similar, found through bottom-k
  sketches of their statement hashes bucketed by value (capped buckets, never all
  pairs), then verified by sequence similarity (`near_groups`);
- blocks: runs of sibling statements shared by different functions (`blocks`).
A group whose every member lies inside a member of a larger reported group is
dropped: the bigger copy is the finding (a group with some copies inside a bigger one
stays whole, and only its other copies are reported). A small body (from `floor`
statements) counts when it is copied identically three times or more. Which copy a
group keeps (`members[0]`) is the project's preference (`keeper.preference`); a near
group's members are still the ones close to its most central copy.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Callable, Iterable

from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.copies.movable import Claim

NEAR_RATIO = 0.8  # statement-shape similarity of a near copy
SET_OVERLAP = 0.6  # distinct statements two near copies share at least (a cheap filter before the ordered ratio)
SKETCH_SIZE = 8  # bottom-k values per unit
MIN_SHARED = 2  # sketch values two units must share to be compared
BUCKET_CAP = 40  # a statement hash shared by more units is boilerplate: not a seed
COMMON_SHARE = 0.002  # statements repeated more often than this share of all statements are left out of sketches
COMMON_FLOOR = 8  # ... and than this many times
Related = Callable[[Member, Member], bool]
Keep = Callable[[Member], tuple[int, ...]]  # ranks of a copy: the one to keep ranks first (`keeper.preference`)
KIND_CLASSES = {"function": "def", "method": "def", "class": "class", "module": "module"}
ORDER = ("module", "class", "def")  # bigger copies first: they cover their members' copies


@dataclass
class CopyGroup:
    """Copies of one implementation; `members[0]` is the one the others would reuse."""

    tier: str  # exact | near
    members: list[Member]
    similarity: float  # lowest similarity of a member to the first (1.0 for exact)
    claims: dict[Member, Claim] = field(default_factory=dict)  # a block copy: what of it moves into a helper

    @property
    def kind(self) -> str:
        kinds = {m.kind for m in self.members}
        return kinds.pop() if len(kinds) == 1 else "function"

    def lines(self, member: Member) -> int:
        """Lines of a copy that sharing can take away: a block's movable part, any other copy whole."""
        found = self.claims.get(member)
        return found.lines(member) if found is not None else member.lines

    @property
    def saved_lines(self) -> int:
        """Lines that sharing deletes at most: every copy but the kept one (the verdicts refine it)."""
        return sum(self.lines(m) for m in self.members[1:])


@dataclass(frozen=True)
class Thresholds:
    """How big a copy must be to be worth a message (the size option)."""

    min_statements: int
    min_lines: int

    @property
    def floor(self) -> int:
        """Statements of the smallest body worth reporting when copied identically three times or more."""
        return max(3, self.min_statements - 2)

    def eligible(self, member: Member, floor: bool = False) -> bool:
        least = self.floor if floor else self.min_statements
        return member.statements >= least and member.lines >= self.min_lines


def eligible_units(copies: FileCopies, limits: Thresholds, floor: bool = False) -> Iterable[Member]:
    """Units big enough to report; a whole module only when it holds two such definitions or more
    (a module of one copied function is reported at the function)."""
    found = [u for u in copies.units if u.kind != "module" and limits.eligible(u, floor) and not u.validation]
    yield from found
    if sum(1 for u in found if "." not in u.qual and limits.eligible(u)) >= 2:
        yield from (u for u in copies.units if u.kind == "module" and limits.eligible(u))


def general_first(member: Member) -> tuple[int, str, int, str]:
    """Among copies ranked equal, the shallowest path first (the more general place), then by name: a module
    before its variants (`pipeline.py` before `pipeline_edit.py`) and a lower version first (`qwen2` before `qwen3`)."""
    return member.path.count("/"), member.path, member.line, member.kind


def ordered(members: Iterable[Member], keep: Keep) -> list[Member]:
    """Copies in reporting order: the one to keep first (`keep`), then `general_first`."""
    return sorted(set(members), key=lambda m: (keep(m), general_first(m)))


class _Cover:
    """Members of reported groups, by file: what a smaller group must not repeat."""

    def __init__(self) -> None:
        self.by_path: dict[str, list[Member]] = {}

    def covered(self, member: Member) -> bool:
        return any(big.contains(member) for big in self.by_path.get(member.path, ()))

    def add(self, group: CopyGroup) -> None:
        for member in group.members:
            self.by_path.setdefault(member.path, []).append(member)


def exact_groups(files: list[FileCopies], limits: Thresholds, keep: Keep) -> dict[str, list[CopyGroup]]:
    """Units with one normalised hash, by kind class."""
    by_hash: dict[tuple[str, str], list[Member]] = {}
    for copies in files:
        for unit in eligible_units(copies, limits, floor=True):
            by_hash.setdefault((KIND_CLASSES[unit.kind], unit.exact), []).append(unit)
    found: dict[str, list[CopyGroup]] = {kind: [] for kind in ORDER}
    for (kind, _), members in by_hash.items():
        if len(members) > 2 or (len(members) == 2 and all(limits.eligible(m) for m in members)):
            found[kind].append(CopyGroup("exact", ordered(members, keep), 1.0))
    return found


def shape_similarity(a: list[str], b: list[str]) -> float:
    if 2 * min(len(a), len(b)) < NEAR_RATIO * (len(a) + len(b)):
        return 0.0  # the ratio cannot reach NEAR_RATIO even if the shorter one matches entirely
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def near_groups(
    files: dict[str, FileCopies], exact: dict[str, list[CopyGroup]], limits: Thresholds, related: Related,
    keep: Keep,
) -> dict[str, list[CopyGroup]]:
    """Units of similar statement shape (exact groups take part through their first member).

    `related(a, b)`: the two are a class and its subclass (a subclass looks like its base
    wherever it overrides; the overriding methods are the copies to report).
    """
    represented: dict[Member, list[Member]] = {}
    in_exact: set[Member] = set()
    for groups in exact.values():
        for group in groups:
            represented[group.members[0]] = group.members
            in_exact.update(group.members)
    shapes: dict[Member, list[str]] = {}
    for copies in files.values():
        for unit in eligible_units(copies, limits):
            if unit not in in_exact or unit in represented:
                shapes[unit] = copies.headers(unit.first, unit.last)
    frequency: Counter[str] = Counter()
    for copies in files.values():
        frequency.update(copies.headers(0, copies.count - 1))  # each statement once, however many units hold it
    common = max(COMMON_FLOOR, int(COMMON_SHARE * sum(frequency.values())))
    buckets: dict[tuple[str, str], list[Member]] = {}
    for unit, shape in shapes.items():
        sketch = sorted(h for h in set(shape) if frequency[h] <= common)[:SKETCH_SIZE]
        for value in sketch:
            buckets.setdefault((KIND_CLASSES[unit.kind], value), []).append(unit)
    shared: Counter[tuple[Member, Member]] = Counter()
    for members in buckets.values():
        if 1 < len(members) <= BUCKET_CAP:
            for i, a in enumerate(members):
                for b in members[i + 1:]:
                    shared[(a, b)] += 1
    parent: dict[Member, Member] = {}

    def find(x: Member) -> Member:
        while parent.get(x, x) is not x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    sets = {unit: set(shape) for unit, shape in shapes.items()}
    scores: dict[tuple[Member, Member], float] = {}
    for (a, b), count in shared.items():
        if count < MIN_SHARED or a.contains(b) or b.contains(a) or related(a, b):
            continue
        common = len(sets[a] & sets[b])
        if common < SET_OVERLAP * max(len(sets[a]), len(sets[b])):
            continue  # too few statements in common to reach NEAR_RATIO in order
        score = shape_similarity(shapes[a], shapes[b])
        if score >= NEAR_RATIO:
            scores[(a, b)] = score
            parent[find(a)] = find(b)
    components: dict[Member, list[Member]] = {}
    for unit in {u for pair in scores for u in pair}:
        components.setdefault(find(unit), []).append(unit)
    found: dict[str, list[CopyGroup]] = {kind: [] for kind in ORDER}
    for units in components.values():
        group = _near_group(units, represented, shapes, keep)
        if group is not None:
            found[KIND_CLASSES[group.members[0].kind]].append(group)
    return found


def _near_group(
    units: list[Member], represented: dict[Member, list[Member]], shapes: dict[Member, list[str]], keep: Keep,
) -> CopyGroup | None:
    """The group of one component: the copies close to its medoid (chains of near pairs drift), the preferred one
    kept (the medoid among equals)."""
    units = ordered(units, keep)
    if len(units) == 2:
        similarity = {units[0]: 1.0, units[1]: shape_similarity(shapes[units[0]], shapes[units[1]])}
        medoid = units[0]
    else:
        table = {(a, b): shape_similarity(shapes[a], shapes[b]) for a in units for b in units if a is not b}
        weight = {u: len(represented.get(u, [u])) for u in units}  # an exact group counts once per copy
        medoid = max(units, key=lambda u: weight[u] * 2 + sum(table[(u, v)] * weight[v] for v in units if v is not u))
        similarity = {u: 1.0 if u is medoid else table[(medoid, u)] for u in units}
    close = [u for u in units if similarity[u] >= NEAR_RATIO]
    if len(close) < 2:
        return None
    keeper = min(close, key=lambda u: (keep(u), u is not medoid, general_first(u)))
    members = [*represented.get(keeper, [keeper])]
    members += ordered((m for u in close if u is not keeper for m in represented.get(u, [u])), keep)
    return CopyGroup("near", members, round(min(similarity[u] for u in close), 2))


def unit_groups(files: dict[str, FileCopies], limits: Thresholds, related: Related, keep: Keep) -> list[CopyGroup]:
    """Exact and near groups of units, bigger kinds first, each member covered at most once."""
    exact = exact_groups(list(files.values()), limits, keep)
    near = near_groups(files, exact, limits, related, keep)
    cover = _Cover()
    kept: list[CopyGroup] = []
    for kind in ORDER:
        candidates = sorted([*exact[kind], *near[kind]], key=lambda g: (-g.saved_lines, g.members[0].path, g.members[0].line))
        for group in candidates:
            if all(cover.covered(m) for m in group.members):
                continue  # every copy lies inside a bigger reported copy
            kept.append(group)
            cover.add(group)
    return kept
