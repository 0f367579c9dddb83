"""The family's verdicts as members of change sets (`pylint_omni.changes`), planned from the analysis without astroid.

Each production file gives its members: a dead or test-only chain at its root (a
module at line 1), a module or package production never uses but tests do as one
member at its top (`unwired`), routes at their handler and events at their
assignment. The change-set stage folds them (the dead methods of one class, a
module's dead helpers) and plans what the checker emits, found again by line.
"""

from __future__ import annotations

from pylint_omni.changes.model import TEST_ONLY, UNUSED, Member, Span
from pylint_omni.evidence.memo import ASSIGNMENT, DEFINITION, MODULE, Planned
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import DEAD, SurfaceAnalysis, analysis_of
from pylint_omni.surfaces.events import judge_events
from pylint_omni.surfaces.routes import judge_routes
from pylint_omni.surfaces.table import SURFACE_FACTS
from pylint_omni.surfaces.unwired import merged_paths, unwired, unwired_wording
from pylint_omni.surfaces.verdicts import Judged, judge_chain
from pylint_omni.surfaces.wording import details, event_wording, message, route_wording

SYMBOLS = frozenset({UNUSED, TEST_ONLY})


def members(index: ProjectIndex) -> list[Member]:
    """Every member of every audited Python file (a cold run's main process computes it while its child judges
    the copies)."""
    analysis = analysis_of(index)
    found: list[Member] = []
    for relpath, _ in index.python_files():
        if index.location(relpath) is not Location.VALIDATION:
            found.extend(file_members(index, analysis, relpath))
    return found


def _unit_names(analysis: SurfaceAnalysis, judged: Judged) -> tuple[str, ...]:
    """The short name of every unit a chain deletes; an override in another class as `Sub.m` (not `m` again)."""
    table = analysis.table
    root = table.surfaces[judged.chain.root]
    return tuple(table.surfaces[d].name if table.surfaces[d].container == root.container
                 else f"{(table.surfaces[d].container or '').rpartition('.')[2]}.{table.surfaces[d].name}"
                 for d in [*judged.chain.units, *judged.chain.overrides])


def _chain_spans(analysis: SurfaceAnalysis, judged: Judged) -> tuple[Span, ...]:
    table = analysis.table
    return tuple((table.surfaces[d].path, table.surfaces[d].line, table.surfaces[d].end)
                 for d in [*judged.chain.units, *judged.chain.overrides])


def file_members(index: ProjectIndex, analysis: SurfaceAnalysis, relpath: str) -> list[Member]:
    """The members of one production file, in the order the checker emits them."""
    table = analysis.table
    found: list[Member] = []
    group = unwired(index, analysis).get(relpath)
    module = table.module_of_path.get(relpath, relpath)
    if group is not None:
        text, gain, verdict = unwired_wording(index, analysis, group)
        spans = tuple((table.surfaces[m].path, 1, table.surfaces[m].end) for m in group.modules)
        found.append(Member(Planned(TEST_ONLY, 1, MODULE, (text,), verdict, gain), relpath, table.surfaces[module].end,
                            group.kind.lower(), group.dotted, table.surfaces[module].container or "", "test-only", spans))
    facts = index.extra(relpath, SURFACE_FACTS) or {}
    shadowing = {row[1]: row[3] for row in facts.get("shadowed", [])}
    # An unwired module's or package's findings are in its one member.
    chains = [] if relpath in merged_paths(index, analysis) else analysis.chains_in(relpath)
    for status, chain in chains:
        one = judge_chain(index, analysis, status, chain)
        root = table.surfaces[chain.root]
        anchor, line = (MODULE, 1) if root.kind == "module" else (DEFINITION, root.line)
        text = message(index, analysis, one, shadowing.get(root.line, 0))
        planned = Planned(UNUSED if one.status == DEAD else TEST_ONLY, line, anchor, (text,), one.verdict,
                          details(analysis, one, relpath))
        found.append(Member(planned, relpath, root.end, root.kind, chain.root, root.container or "",
                            "dead" if one.status == DEAD else "test-only", _chain_spans(analysis, one),
                            tuple(chain.used_by), names=_unit_names(analysis, one), leftovers=tuple(one.leftovers)))
    for route in judge_routes(index, analysis, relpath):
        text, gain = route_wording(analysis, route)
        surface = table.surfaces[route.function]
        found.append(Member(Planned(route.symbol, surface.line, DEFINITION, (text,),
                                    route.verdict, gain), relpath, surface.end, "route", route.function,
                            surface.container or "", "dead" if route.symbol == UNUSED else "test-only"))
    for event in judge_events(index, relpath, facts.get("events", [])):
        text, gain = event_wording(index, relpath, event)
        found.append(Member(Planned(UNUSED, event.line, ASSIGNMENT, (text,), event.verdict, gain), relpath, event.line,
                            "event", f"{module}.{event.owner + '.' if event.owner else ''}{event.name}", module, "event"))
    return found
