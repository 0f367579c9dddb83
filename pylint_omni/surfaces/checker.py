"""`unused-surface` (R7306) and `test-only-surface` (R7307): the checker.

One analysis per run (`analysis.analysis_of`: surfaces, edges, roots, both walks,
chains); each module the checker visits gets the findings of the chains shown in
it, at the class, function or method (a whole module at line 1). Three or more
dead methods of one live class are one finding at the class (`verdicts.bundles`):
one decision, "this part of the class's API goes"; a module or package production
never uses but tests do is one finding at its top (`unwired`). Modules under
validation paths are not audited. The family's per-file facts (`scan`) are handed
to the index through `SCANNERS`.
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import DEAD, SurfaceAnalysis, analysis_of
from pylint_omni.surfaces.chains import Chain
from pylint_omni.surfaces.events import judge_events
from pylint_omni.surfaces.routes import judge_routes
from pylint_omni.surfaces.scan import scan_surface_facts
from pylint_omni.surfaces.table import SURFACE_FACTS
from pylint_omni.surfaces.unwired import merged_paths, unwired, unwired_wording
from pylint_omni.surfaces.verdicts import bundles, judge_chain
from pylint_omni.surfaces.wording import bundle_wording, details, event_wording, message, route_wording

SCANNERS = {SURFACE_FACTS: scan_surface_facts}
UNUSED, TEST_ONLY = "unused-surface", "test-only-surface"
DEFINITIONS = (nodes.FunctionDef, nodes.AsyncFunctionDef, nodes.ClassDef)


class UnusedSurfaceChecker(OmniChecker):
    """Flags surfaces no production root reaches, and those only validation code reaches."""

    msgs = {
        "R7306": (
            "%s",
            UNUSED,
            "A class, function, method, exception class or module that no production root reaches: no "
            "resolved reference, qualname string, YAML or TOML value, entry point, registry, decorator, "
            "upstream hook or reader, or framework convention uses it, except other dead code (named in "
            "the message: one finding per dead chain, at its root). Delete it and what goes with it.",
        ),
        "R7307": (
            "%s",
            TEST_ONLY,
            "A production class, function, method or module whose only consumers are tests, docs, examples "
            "or benchmarks, and that no user-facing documentation presents as supported API. Delete it with "
            "the tests that exist only for it, or document it as supported.",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        if not (self.linter.is_message_enabled(UNUSED) or self.linter.is_message_enabled(TEST_ONLY)):
            return
        found = self.audited_index_for(node)
        if found is None:
            return
        index, relpath = found
        analysis = analysis_of(index)
        chains = analysis.chains_in(relpath)
        group = unwired(index, analysis).get(relpath)
        if group is not None:
            text, gain, verdict = unwired_wording(index, analysis, group)
            self.emit(TEST_ONLY, node, verdict, (text,), gain)
        if chains and relpath in merged_paths(index, analysis):
            chains = []  # an unwired module's or package's findings are in its one finding
        facts = index.extra(relpath, SURFACE_FACTS) or {}
        routes = judge_routes(index, analysis, relpath)
        events = judge_events(index, relpath, facts.get("events", []))
        if not (chains or routes or events):
            return
        positions: dict[int, nodes.NodeNG] = {}
        for definition in node.nodes_of_class(DEFINITIONS):
            positions.setdefault(definition.fromlineno, definition)
        self._chains(node, index, analysis, relpath, chains, positions)
        for route in routes:
            at = positions.get(analysis.table.surfaces[route.function].line)
            if at is not None:
                text, gain = route_wording(analysis, route)
                self.emit(route.symbol, at, route.verdict, (text,), gain)
        assignments = {a.fromlineno: a for a in node.nodes_of_class(nodes.Assign)}
        for event in events:
            at = assignments.get(event.line)
            if at is not None:
                text, gain = event_wording(index, relpath, event)
                self.emit(UNUSED, at, event.verdict, (text,), gain)

    def _chains(self, node: nodes.Module, index: ProjectIndex, analysis: SurfaceAnalysis, relpath: str,
                chains: list[tuple[str, Chain]], positions: dict[int, nodes.NodeNG]) -> None:
        shadowing = {row[1]: row[3] for row in (index.extra(relpath, SURFACE_FACTS) or {}).get("shadowed", [])}
        judged = [judge_chain(index, analysis, status, chain) for status, chain in chains]
        bundled = bundles(analysis, judged)
        for owner, members in bundled.items():
            at = positions.get(analysis.table.surfaces[owner].line)
            if at is not None:
                text, gain, verdict = bundle_wording(analysis, owner, members, relpath)
                self.emit(UNUSED, at, verdict, (text,), gain)
        inside = {id(j) for members in bundled.values() for j in members}
        for one in judged:
            root = analysis.table.surfaces[one.chain.root]
            at = node if root.kind == "module" else positions.get(root.line)
            if at is None or id(one) in inside:
                continue
            symbol = UNUSED if one.status == DEAD else TEST_ONLY
            text = message(analysis, one, shadowing.get(root.line, 0))
            self.emit(symbol, at, one.verdict, (text,), details(analysis, one, relpath))


def register(linter: PyLinter) -> None:
    linter.register_checker(UnusedSurfaceChecker(linter))
