"""Blocks that repeat an upstream method: slices of code resynced with upstream.

A project subclass of an upstream class often overrides a long method by copying it
and editing a few lines (vLLM's `execute_model`); two such overrides in sibling
runners then share long blocks. A wrapper class does the same with the method of the
upstream class it wraps (xDiT's pipelines and diffusers' `__call__`). A helper for
those blocks saves a few lines and makes the next resync with upstream harder, so
such a block copy is medium: the fix is in how the copies follow upstream, not a
helper. A block mirrors upstream when at least `MIRROR_RATIO` of its statement shapes
appear, in order, in the upstream method its enclosing method overrides, or else in
the method of that name of an upstream class its module imports (both fingerprinted
by this family's scanner; the upstream facts are read only for such blocks).
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import NamedTuple

from pylint_omni.copies.fingerprints import FACT_KEY
from pylint_omni.copies.keeper import owner_of
from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Table
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream import upstream_of

MIRROR_RATIO = 0.6  # share of a block's statement shapes the upstream method must hold for the block to mirror it
MAX_IMPORTED = 3  # upstream classes of the module compared with a block (a wrapper imports the one it wraps)

_MIRRORED: Table[tuple[str, str], str | None] = Table("copies.mirrors")


class UpstreamMethod(NamedTuple):
    package: str
    version: str
    relpath: str
    owner: str  # the upstream class, dotted
    inherited: bool  # the block's method overrides it (else: its module imports the class)


def _upstream_methods(index: ProjectIndex, path: str, owner: str, name: str) -> list[UpstreamMethod]:
    """The upstream methods named `name` a block of `owner.name` may repeat: the nearest upstream ancestor's, else
    those of the upstream classes the block's module imports."""
    graph = class_graph(index)
    upstream = upstream_of(index)
    for base in graph.upstream_bases(owner) if owner in graph.nodes else ():
        for ancestor in upstream.ancestors(base):
            package = upstream.owning(ancestor)
            found = package.classes().get(ancestor) if package is not None else None
            if found is not None and name in found.methods:
                return [UpstreamMethod(package.name, package.version, found.path, ancestor, True)]
    imported: list[UpstreamMethod] = []
    for dotted in sorted(set(index.facts(path).get("imports", {}).values())):
        package = upstream.owning(dotted)
        found = package.classes().get(package.canonical(dotted)) if package is not None else None
        if found is not None and name in found.methods:
            imported.append(UpstreamMethod(package.name, package.version, found.path, found.dotted, False))
    return imported[:MAX_IMPORTED]


def _shape(copies: FileCopies, qual: str) -> tuple[list[str], int] | None:
    unit = next((u for u in copies.units if u.qual == qual and u.kind == "method"), None)
    return (copies.headers(unit.first, unit.last), unit.line) if unit is not None else None


def mirrored_override(index: ProjectIndex, member: Member, project: FileCopies | None) -> str | None:
    """Why a block of a method repeats an upstream method (None: it does not)."""
    if member.kind != "block" or "." not in member.qual or project is None:
        return None
    memo = _MIRRORED.values(index)
    key = (member.path, member.qual)
    if key in memo:
        return memo[key]
    memo[key] = None
    owner, name = owner_of(index, member), member.qual.rpartition(".")[2]
    block = project.headers(member.first, member.last)
    for method in _upstream_methods(index, member.path, owner, name):
        package = upstream_of(index).package(method.package)
        fact = package.facts_of(method.relpath).get("extra", {}).get(FACT_KEY) if package else None
        theirs = _shape(FileCopies(method.relpath, fact), f"{method.owner.rpartition('.')[2]}.{name}") if fact else None
        if theirs is None:
            continue
        # The share of the block found in order in the upstream method (which may be much longer than the override).
        matched = sum(run.size for run in SequenceMatcher(None, theirs[0], block, autojunk=False).get_matching_blocks())
        if matched >= MIRROR_RATIO * max(len(block), 1):
            how = "which its method overrides" if method.inherited else "whose class this module imports"
            memo[key] = (f"the block repeats {method.package} {method.version} {method.owner.rpartition('.')[2]}.{name} "
                         f"({method.relpath}:{theirs[1]}), {how}: a helper makes the next resync harder")
            break
    return memo[key]
