"""`unused-surface` (R7306) and `test-only-surface` (R7307): the checker.

One analysis per project state (`analysis.analysis_of`: surfaces, edges, roots, both
walks, chains) plans the findings of each audited file (`plan`); each module the
checker visits gets its planned findings at the class, function, method or
assignment (a whole module at line 1); an unwired module or package is one finding
at its top (`unwired`). Like every checker's, they are replayed while
no file of the project changes (`evidence.memo`), so an unchanged project is not
analysed again.
Modules under validation paths are not audited. The family's per-file facts
(`scan`) are handed to the index through `SCANNERS`; a cold run plans every file
while it waits for the copies (`WHILE_WAITING`).
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.surfaces.plan import ASSIGNMENT, MODULE, TEST_ONLY, UNUSED, plan_all, planned_in
from pylint_omni.surfaces.scan import scan_surface_facts
from pylint_omni.surfaces.table import SURFACE_FACTS

SCANNERS = {SURFACE_FACTS: scan_surface_facts}
# Judged by a cold run's main process while its child judges the copies (`index.background`): key -> (messages, judgement).
WHILE_WAITING = {"surfaces.plans": (frozenset({UNUSED, TEST_ONLY}), plan_all)}
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
        planned = planned_in(index, relpath)
        if not planned:
            return
        definitions: dict[int, nodes.NodeNG] = {}
        for definition in node.nodes_of_class(DEFINITIONS):
            definitions.setdefault(definition.fromlineno, definition)
        assignments = {a.fromlineno: a for a in node.nodes_of_class(nodes.Assign)} if any(
            p.anchor == ASSIGNMENT for p in planned) else {}
        for finding in planned:
            at = node if finding.anchor == MODULE else (assignments if finding.anchor == ASSIGNMENT else definitions).get(finding.line)
            if at is not None:
                self.emit(finding.symbol, at, finding.verdict, finding.args, finding.details)


def register(linter: PyLinter) -> None:
    linter.register_checker(UnusedSurfaceChecker(linter))
