"""Every finding of the surfaces family in one file, planned from the analysis without astroid.

The checker emits them at the nodes found again by line. Chains are shown at
their root (a module at line 1), three or more dead methods of one live class as one
finding at the class (`verdicts.bundles`), a module or package production never uses
but tests do as one finding at its top (`unwired`), routes at their handler and
events at their assignment.
"""

from __future__ import annotations

from pylint_omni.evidence.memo import MODULE, Planned
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import DEAD, SurfaceAnalysis, analysis_of
from pylint_omni.surfaces.events import judge_events
from pylint_omni.surfaces.routes import judge_routes
from pylint_omni.surfaces.table import SURFACE_FACTS
from pylint_omni.surfaces.unwired import merged_paths, unwired, unwired_wording
from pylint_omni.surfaces.verdicts import bundles, judge_chain
from pylint_omni.surfaces.wording import bundle_wording, details, event_wording, message, route_wording

UNUSED, TEST_ONLY = "unused-surface", "test-only-surface"
DEFINITION, ASSIGNMENT = "definition", "assignment"  # the anchors besides MODULE: found by line


def planned_in(index: ProjectIndex, relpath: str) -> list[Planned]:
    """`plan_file` of the index's current state, once per file (`plan_all` may have planned it ahead)."""
    memo: dict[str, list[Planned]] = index.derived.setdefault("surface_plans", {})
    found = memo.get(relpath)
    if found is None:
        found = memo[relpath] = plan_file(index, analysis_of(index), relpath)
    return found


def plan_all(index: ProjectIndex) -> None:
    """Plan every audited Python file: a cold run's main process does it while its child judges the copies."""
    for relpath, _ in index.python_files():
        if index.location(relpath) is not Location.VALIDATION:
            planned_in(index, relpath)


def plan_file(index: ProjectIndex, analysis: SurfaceAnalysis, relpath: str) -> list[Planned]:
    """The findings of one production file, in the order the checker emits them."""
    planned: list[Planned] = []
    group = unwired(index, analysis).get(relpath)
    if group is not None:
        text, gain, verdict = unwired_wording(index, analysis, group)
        planned.append(Planned(TEST_ONLY, 1, MODULE, (text,), verdict, gain))
    facts = index.extra(relpath, SURFACE_FACTS) or {}
    shadowing = {row[1]: row[3] for row in facts.get("shadowed", [])}
    # An unwired module's or package's findings are in its one finding.
    chains = [] if relpath in merged_paths(index, analysis) else analysis.chains_in(relpath)
    judged = [judge_chain(index, analysis, status, chain) for status, chain in chains]
    bundled = bundles(analysis, judged)
    for owner, members in bundled.items():
        text, gain, verdict = bundle_wording(analysis, owner, members, relpath)
        planned.append(Planned(UNUSED, analysis.table.surfaces[owner].line, DEFINITION, (text,), verdict, gain))
    inside = {id(j) for members in bundled.values() for j in members}
    for one in judged:
        if id(one) in inside:
            continue
        root = analysis.table.surfaces[one.chain.root]
        anchor, line = (MODULE, 1) if root.kind == "module" else (DEFINITION, root.line)
        text = message(analysis, one, shadowing.get(root.line, 0))
        planned.append(Planned(UNUSED if one.status == DEAD else TEST_ONLY, line, anchor, (text,), one.verdict,
                               details(analysis, one, relpath)))
    for route in judge_routes(index, analysis, relpath):
        text, gain = route_wording(analysis, route)
        planned.append(Planned(route.symbol, analysis.table.surfaces[route.function].line, DEFINITION, (text,),
                               route.verdict, gain))
    for event in judge_events(index, relpath, facts.get("events", [])):
        text, gain = event_wording(index, relpath, event)
        planned.append(Planned(UNUSED, event.line, ASSIGNMENT, (text,), event.verdict, gain))
    return planned
