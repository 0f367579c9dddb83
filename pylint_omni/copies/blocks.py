"""Blocks of statements pasted into several functions (a graph-capture sequence in five `forward`s).

Inside functions, every statement list (a body, a branch, a loop) is a sequence of
statement hashes. Two adjacent statements form a seed; seeds are bucketed by value
(buckets above a cap are boilerplate and skipped), and each pair of occurrences in
different functions is extended into the longest run the two lists share, across
at most `MAX_GAPS` single-statement differences (a drifted copy). Runs are joined
into groups through shared occurrences; overlapping occurrences in one list merge. A
block needs one statement more than a unit (`omni-copy-min-statements` + 1) and 8
lines that can move into a helper (`movable`: local imports, early exits and many
outputs stay in the caller): a few shared lines inside bigger functions are common.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Callable

from pylint_omni.copies.groups import BUCKET_CAP, CopyGroup, Keep, Thresholds, ordered
from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.copies.movable import Claim

MAX_GAPS = 2  # single-statement differences a pasted block may hold and still be one copy
BLOCK_MIN_LINES = 8  # a few shared lines inside bigger functions are common; a block must be worth a helper
MIN_MATCHED_SHARE = 0.8  # statements of a block that must match the other copy


@dataclass(frozen=True)
class _Run:
    """One statement list of one file: its statements' indices in order."""

    copies: FileCopies
    list_id: int
    indices: tuple[int, ...]
    seq: tuple[str, ...]  # the statements' whole hashes

    def hashes(self, start: int, stop: int) -> list[str]:
        return list(self.seq[start:stop + 1])

    def leaves(self, start: int, stop: int) -> int:
        sizes = self.copies.sizes
        return sum(sizes[i] for i in self.indices[start:stop + 1])

    def member(self, start: int, stop: int) -> Member | None:
        copies = self.copies
        first, last_top = self.indices[start], self.indices[stop]
        last = last_top + copies.size(last_top) - 1
        unit = copies.enclosing(first)
        if unit is None or unit.validation:
            return None
        weights = copies.weights
        return Member(copies.path, "block", unit.qual, copies.line(first), copies.end(last_top), first, last,
                      sum(weights[i] for i in self.indices[start:stop + 1]), "".join(self.seq[start:stop + 1]))


def _lists(files: dict[str, FileCopies]) -> tuple[list[_Run], Counter[str]]:
    """Statement lists inside functions that hold a statement seen elsewhere too (the others cannot share a block)."""
    by_file: list[tuple[FileCopies, dict[int, list[int]]]] = []
    seen: Counter[str] = Counter()
    for copies in files.values():
        by_list: dict[int, list[int]] = {}
        for index, list_id in enumerate(copies.list_ids):
            if list_id >= 0:
                by_list.setdefault(list_id, []).append(index)
        wholes = copies.wholes
        seen.update(wholes[i] for indices in by_list.values() for i in indices)
        by_file.append((copies, by_list))
    runs: list[_Run] = []
    for copies, by_list in by_file:
        wholes, sizes = copies.wholes, copies.sizes
        for list_id, indices in by_list.items():
            seq = tuple(wholes[i] for i in indices)
            if any(seen[h] > 1 for h in seq) and (len(indices) > 1 or sizes[indices[0]] > 1):
                runs.append(_Run(copies, list_id, tuple(indices), seq))
    return runs, seen


def _extend(a: _Run, b: _Run, p: int, q: int) -> tuple[int, int, int, int, list[tuple[int, int]]]:
    """The longest shared run through positions p, q: (a0, a1, b0, b1, matched position pairs)."""
    ha, hb = a.seq, b.seq
    while p > 0 and q > 0 and ha[p - 1] == hb[q - 1]:
        p, q = p - 1, q - 1
    matched: list[tuple[int, int]] = []
    i, j, gaps = p, q, 0
    while i < len(ha) and j < len(hb):
        if ha[i] == hb[j]:
            matched.append((i, j))
            i, j = i + 1, j + 1
            continue
        if gaps >= MAX_GAPS:
            break
        gaps += 1
        if i + 1 < len(ha) and j + 1 < len(hb) and ha[i + 1] == hb[j + 1]:
            i, j = i + 1, j + 1  # one statement changed
        elif i + 1 < len(ha) and ha[i + 1] == hb[j]:
            i += 1  # one statement only in a
        elif j + 1 < len(hb) and ha[i] == hb[j + 1]:
            j += 1  # one statement only in b
        else:
            break
    return matched[0][0], matched[-1][0], matched[0][1], matched[-1][1], matched


