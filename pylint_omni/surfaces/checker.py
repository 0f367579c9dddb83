"""`unused-surface` (R7306) and `test-only-surface` (R7307): the checker.

One analysis per project state (`analysis.analysis_of`: surfaces, edges, roots, both
walks, chains) gives the family's members (`plan.members`): dead and test-only chains
at their root, unwired modules and packages, routes and events. The change-set stage
(`pylint_omni.changes`) folds them into the changes a maintainer would make (the dead
methods of a class with the state only they use, a module's dead helpers) and this
checker emits what it planned for each module it visits. Like every checker's, the
findings are replayed while no file of the project changes (`evidence.memo`).
Modules under validation paths are not audited. The family's per-file facts (`scan`)
are handed to the index through `SCANNERS`; its members are handed to the stage
through `SOURCE`.
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.changes.emit import ChangeSetChecker
from pylint_omni.surfaces.plan import SYMBOLS, TEST_ONLY, UNUSED, members
from pylint_omni.surfaces.scan import scan_surface_facts
from pylint_omni.surfaces.table import SURFACE_FACTS

SCANNERS = {SURFACE_FACTS: scan_surface_facts}
SOURCE = ("surfaces", SYMBOLS, members)


class UnusedSurfaceChecker(ChangeSetChecker):
    """Flags surfaces no production root reaches, and those only validation code reaches."""

    SYMBOLS = SYMBOLS
    msgs = {
        "R7306": (
            "%s",
            UNUSED,
            "A class, function, method, exception class or module that no production root reaches: no "
            "resolved reference, qualname string, YAML or TOML value, entry point, registry, decorator, "
            "upstream hook or reader, or framework convention uses it, except other dead code (named in "
            "the message: one finding per dead chain, at its root; the dead methods of one class with the "
            "state only they use, or the dead definitions of one module, as one change). Delete it and what goes with it.",
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
        self.emit_planned(node)


def register(linter: PyLinter) -> None:
    linter.register_checker(UnusedSurfaceChecker(linter))
