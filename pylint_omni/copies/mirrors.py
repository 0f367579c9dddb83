"""Blocks inside overrides that mirror their upstream method: slices of code resynced with upstream.

A project subclass of an upstream class often overrides a long method by copying it
and editing a few lines (vLLM's `execute_model`); two such overrides in sibling
runners then share long blocks. A helper for those blocks saves a few lines and makes
the next resync with upstream harder, so such a block copy is medium: the fix is in
how the overrides follow upstream, not a helper. A block mirrors upstream when at
least `MIRROR_RATIO` of its statement shapes appear, in order, in the upstream method
its enclosing method overrides (both
fingerprinted by this family's scanner; the upstream facts are read only for blocks
inside overrides of indexed upstream classes).
"""

from __future__ import annotations

from difflib import SequenceMatcher

from pylint_omni.copies.fingerprints import FACT_KEY
from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream import upstream_of

MIRROR_RATIO = 0.6
NAME = "copies-mirrors"


def _upstream_method(index: ProjectIndex, owner: str, name: str) -> tuple[str, str, str, str] | None:
    """(package, version, relpath, class dotted) of the nearest upstream ancestor of `owner` defining `name`."""
    graph = class_graph(index)
    if owner not in graph.nodes:
        return None
    upstream = upstream_of(index)
    for base in graph.upstream_bases(owner):
        for ancestor in upstream.ancestors(base):
            package = upstream.owning(ancestor)
            found = package.classes().get(ancestor) if package is not None else None
            if found is not None and name in found.methods:
                return package.name, package.version, found.path, ancestor
    return None


def _shape(copies: FileCopies, qual: str) -> tuple[list[str], int] | None:
    unit = next((u for u in copies.units if u.qual == qual and u.kind == "method"), None)
    return (copies.headers(unit.first, unit.last), unit.line) if unit is not None else None


def mirrored_override(index: ProjectIndex, member: Member, project: FileCopies | None) -> str | None:
    """Why a block of an override repeats the upstream method it overrides (None: it does not)."""
    if member.kind != "block" or "." not in member.qual or project is None:
        return None
    memo: dict[tuple[str, str], str | None] = index.derived.setdefault(NAME, {})
    key = (member.path, member.qual)
    if key in memo:
        return memo[key]
    memo[key] = None
    owner_name, _, name = member.qual.rpartition(".")
    owner = f"{index.entries.get(member.path, {}).get('module', '')}.{owner_name}"
    found = _upstream_method(index, owner, name)
    mine = _shape(project, member.qual)
    if found is None or mine is None:
        return None
    package_name, version, relpath, ancestor = found
    package = upstream_of(index).package(package_name)
    fact = (package.facts().get(relpath, {}).get("facts", {}).get("extra", {}).get(FACT_KEY) if package else None)
    theirs = _shape(FileCopies(relpath, fact), f"{ancestor.rpartition('.')[2]}.{name}") if fact else None
    if theirs is None:
        return None
    # The share of the block found in order in the upstream method (which may be much longer than the override).
    block = project.headers(member.first, member.last)
    matched = sum(run.size for run in SequenceMatcher(None, theirs[0], block, autojunk=False).get_matching_blocks())
    ratio = matched / max(len(block), 1)
    if ratio >= MIRROR_RATIO:
        memo[key] = (f"the block repeats {package_name} {version} {ancestor.rpartition('.')[2]}.{name} ({relpath}:"
                     f"{theirs[1]}), which its method overrides: a helper makes the next resync harder")
    return memo[key]
