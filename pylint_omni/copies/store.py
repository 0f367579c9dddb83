"""The copy groups and their verdicts, cached between runs beside the index cache.

A run whose production files have the same fingerprints as the last run's (same
content, whatever their mtime: an editor buffer equal to the file hits too) reads
the groups and verdicts back instead of computing them. Otherwise the groups are
computed again, but a copy's drift is reused when both copies are unchanged (same
lines and normalised hash), so only changed copies are read and compared again.
A cache written by other rules (`RULES`) is computed again.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pylint_omni.copies.drift import Difference, Drift
from pylint_omni.copies.groups import CopyGroup, Thresholds
from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.copies.movable import Claim
from pylint_omni.copies.verdict import Judgement
from pylint_omni.evidence.memo import decode_verdict, encode_verdict
from pylint_omni.evidence.contracts import DESIGN_FOLDER
from pylint_omni.index import cache
from pylint_omni.index.project_index import ProjectIndex

NAME = "copies"
RULES = 7  # bump when the groups, the kept copy or the verdicts are formed otherwise: a cache of older rules is stale


def state_key(index: ProjectIndex, files: dict[str, FileCopies]) -> str:
    """What the groups and verdicts depend on: every production fingerprint and the design pages."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"rules {RULES}\x01".encode())
    for path in sorted(files):
        fact = files[path].fact
        digest.update(f"{path}\x00{fact['h']}\x00{fact['hh']}\x00{fact['pos']}\x00{fact['units']!r}\x00{fact.get('state')!r}\x01".encode())
    for path, entry in sorted(index.entries.items()):
        if path.startswith(DESIGN_FOLDER):
            digest.update(f"{path}\x00{entry.get('size')}\x00{entry.get('mtime')}\x01".encode())
    return digest.hexdigest()


def pair_key(kept: Member, other: Member) -> str:
    return f"{kept.path}:{kept.line}:{kept.end}:{kept.exact}|{other.path}:{other.line}:{other.end}:{other.exact}"


def decode_member(data: list[Any]) -> Member:
    path, kind, qual, line, end, first, last, statements, exact, uses = data
    return Member(path, kind, qual, line, end, first, last, statements, exact, tuple(uses))


def encode_member(member: Member) -> list[Any]:
    return [member.path, member.kind, member.qual, member.line, member.end, member.first, member.last,
            member.statements, member.exact, list(member.uses)]


def encode_drift(found: Drift) -> list[list[Any]]:
    return [[d.kind, d.kept, d.other, d.kept_line, d.other_line] for d in found.differences]


def decode_drift(data: list[list[Any]]) -> Drift:
    return Drift(tuple(Difference(*item) for item in data))


def encode(judgements: list[Judgement]) -> list[dict[str, Any]]:
    found = []
    for judgement in judgements:
        group = judgement.group
        found.append({
            "tier": group.tier, "similarity": group.similarity, "overrides": judgement.overrides,
            "members": [encode_member(m) for m in group.members],
            "verdicts": [encode_verdict(judgement.verdicts[m]) for m in group.members[1:]],
            "drifts": [encode_drift(d) if (d := judgement.drifts.get(m)) is not None else None for m in group.members[1:]],
            "claims": [[c.statements, list(c.stay), list(c.why), list(c.relayed)] if (c := group.claims.get(m)) is not None else None
                       for m in group.members],
        })
    return found


def decode(data: list[dict[str, Any]]) -> list[Judgement]:
    judgements = []
    for item in data:
        members = [decode_member(m) for m in item["members"]]
        claims = {m: Claim(c[0], tuple(c[1]), tuple(c[2]), tuple(c[3])) for m, c in zip(members, item["claims"]) if c is not None}
        judgement = Judgement(CopyGroup(item["tier"], members, item["similarity"], claims), overrides=item["overrides"])
        for member, verdict, drift in zip(members[1:], item["verdicts"], item["drifts"]):
            judgement.verdicts[member] = decode_verdict(verdict)
            if drift is not None:
                judgement.drifts[member] = decode_drift(drift)
        judgements.append(judgement)
    return judgements


def load(index: ProjectIndex, limits: Thresholds) -> dict[str, Any]:
    path = index.derived_cache(NAME, repr(limits))
    return (cache.load_document(path) if path is not None else None) or {}


def save(index: ProjectIndex, limits: Thresholds, key: str, judgements: list[Judgement], drifts: dict[str, Any]) -> None:
    path = index.derived_cache(NAME, repr(limits))
    if path is not None:
        cache.save_document(path, {"key": key, "judgements": encode(judgements), "drifts": drifts})
