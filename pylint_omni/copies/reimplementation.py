"""`upstream-reimplementation` verdicts: each project copy of an upstream unit, judged and cached.

For each pair (`upstream.upstream_pairs`) the copy is compared with its upstream
original statement by statement (`drift`, reading the upstream file from the
package's folder):
- identical after renaming locals, or differing only in message text -> high: the
  override can go (`super()` does the same), the function can be imported;
- an override that changes some statements -> medium, naming them: keep only those
  and call `super()` for the rest, or drop it when the change is not needed;
- a plain copy whose drift is an operator, a math function, a layer class or a
  number -> rejected: a project-specific change, not a reimplementation;
- any other drift -> medium, naming it;
- a copy whose file or definition says it is copied (`evidence.provenance`) -> medium at
  most: a deliberate fork, whose upkeep is resyncing it (applied after the cache, since
  it follows the comments, not the code);
- a package the project pins at another version than the one indexed, or whose
  indexed version lacks names the project imports (`upstream.index.version_doubts`)
  -> medium at most, naming both versions: the copy may match the version the
  project runs on, not the one compared;
- an upstream module built for some platforms only (`vllm_flash_attn`, `_C`), or
  one the copy's file imports only inside functions (lazily, where the platform has
  it) -> medium at most: the copy may be the portable fallback;
- a method copied from an upstream class the copy's class does not inherit (a
  concrete sibling model, not a mixin) -> medium at most: sharing it takes a mixin,
  not an import;
- a copy in a file named as a legacy snapshot (`qwen2_old.py`) -> medium at most:
  kept apart on purpose, to retire rather than share.
The last four follow the project's text and class graph, so they apply after the cache.
Loading an upstream package's facts is the expensive part, so the verdicts are
cached beside the index, keyed by the project's fingerprints, its imports of the
compared packages and the packages' versions: a warm run reads no upstream file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

from pylint_omni.copies import store
from pylint_omni.copies.doubts import LEGACY_FIX, lazy_import_line, legacy_snapshot
from pylint_omni.copies.drift import Drift, Source, drift
from pylint_omni.copies.fingerprints import FACT_KEY
from pylint_omni.copies.groups import Thresholds
from pylint_omni.copies.keeper import owner_of
from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.copies.upstream import UpstreamPair, upstream_pairs
from pylint_omni.evidence.consumers import Status, Verdict, decide, lowered
from pylint_omni.evidence.memo import decode_verdict, encode_verdict
from pylint_omni.evidence.provenance import copied_code
from pylint_omni.index import cache
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Table
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.vocabulary import PLATFORM_ONLY_MODULES
from pylint_omni.index.upstream import upstream_of, version_doubts

NAME = "copies-upstream"
DELIBERATE = "copied on purpose, so not high"
PLATFORM_ONLY = PLATFORM_ONLY_MODULES
MIXIN_NAMES = ("Mixin", "Base", "Interface", "Protocol")

_JUDGED: Table[tuple[Thresholds, tuple[str, ...]], dict[str, list[Reimplementation]]] = Table("copies.upstream")


@dataclass
class Reimplementation:
    """A project copy of an upstream unit, with its verdict and drift."""

    copy: Member
    original: Member
    package: str
    version: str
    override: bool
    verdict: Verdict
    drift: Drift | None
    same: bool = False  # the same code as upstream (after renaming locals, message text aside)
    fix: str = ""  # the fix when the usual one (import it, inherit it) does not fit

    @property
    def upstream_place(self) -> str:
        return f"{self.package} {self.version} {self.original.path}:{self.original.line}"


def _judge(index: ProjectIndex, pair: UpstreamPair) -> Reimplementation:
    package = pair.upstream.package
    base = Reimplementation(pair.copy, pair.original, package.name, package.version, pair.override,
                            decide(""), None)
    own = _own_state(index, pair)
    if own:
        base.verdict = decide("", doubts=[own])
        return base
    if pair.copy.exact == pair.original.exact:
        base.verdict, base.same = decide("identical after renaming locals"), True
        return base
    source = Source(f"{package.name}@{package.version}:{pair.upstream.relpath}", pair.upstream.read(), pair.upstream.imports,
                    pair.upstream.module)
    found = base.drift = drift(index, pair.original, pair.copy, kept_source=source, canonical=pair.upstream.canonical,
                               arithmetic=True)
    if found is None:
        base.verdict = decide("", doubts=["the upstream file could not be read again to compare it"])
        return base
    differences = found.substantive()
    if not differences:
        base.verdict = decide("differs only in message text or imports" if found.differences
                              else "identical after renaming locals")
        base.same = True
        return base
    shown = "; ".join(d.describe() for d in differences[:3]) + (f"; {len(differences) - 3} more" if len(differences) > 3 else "")
    math = next((d for d in differences if d.kind in ("math", "layer", "number")), None)
    if math is not None and not pair.override:
        base.verdict = decide("", rejects=[f"it changes the upstream math ({math.describe()}): a project-specific "
                                           "version, not a reimplementation"])
        return base
    what = "the override changes" if pair.override else "drifted from upstream"
    reason = f"{what} {len(differences)} statement{'s' if len(differences) > 1 else ''}: {shown}"
    base.verdict = decide("", doubts=[reason], unknowns=["whether the difference is specific to this project"])
    return base


def _deliberate(index: ProjectIndex, item: Reimplementation) -> Reimplementation:
    """A high copy in code that says it is copied: medium, named a deliberate fork (SPEC: not high by default)."""
    provenance = copied_code(index, item.copy.path, item.copy.line)
    if provenance is None or item.verdict.confidence != "high":
        return item
    reason = f"{DELIBERATE}; {item.verdict.reason}" if item.verdict.reason else DELIBERATE
    return replace(item, verdict=lowered(item.verdict, reason))


def _other_version(index: ProjectIndex, item: Reimplementation) -> Reimplementation:
    """A copy compared with an upstream version the project may not run on: medium at most, saying which pins differ."""
    doubt = version_doubts(index).get(item.package)
    if doubt is None or item.verdict.status is not Status.CANDIDATE:
        return item
    reason = f"{item.verdict.reason}; {doubt}" if item.verdict.reason else doubt
    return replace(item, verdict=lowered(item.verdict, reason, doubt))


def _capped(item: Reimplementation, doubt: str | None, fix: str = "") -> Reimplementation:
    """A high copy at medium, the doubt said first (with the fix that fits it)."""
    if doubt is None or item.verdict.status is not Status.CANDIDATE or item.verdict.confidence != "high":
        return item
    reason = f"{doubt}; {item.verdict.reason}" if item.verdict.reason else doubt
    return replace(item, verdict=lowered(item.verdict, reason, doubt), fix=fix or item.fix)


def _portable_fallback(index: ProjectIndex, item: Reimplementation) -> str | None:
    """Why the upstream module may be missing where the copy runs: built for some platforms only, or imported
    by the copy's file only inside functions."""
    module = item.original.path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    if any(part in PLATFORM_ONLY for part in module.split(".")):
        return f"`{module}` is built for some platforms only: the copy may be the portable fallback"
    line = lazy_import_line(index.text(item.copy.path) or "", module.rpartition(".")[0])
    if line:
        return (f"this file imports `{module.rpartition('.')[0]}` only inside functions (line {line}): the copy may be "
                "the portable fallback where it cannot load")
    return None


