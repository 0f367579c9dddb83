"""Project code that reimplements an upstream primitive: the pairs behind `upstream-reimplementation`.

The upstream index (`index.upstream`) scans the packages the project builds on with
the same per-file scan as project files, so every upstream file carries this
family's fingerprint fact too. Only the packages of `omni-reimplementation-upstreams`
(default: vllm) are compared, and in them only the modules the project imports from
(following a package's re-export to the module defining the name) or whose classes
it subclasses (with their upstream ancestors): vLLM's own model files port Hugging
Face code on purpose, and comparing everything with everything is noise.

Three kinds of pairs, each a project copy with its upstream original:
- an override: a method of a project class whose upstream ancestor defines the same
  method, when the two are similar (`OVERRIDE_RATIO`);
- an exact copy: a project unit with an upstream unit's normalised hash;
- a near copy with the upstream name: similar statement shapes (capped sketch buckets,
  as for project copies).
A copied class's methods are not repeated.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from pylint_omni.copies.fingerprints import FACT_KEY
from pylint_omni.copies.groups import BUCKET_CAP, MIN_SHARED, NEAR_RATIO, SKETCH_SIZE, Thresholds, shape_similarity
from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.discovery import read_text
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.data_scan import InputProblem
from pylint_omni.index.upstream import UpstreamPackage, upstream_of

OVERRIDE_RATIO = 0.7  # an override sharing this much of the upstream body copies it (plus edits)
MAX_REEXPORT_HOPS = 3  # re-exports followed from an imported name to the module defining it


@dataclass(frozen=True)
class UpstreamFile:
    """One upstream file whose units take part: its package, facts and where to read it."""

    package: UpstreamPackage
    relpath: str  # under the package's parent folder: `vllm/v1/worker/gpu_worker.py`
    module: str
    copies: FileCopies
    imports: dict[str, str]
    exports: dict[str, dict[str, str]]  # the package's modules -> their imports (to follow re-exports)

    def canonical(self, dotted: str) -> str:
        """`vllm.v1.engine.LogprobsLists` -> `vllm.v1.outputs.LogprobsLists`: a re-export followed to its module."""
        for _ in range(MAX_REEXPORT_HOPS):
            head, _, name = dotted.rpartition(".")
            target = self.exports.get(head, {}).get(name)
            if not target or target == dotted:
                break
            dotted = target
        return dotted

    def read(self) -> str | None:
        try:
            return read_text(Path(self.package.located.folder).parent / self.relpath, 3_000_000)
        except InputProblem:
            return None


@dataclass(frozen=True)
class UpstreamPair:
    """A project copy of an upstream unit."""

    original: Member
    upstream: UpstreamFile
    copy: Member
    override: bool
    similarity: float


def _scope(index: ProjectIndex, package: UpstreamPackage, by_module: dict[str, dict[str, str]]) -> set[str]:
    """Modules of `package` the project imports from or subclasses classes of."""
    wanted: set[str] = set()
    prefix = package.name + "."
    for _, facts in index.python_files():
        for dotted in facts.get("imports", {}).values():
            if dotted != package.name and not dotted.startswith(prefix):
                continue
            head, name = (dotted, "") if dotted in by_module else dotted.rpartition(".")[::2]
            for _ in range(MAX_REEXPORT_HOPS):
                if head not in by_module:
                    break
                wanted.add(head)
                target = by_module[head].get(name) if name else None
                if not target or not target.startswith(prefix):
                    break
                head, _, name = target.rpartition(".")
    graph = class_graph(index)
    upstream = upstream_of(index)
    for dotted in graph.nodes:
        for base in graph.upstream_bases(dotted):
            for ancestor in upstream.ancestors(base) or [base]:
                module = ancestor.rpartition(".")[0]
                while module and module not in by_module:
                    module = module.rpartition(".")[0]
                if module.startswith(prefix) or module == package.name:
                    wanted.add(module)
    return wanted


def upstream_files(index: ProjectIndex, names: Iterable[str]) -> list[UpstreamFile]:
    """The fingerprinted upstream files in scope, of the indexed packages named."""
    found: list[UpstreamFile] = []
    upstream = upstream_of(index)
    for name in names:
        package = upstream.package(name)
        if package is None:
            continue
        exports = {module: imports for _, module, imports in package.files()}
        modules = _scope(index, package, exports)
        for relpath, module, imports in package.files():
            # Only the files in scope are fingerprinted (scanned now, `facts_of`): a few hundred of thousands.
            fact = package.facts_of(relpath).get("extra", {}).get(FACT_KEY) if module in modules else None
            if fact:
                found.append(UpstreamFile(package, relpath, module, FileCopies(relpath, fact), imports, exports))
    return found


def _overrides(index: ProjectIndex, project: dict[str, FileCopies], files: list[UpstreamFile], limits: Thresholds
               ) -> list[UpstreamPair]:
    """Project methods overriding an upstream method they copy."""
    methods: dict[tuple[str, str], tuple[Member, UpstreamFile]] = {}
    for upstream_file in files:
        for unit in upstream_file.copies.units:
            if unit.kind == "method":
                methods[(f"{upstream_file.module}.{unit.qual.rpartition('.')[0]}", unit.qual.rpartition(".")[2])] = (unit, upstream_file)
    if not methods:
        return []
    graph = class_graph(index)
    upstream = upstream_of(index)
    pairs: list[UpstreamPair] = []
    for path, copies in project.items():
        module = index.entries.get(path, {}).get("module", "")
        for unit in copies.units:
            if unit.kind != "method" or not limits.eligible(unit):
                continue
            owner = f"{module}.{unit.qual.rpartition('.')[0]}"
            if owner not in graph.nodes:
                continue
            name = unit.qual.rpartition(".")[2]
            chain = [a for base in graph.upstream_bases(owner) for a in (upstream.ancestors(base) or [base])]
            found = next((methods[(a, name)] for a in chain if (a, name) in methods), None)
            if found is None:
                continue
            original, upstream_file = found
            score = 1.0 if original.exact == unit.exact else shape_similarity(
                upstream_file.copies.headers(original.first, original.last), copies.headers(unit.first, unit.last))
            if score >= OVERRIDE_RATIO or original.exact == unit.exact:
                pairs.append(UpstreamPair(original, upstream_file, unit, True, round(score, 2)))
    return pairs


def _copies(project: dict[str, FileCopies], files: list[UpstreamFile], limits: Thresholds, taken: set[int]) -> list[UpstreamPair]:
    """Project units equal or near to an upstream unit (not already an override pair)."""
    by_hash: dict[str, list[tuple[Member, UpstreamFile]]] = {}
    shapes: dict[Member, list[str]] = {}
    owner: dict[Member, UpstreamFile] = {}
    frequency: Counter[str] = Counter()
    for upstream_file in files:
        for unit in upstream_file.copies.units:
            if unit.kind != "module" and limits.eligible(unit):
                by_hash.setdefault(unit.exact, []).append((unit, upstream_file))
                shapes[unit] = upstream_file.copies.headers(unit.first, unit.last)
                owner[unit] = upstream_file
    project_units = [(u, c) for c in project.values() for u in c.units
                     if u.kind != "module" and limits.eligible(u) and not u.validation and id(u) not in taken]
    pairs: list[UpstreamPair] = []
    buckets: dict[str, list[Member]] = {}
    for shape in shapes.values():
        frequency.update(set(shape))
    for unit, copies in project_units:
        if unit.exact in by_hash:
            original, upstream_file = max(by_hash[unit.exact], key=lambda found: _likeness(found[0], unit))
            pairs.append(UpstreamPair(original, upstream_file, unit, False, 1.0))
            continue
        shape = copies.headers(unit.first, unit.last)
        shapes[unit] = shape
        for value in sorted(h for h in set(shape) if frequency[h] <= BUCKET_CAP)[:SKETCH_SIZE]:
            buckets.setdefault(value, []).append(unit)
    upstream_by_value: dict[str, list[Member]] = {}
    for unit in owner:
        for value in sorted(h for h in set(shapes[unit]) if frequency[h] <= BUCKET_CAP)[:SKETCH_SIZE]:
            if value in buckets:
                upstream_by_value.setdefault(value, []).append(unit)
    shared: Counter[tuple[Member, Member]] = Counter()
    for value, originals in upstream_by_value.items():
        if len(originals) <= BUCKET_CAP:
            for original in originals:
                for unit in buckets[value]:
                    if unit.kind == original.kind or {unit.kind, original.kind} <= {"function", "method"}:
                        shared[(original, unit)] += 1
    best: dict[Member, tuple[tuple[tuple[bool, bool, bool], float], Member]] = {}  # the namesake first, then the closest
    for (original, unit), count in shared.items():
        if count >= MIN_SHARED and _same_name(original, unit):
            score = shape_similarity(shapes[original], shapes[unit])
            rank = (_likeness(original, unit), score)
            if score >= NEAR_RATIO and (unit not in best or rank > best[unit][0]):
                best[unit] = (rank, original)
    pairs.extend(UpstreamPair(original, owner[original], unit, False, round(rank[1], 2))
                 for unit, (rank, original) in best.items())
    return pairs


VERSION_SUFFIX = re.compile(r"(_old|_legacy|_deprecated|_backup|_v\d+|_new)$")


def _likeness(original: Member, copy: Member) -> tuple[bool, bool, bool]:
    """Among identical upstream units, the one the copy was taken from: the same qualified name, the same class,
    the same module stem (`qwen2_old.py` -> `qwen2.py`); never a namesake of another model family first."""
    stem = VERSION_SUFFIX.sub("", copy.path.rpartition("/")[2].removesuffix(".py"))
    return (original.qual == copy.qual, original.qual.partition(".")[0] == copy.qual.partition(".")[0],
            original.path.rpartition("/")[2].removesuffix(".py") == stem)


def _same_name(original: Member, copy: Member) -> bool:
    """A near copy keeps the upstream name, give or take a prefix (`OmniEngineCoreOutput`, `_split_list_into_ranges`)."""
    first, second = original.qual.split("."), copy.qual.split(".")
    if first[-1].lstrip("_") != second[-1].lstrip("_") and not (
        original.kind == "class" and first[-1] in second[-1]):
        return False
    if original.kind == "method" and copy.kind == "method":
        return first[-2] in second[-2] or second[-2] in first[-2]
    return True


def _outermost(pairs: list[UpstreamPair]) -> list[UpstreamPair]:
    """A copied class's methods are not repeated: the biggest copy is the finding."""
    kept: list[UpstreamPair] = []
    for pair in sorted(pairs, key=lambda p: (-(p.copy.last - p.copy.first), p.copy.path, p.copy.line)):
        if not any(other.copy.contains(pair.copy) for other in kept):
            kept.append(pair)
    return kept


def _inherits(index: ProjectIndex, pair: UpstreamPair) -> bool:
    """A project class that subclasses the upstream class it resembles (its overrides are the copies)."""
    if pair.copy.kind != "class":
        return False
    dotted = f"{index.entries.get(pair.copy.path, {}).get('module', '')}.{pair.copy.qual}"
    graph = class_graph(index)
    if dotted not in graph.nodes:
        return False
    upstream = upstream_of(index)
    original = f"{pair.upstream.module}.{pair.original.qual}"
    return any(original in (upstream.ancestors(base) or [base]) for base in graph.upstream_bases(dotted))


def upstream_pairs(index: ProjectIndex, project: dict[str, FileCopies], limits: Thresholds, names: Iterable[str]) -> list[UpstreamPair]:
    """Every project copy of an upstream unit in scope: overrides first, then exact and near copies."""
    files = upstream_files(index, names)
    if not files:
        return []
    overrides = _overrides(index, project, files, limits)
    copies = [p for p in _copies(project, files, limits, {id(p.copy) for p in overrides}) if not _inherits(index, p)]
    return _outermost([*overrides, *copies])
