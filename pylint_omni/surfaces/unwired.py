"""A module or package production never uses and tests do: one finding at its top, not one per function.

A production module is *quiet* when neither it nor anything in it is reached from a
production root. A folder of quiet modules that tests use (two or more modules with
definitions) is an unwired package, shown at its `__init__.py` (the first module when
it has none); a quiet module outside such a folder with two or more findings is an
unwired module, shown at line 1. Its findings (test-only chains, and the dead ones
beside them) become one decision: wire it in, or delete it with the tests that exist
for it. Not when one of them is rejected (a documented supported name: the package is
not wholly unused). High, unless a member's own doubt stands (examples use it, a
hook, a twin production uses...), or a package of kernels (a kernel folder or a platform
folder of the vocabulary, `index.vocabulary`) is checked by its tests against a reference: a port whose
wiring may still be pending. A member's role (`roles`: an op never registered beside
registered siblings) gives the group its fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.consumers import Consumer, Status, Verdict, decide, listed
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import evidence_clause, short_message
from pylint_omni.index.derived import Built
from pylint_omni.index.paths import matches_any
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import DEAD, TEST_ONLY, SurfaceAnalysis, names_of
from pylint_omni.surfaces.lines import file_lines
from pylint_omni.surfaces.reach import PRODUCTION, VALIDATION
from pylint_omni.surfaces.chains import Chain
from pylint_omni.surfaces.dead_doubts import compatibility_shim
from pylint_omni.surfaces.loaded import computed_import
from pylint_omni.surfaces.table import TEST_GLOBS
from pylint_omni.surfaces.verdicts import NO_TEST_NAMES_IT, Judged, judge_chain, tests_going

REFERENCE = re.compile(r"\bref\b|_ref\b|\bref_|reference", re.IGNORECASE)
MEMBER_NOISE = ("tests only mention the name", "besides tests, only", "only dead code uses it", "production code names it",
                NO_TEST_NAMES_IT)  # the group's own consumers say whether a test names it

_UNWIRED: Built[dict[str, Unwired]] = Built("surfaces.unwired")


@dataclass
class Unwired:
    """One unwired module or package: where it is shown, what it is, and the judged findings it takes."""

    kind: str  # "Module" | "Package"
    dotted: str
    modules: list[str]
    judged: list[Judged]


def _quiet(analysis: SurfaceAnalysis, module: str) -> bool:
    phase = analysis.reach.phase
    return phase.get(module) != PRODUCTION and all(phase.get(d) != PRODUCTION for d in analysis.table.contained(module))


def _has_definitions(analysis: SurfaceAnalysis, module: str) -> bool:
    return any(analysis.table.surfaces[c].kind != "module" for c in analysis.table.children.get(module, ()))


def _groups(analysis: SurfaceAnalysis) -> list[tuple[str, str, str, list[str]]]:
    """(kind, name, shown-at module, modules) of each quiet package, then of each quiet module outside them."""
    table = analysis.table
    production = {rel: m for rel, m in table.module_of_path.items() if table.surfaces[m].production}
    quiet = {rel for rel, m in production.items() if _quiet(analysis, m)}
    folders: dict[str, list[str]] = {}
    for rel in production:
        folder = rel.rpartition("/")[0]
        while folder:
            folders.setdefault(folder, []).append(rel)
            folder = folder.rpartition("/")[0]
    found: list[tuple[str, str, str, list[str]]] = []
    taken: set[str] = set()
    for folder in sorted(folders, key=lambda f: f.count("/")):
        rels = sorted(folders[folder])
        if "/" not in folder or any(r in taken for r in rels) or not all(r in quiet for r in rels):
            continue
        modules = [production[r] for r in rels]
        if sum(_has_definitions(analysis, m) for m in modules) < 2 or VALIDATION not in {analysis.reach.phase.get(m) for m in modules}:
            continue
        init = next((production[r] for r in rels if r == f"{folder}/__init__.py"), None)
        found.append(("Package", init or modules[0].rpartition(".")[0], init or modules[0], modules))
        taken.update(rels)
    for rel in sorted(quiet - taken):
        if analysis.reach.phase.get(production[rel]) == VALIDATION and len(analysis.chains_in(rel)) >= 2:
            found.append(("Module", production[rel], production[rel], [production[rel]]))
    return found


def unwired(index: ProjectIndex, analysis: SurfaceAnalysis) -> dict[str, Unwired]:
    """Each unwired module or package by the path of the file it is shown in (memoised per analysis)."""
    return _UNWIRED.of(index, lambda: _unwired(index, analysis))


def _unwired(index: ProjectIndex, analysis: SurfaceAnalysis) -> dict[str, Unwired]:
    memo: dict[str, Unwired] = {}
    table = analysis.table
    for kind, dotted, shown, modules in _groups(analysis):
        judged = [judge_chain(index, analysis, status, chain)
                  for m in modules for status, chain in analysis.chains_in(table.surfaces[m].path)]
        if any(j.verdict.status is Status.REJECTED for j in judged) or not any(j.status == TEST_ONLY for j in judged):
            continue
        memo[table.surfaces[shown].path] = Unwired(kind, dotted, modules, judged)
    return memo


def merged_paths(index: ProjectIndex, analysis: SurfaceAnalysis) -> set[str]:
    """Files whose findings an unwired module or package takes."""
    table = analysis.table
    return {table.surfaces[m].path for group in unwired(index, analysis).values() for m in group.modules}


def _doubts(index: ProjectIndex, analysis: SurfaceAnalysis, group: Unwired, tests: list[Consumer]) -> list[str]:
    doubts = [d for j in group.judged for d in j.doubts if not d.startswith(MEMBER_NOISE)]
    package = analysis.table.surfaces.get(group.dotted) if group.kind == "Package" else None
    loaded = computed_import(index, analysis, package) if package is not None else None
    if loaded:
        doubts.append(loaded)  # said of the package itself: its `__init__.py` marker has no finding of its own (`analysis`)
    shim = next(filter(None, (compatibility_shim(index, analysis.table.surfaces[m]) for m in group.modules)), None)
    if shim:
        doubts.append(shim)  # said of a module's own docstring, which none of its definitions' chains reads
    kernels = index.settings.vocabulary.kernel_folder
    if group.kind == "Package" and any(kernels.search(m.replace(".", "/")) for m in group.modules):
        if any(REFERENCE.search("\n".join(file_lines(index, path))) for path in {c.path for c in tests}):
            doubts.insert(0, "kernels its tests check against a reference: a port whose wiring may be pending")
    return list(dict.fromkeys(doubts))


def unwired_wording(index: ProjectIndex, analysis: SurfaceAnalysis, group: Unwired) -> tuple[str, FindingDetails, Verdict]:
    """The message, report entry and verdict of one unwired module or package."""
    table = analysis.table
    consumers = sorted({(c.path, c.line): c for j in group.judged for c in j.validation}.values(), key=lambda c: (c.path, c.line))
    tests = [c for c in consumers if matches_any(c.path, TEST_GLOBS)]
    doubts = _doubts(index, analysis, group, tests)
    if not consumers:
        doubts.append(NO_TEST_NAMES_IT)
    verdict = decide(f"only tests use it: {listed(consumers)}", doubts=doubts, consumers=consumers)
    roots = [j.chain.root for status in (TEST_ONLY, DEAD) for j in group.judged
             if j.status == status and table.surfaces[j.chain.root].kind != "module"]
    going, test_lines = tests_going(index, analysis, Chain(group.modules[0], group.modules), tests)
    lines = sum(table.surfaces[m].lines for m in group.modules) + test_lines
    shown = [c for c in consumers if c in tests] or consumers
    kinds = {j.kind for j in group.judged if j.status == TEST_ONLY}
    where = next((words for kind, words in (("test-only", "tests"), ("example-only", "examples"), ("script-only", "scripts"))
                  if kind in kinds), "the docs")
    what = (f"{group.kind} {group.dotted} is used only by {where}" + (f" ({shown[0].path})" if shown else "")
            + f": {names_of(analysis, roots)}")
    extra = " and the test that exists only for it" if len(going) == 1 else f" and the {len(going)} tests that exist only for it" if going else ""
    role_fix = next((j.fix for j in group.judged if j.fix), "")
    fix = (f"delete it{extra} ({lines} lines)" if verdict.confidence == "high"
           else f"{role_fix} ({lines} lines)" if role_fix else f"wire it in, or delete it{extra} ({lines} lines)")
    text = short_message(what, fix, evidence_clause(verdict))
    surfaces = [f"{table.surfaces[d].path}:{table.surfaces[d].line} {table.surfaces[d].kind} {names_of(analysis, [d])} "
                f"({table.surfaces[d].lines} lines)" for d in [*group.modules, *roots]]
    benefit = Benefit(lines, BenefitKind.API, f"{lines} lines: {len(group.modules)} module(s)"
                      + (f" and {len(going)} tests" if going else ""), scope=group.dotted)
    gain = FindingDetails(
        surfaces, f"Delete the {group.kind.lower()} {group.dotted} with the tests that exist only for it "
        f"({', '.join(names_of(analysis, [t]) for t in going) or 'none found'}), or wire it into production.", benefit,
        "Code outside this repository may import it; run the tests that named it before deleting them.",
        [table.surfaces[r].name for r in roots], proof="; ".join([verdict.reason, *doubts[1:]]),
        subject=group.dotted, kind=f"unwired-{group.kind.lower()}")
    return text, gain, verdict