def _owner_apart(index: ProjectIndex, item: Reimplementation) -> str | None:
    """A method copied from an upstream class the copy's class neither inherits nor could add as a mixin."""
    if item.override or item.original.kind != "method":
        return None
    owner = item.original.qual.rpartition(".")[0]
    if owner.rpartition(".")[2].endswith(MIXIN_NAMES):
        return None
    dotted = f"{item.original.path.removesuffix('.py').replace('/', '.')}.{owner}"
    mine = item.copy.qual.rpartition(".")[0] if item.copy.kind == "method" else ""
    if mine:
        graph = class_graph(index)
        own = owner_of(index, item.copy)
        upstream = upstream_of(index)
        if any(dotted in (upstream.ancestors(base) or [base]) for base in graph.upstream_bases(own)):
            return None
    return (f"{item.package} defines it on `{owner}`, which {f'`{mine}`' if mine else 'this code'} does not inherit: "
            "sharing it takes a mixin, not an import")


def _reported(index: ProjectIndex, item: Reimplementation) -> Reimplementation:
    """The cached verdict with the rules that follow comments, names, imports and classes (module docstring)."""
    item = _deliberate(index, item)
    item = _other_version(index, item)
    item = _capped(item, legacy_snapshot(item.copy.path), LEGACY_FIX)
    item = _capped(item, _portable_fallback(index, item), "keep it as the fallback; name why in a comment")
    return _capped(item, _owner_apart(index, item), f"move it into a mixin both classes share (in {item.package} or here)")


