"""The words of the two messages and of their report entries (what, the fix, one evidence clause)."""

from __future__ import annotations

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.consumers import listed
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import evidence_clause, leftover_clause, short_message
from pylint_omni.index.paths import matches_any
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import DEAD, SurfaceAnalysis, names_of, short_name
from pylint_omni.surfaces.broken import broken_import
from pylint_omni.surfaces.events import EventFinding
from pylint_omni.surfaces.routes import RouteFinding
from pylint_omni.surfaces.table import TEST_GLOBS
from pylint_omni.surfaces.verdicts import Judged, label_of

MICRO_LINES = 4  # a lone surface this small is bundled with its kind in the report


def message(index: ProjectIndex, analysis: SurfaceAnalysis, judged: Judged, shadowed_by: int = 0) -> str:
    """The one-line message of a judged chain."""
    chain = judged.chain
    root = analysis.table.surfaces[chain.root]
    name = short_name(analysis, chain.root).partition("@")[0]
    label = judged.label
    clause = evidence_clause(judged.verdict)
    if judged.status != DEAD:
        where = {"example-only": "examples", "script-only": "scripts", "docs-only": "the docs"}.get(judged.kind, "tests")
        shown = [c for c in judged.validation if where != "tests" or matches_any(c.path, TEST_GLOBS)] or judged.validation
        what = f"{label} {name} is used only by {where}" + (f" ({shown[0].path})" if shown else "")
        if judged.verdict.confidence == "high":
            going = len(judged.tests_going)
            extra = ("the test that exists only for it" if going == 1 else
                     f"the {going} tests that exist only for it" if going else "")
            return short_message(what, f"{delete_with('delete it', leftover_clause(judged.leftovers), extra)} "
                                 f"({lines_going(chain.lines + judged.test_lines, judged)} lines)",
                                 clause if shown else "reached only from validation code")
        return short_message(what, judged.fix or "decide whether it is supported API; if not, delete it with those uses", clause)
    if root.kind == "shadowed":
        what = f"{label} {name} (line {root.line}) is replaced by a later definition of the same name" + (
            f" (line {shadowed_by})" if shadowed_by else "")
        return short_message(what, "delete it: it never runs", "Python keeps the last definition")
    broken = broken_import(index, root.path) if root.kind == "module" else None
    verb = ("is never raised or caught" if label == "Exception class" else
            f"cannot be imported ({broken.describe()}) and has no consumer" if broken else
            "is imported but never used" if root.kind == "module" and judged.leftovers else "has no consumer")
    if chain.overrides:
        overrides = names_of(analysis, chain.overrides, home=root.path)
        what = f"{label} {name} and its {'override' if len(chain.overrides) == 1 else f'{len(chain.overrides)} overrides'} ({overrides}) have no caller"
    elif chain.cycle:
        what = f"{label} {name} and {names_of(analysis, chain.members, home=root.path)} only use each other"
    elif chain.members:
        what = f"{label} {name} {verb}, nor {names_of(analysis, chain.members, home=root.path)} that only it uses"
    else:
        what = f"{label} {name} {verb}"
    several = bool(chain.members or chain.overrides)
    fix = delete_with("delete them" if several else "delete it", leftover_clause(judged.leftovers, "their" if several else "its"))
    if judged.kind == "missing-root":
        fix = "delete them, or declare the root that loads it in omni-extra-roots"
    return short_message(what, f"{fix} ({lines_going(chain.lines, judged)} lines)", clause)


def delete_with(head: str, *parts: str) -> str:
    """`delete it, its unused import at x.py:3 and the test that exists only for it`."""
    shown = [p for p in parts if p]
    return head if not shown else f"{head} and {shown[0]}" if len(shown) == 1 else f"{head}, {shown[0]} and {shown[1]}"


def lines_going(lines: int, judged: Judged) -> int:
    """The lines a deletion saves: the chain's (and its tests'), plus one per leftover import."""
    return lines + len(judged.leftovers)