def block_groups(
    files: dict[str, FileCopies], limits: Thresholds, covered: list[Member], claim_of: Callable[[Member], Claim | None],
    keep: Keep,
) -> list[CopyGroup]:
    """Groups of blocks shared by different functions, outside the units already reported as copies.

    `claim_of(block)` says what of a block moves into a helper (`movable.claim`); `keep` orders a group's copies."""
    runs, seen = _lists(files)
    seeds: dict[str, list[tuple[int, int]]] = {}
    for number, run in enumerate(runs):
        hashes, sizes = run.seq, run.copies.sizes
        repeated = [seen[h] > 1 for h in hashes]
        for position in range(len(hashes) - 1):
            if repeated[position] and repeated[position + 1]:
                seeds.setdefault(hashes[position] + hashes[position + 1], []).append((number, position))
        for position, index in enumerate(run.indices):
            if repeated[position] and sizes[index] >= limits.min_statements:
                seeds.setdefault(hashes[position], []).append((number, position))
    covered_by_path: dict[str, list[Member]] = {}
    for member in covered:
        covered_by_path.setdefault(member.path, []).append(member)
    done: set[tuple[int, int, int, int]] = set()
    edges: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    for occurrences in seeds.values():
        if not 1 < len(occurrences) <= BUCKET_CAP:
            continue
        for k, (ra, p) in enumerate(occurrences):
            for rb, q in occurrences[k + 1:]:
                if (ra, p, rb, q) in done or ra == rb:
                    continue
                a, b = runs[ra], runs[rb]
                if a.copies is b.copies and a.copies.enclosing(a.indices[p]) == b.copies.enclosing(b.indices[q]):
                    continue  # one function repeating itself is a local refactoring, not a shared implementation
                a0, a1, b0, b1, matched = _extend(a, b, p, q)
                done.update((ra, i, rb, j) for i, j in matched)
                sizes = a.copies.sizes
                shared = sum(sizes[a.indices[i]] for i, _ in matched)
                if shared < limits.min_statements or shared < MIN_MATCHED_SHARE * max(a.leaves(a0, a1), b.leaves(b0, b1)):
                    continue
                edges.append(((ra, a0, a1), (rb, b0, b1)))
    return _cluster(runs, edges, limits, covered_by_path, claim_of, keep)


def _cluster(
    runs: list[_Run], edges: list[tuple[tuple[int, int, int], tuple[int, int, int]]], limits: Thresholds,
    covered: dict[str, list[Member]], claim_of: Callable[[Member], Claim | None], keep: Keep,
) -> list[CopyGroup]:
    parent: dict[tuple[int, int, int], tuple[int, int, int]] = {}

    def find(x: tuple[int, int, int]) -> tuple[int, int, int]:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for a, b in edges:
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        parent[find(a)] = find(b)
    components: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
    for node in parent:
        components.setdefault(find(node), []).append(node)
    groups: list[CopyGroup] = []
    for nodes in components.values():
        spans: dict[int, list[list[int]]] = {}
        for run, start, stop in sorted(nodes):
            merged = spans.setdefault(run, [])
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], stop)
            else:
                merged.append([start, stop])
        members: list[Member] = []
        sequences: dict[Member, list[str]] = {}
        claims: dict[Member, Claim] = {}
        for run, ranges in spans.items():
            for start, stop in ranges:
                member = runs[run].member(start, stop)
                if member is None or not _big_enough(member.statements, member.lines, limits):
                    continue
                if any(big.contains(member) for big in covered.get(member.path, ())):
                    continue
                found = claim_of(member)
                if found is not None:
                    if not _big_enough(found.statements, found.lines(member), limits):
                        continue  # what stays in the caller leaves too little to share
                    claims[member] = found
                members.append(member)
                sequences[member] = runs[run].hashes(start, stop)
        members = ordered(members, keep)
        if len(members) < 2 or len({(m.path, m.qual) for m in members}) < 2:
            continue
        keeper = sequences[members[0]]
        similarity = min(SequenceMatcher(None, keeper, sequences[m], autojunk=False).ratio() for m in members[1:])
        exact = all(sequences[m] == keeper for m in members[1:])
        groups.append(CopyGroup("exact" if exact else "near", members, 1.0 if exact else round(similarity, 2), claims))
    return _outermost(groups)


def _big_enough(statements: int, lines: int, limits: Thresholds) -> bool:
    return statements > limits.min_statements and lines >= BLOCK_MIN_LINES


def _outermost(groups: list[CopyGroup]) -> list[CopyGroup]:
    """Bigger blocks first; a block overlapping a reported one (an inner list of it, a shorter run) is not repeated."""
    kept: list[CopyGroup] = []
    taken: dict[str, list[Member]] = {}
    for group in sorted(groups, key=lambda g: (-g.saved_lines, g.members[0].path, g.members[0].line)):
        members = [m for m in group.members if not any(m.line <= big.end and big.line <= m.end for big in taken.get(m.path, ()))]
        if len(members) < 2 or len({(m.path, m.qual) for m in members}) < 2:
            continue
        if len(members) < len(group.members):
            group = CopyGroup(group.tier, members, group.similarity, group.claims)
        kept.append(group)
        for member in members:
            taken.setdefault(member.path, []).append(member)
    return kept