def _own_state(index: ProjectIndex, pair: UpstreamPair) -> str | None:
    """The copy works on module-level names of its own file that are state or differ from upstream's."""
    itself = {pair.copy.qual.partition(".")[0], pair.original.qual.partition(".")[0]}  # their own definitions
    shared = set(pair.copy.uses) & set(pair.original.uses) - itself
    if not shared:
        return None
    mine = (index.extra(pair.copy.path, FACT_KEY) or {}).get("state", {})
    theirs = pair.upstream.copies.fact.get("state", {})
    for name in sorted(shared):
        first, second = mine.get(name) or [None, False], theirs.get(name) or [None, False]
        if first[1] or second[1] or first[0] != second[0]:
            whose = "code runs" if "def" in first[2:] else "state it uses"
            return (f"it works on its own module's `{name}`, not the upstream one: importing the upstream "
                    f"{'function' if pair.copy.kind == 'function' else 'code'} would change whose {whose}")
    return None


def _key(index: ProjectIndex, files: dict[str, FileCopies], names: tuple[str, ...]) -> str:
    """The project's fingerprints and design pages, its imports of the compared packages, and their versions."""
    upstream = upstream_of(index)
    digest = hashlib.blake2b(store.state_key(index, files).encode(), digest_size=16)
    for name in names:
        package = upstream.package(name)
        digest.update(f"|{name}@{package.version if package else '-'}".encode())
        prefix = name + "."
        for relpath in sorted(files):
            imported = sorted(v for v in index.facts(relpath).get("imports", {}).values() if v == name or v.startswith(prefix))
            if imported:
                digest.update(f"{relpath}:{','.join(imported)}".encode())
    return digest.hexdigest()


def _encode(found: list[Reimplementation]) -> list[dict[str, Any]]:
    return [{"copy": store.encode_member(r.copy), "original": store.encode_member(r.original), "package": r.package,
             "version": r.version, "override": r.override, "verdict": encode_verdict(r.verdict),
             "drift": store.encode_drift(r.drift) if r.drift is not None else None, "same": r.same} for r in found]


def _decode(data: list[dict[str, Any]]) -> list[Reimplementation]:
    return [Reimplementation(store.decode_member(item["copy"]), store.decode_member(item["original"]), item["package"],
                             item["version"], item["override"], decode_verdict(item["verdict"]),
                             store.decode_drift(item["drift"]) if item["drift"] is not None else None,
                             bool(item.get("same"))) for item in data]


def reimplementations(index: ProjectIndex, files: dict[str, FileCopies], limits: Thresholds,
                      names: tuple[str, ...]) -> dict[str, list[Reimplementation]]:
    """Judged upstream copies by project file (once per run; cached between runs)."""
    memo = _JUDGED.values(index)
    if (limits, names) in memo:
        return memo[(limits, names)]
    index.await_background()  # a cold run's child may be writing the store
    key = _key(index, files, names)
    path = index.derived_cache(NAME, repr((limits, names)))
    stored = (cache.load_document(path) if path is not None else None) or {}
    found: list[Reimplementation] | None = None
    if stored.get("key") == key:
        try:
            found = _decode(stored["found"])
        except (KeyError, TypeError, ValueError):
            found = None
    if found is None:
        found = [_judge(index, pair) for pair in upstream_pairs(index, files, limits, names)]
        if path is not None:
            cache.save_document(path, {"key": key, "found": _encode(found)})
    by_path: dict[str, list[Reimplementation]] = {}
    for item in found:
        by_path.setdefault(item.copy.path, []).append(_reported(index, item))
    memo[(limits, names)] = by_path
    return by_path