def details(analysis: SurfaceAnalysis, judged: Judged, relpath: str) -> FindingDetails:
    """The report's entry: every surface of the chain, the simplification, benefit and risk."""
    chain = judged.chain
    table = analysis.table
    surfaces = [
        f"{table.surfaces[d].path}:{table.surfaces[d].line} {label_of(analysis, table.surfaces[d]).lower()} "
        f"{short_name(analysis, d)} ({table.surfaces[d].lines} lines)"
        for d in [*chain.units, *chain.overrides]
    ]
    root = table.surfaces[chain.root]
    lines = lines_going(chain.lines + judged.test_lines, judged)
    what = f"{judged.label.lower()} {short_name(analysis, chain.root)}"
    if judged.status == DEAD:
        simplification = f"Delete the {what}" + (f" and the {len(surfaces) - 1} surfaces that go with it" if len(surfaces) > 1 else "")
        simplification += f", and the imports of it no one uses ({', '.join(judged.leftovers)})" if judged.leftovers else ""
        risk = ("Code outside this repository (plugins, forks, user scripts) may import it; "
                "`python -m pylint_omni explain` lists every mention that was checked.")
    else:
        users = listed(judged.validation) if judged.validation else "validation code"
        simplification = (f"Delete the {what} and the validation code that exists only for it ("
                          f"{', '.join(short_name(analysis, t) for t in judged.tests_going) or 'none found'}); "
                          f"the other consumers ({users}) stop using it")
        simplification += f"; delete the imports of it no one uses ({', '.join(judged.leftovers)})" if judged.leftovers else ""
        if judged.fix:
            simplification = judged.fix[0].upper() + judged.fix[1:]
        risk = "If the surface is a supported API, document it instead; run the tests that named it before deleting them."
    benefit = Benefit(
        lines, BenefitKind.API,
        f"{lines} lines: {len(surfaces)} surface(s)" + (f" plus {judged.test_lines} lines of tests" if judged.test_lines else "")
        + (f" and {len(judged.leftovers)} unused import(s)" if judged.leftovers else ""),
        micro=lines <= MICRO_LINES and len(surfaces) == 1,
        bundle=f"unused {judged.label.lower()}" if judged.status == DEAD else f"test-only {judged.label.lower()}",
        scope=short_name(analysis, root.container) if root.container and table.surfaces[root.container].kind == "class" else relpath,
    )
    subject = chain.root.partition("@")[0] + (" (shadowed)" if root.kind == "shadowed" else "")
    proof = "; ".join([judged.verdict.reason, *judged.doubts[1:]]) if judged.doubts else judged.verdict.reason
    return FindingDetails(surfaces, simplification + ".", benefit, risk, [root.name], proof=proof, subject=subject, kind=judged.kind)


def route_wording(analysis: SurfaceAnalysis, route: RouteFinding) -> tuple[str, FindingDetails]:
    """The message and report entry of a route no supported client in the repository calls."""
    name = short_name(analysis, route.function)
    surface = analysis.table.surfaces[route.function]
    if route.symbol == "unused-surface":
        what = f"Route {route.method.upper()} {route.path} ({name}) has no client in the repository"
    else:
        what = f"Route {route.method.upper()} {route.path} ({name}) is called only by tests"
    text = short_message(what, "decide whether it is supported API; if not, delete it", evidence_clause(route.verdict))
    benefit = Benefit(surface.lines, BenefitKind.API, f"{surface.lines} lines: the route {route.path} and its handler",
                      bundle="route without a client", scope=surface.path)
    gain = FindingDetails(
        [f"{surface.path}:{surface.line} route {route.method.upper()} {route.path} ({name})"],
        f"Delete the route {route.path} and its handler {name}, or document it as supported.", benefit,
        "Clients outside the repository may call the route: check access logs or the API contract before removing it.",
        [surface.name], proof=route.verdict.reason, subject=f"{route.function} {route.method.upper()} {route.path}", kind="route")
    return text, gain


def event_wording(index: ProjectIndex, relpath: str, event: EventFinding) -> tuple[str, FindingDetails]:
    """The message and report entry of an event nothing waits on or nothing fires."""
    text = short_message(event.what, event.fix, evidence_clause(event.verdict))
    module = index.entries.get(relpath, {}).get("module", relpath)
    held = f"{event.owner}.{event.name}" if event.owner else event.name
    benefit = Benefit(event.lines, BenefitKind.API, f"the event {held} and its {event.lines - 1} uses",
                      micro=event.lines <= 2, bundle="unused event", scope=event.owner or relpath)
    gain = FindingDetails([f"{relpath}:{event.line} event {held}"], event.fix[0].upper() + event.fix[1:] + ".", benefit,
                          "Another process or plugin may hold the same event object; check who receives it.",
                          [event.name], proof=event.verdict.reason, subject=f"{module}.{held}", kind="event")
    return text, gain
