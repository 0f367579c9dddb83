"""Emitting what the change plan planned: the base of the checkers whose families hand over members.

Such a checker visits a module, asks the plan for its messages in that file and emits
each at the node it names (found again by line: `evidence.anchors.anchored`). The
plugin also hands `absorbing` to every checker (`OmniChecker.absorber`): a finding of
any other family inside code a high-confidence change deletes goes with that change.
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.changes.plan import change_plan
from pylint_omni.evidence.anchors import anchored
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.index.project_index import ProjectIndex


class ChangeSetChecker(OmniChecker):
    """A checker that emits its family's change sets (`SYMBOLS`: the messages it owns)."""

    SYMBOLS: frozenset[str] = frozenset()

    def emit_planned(self, node: nodes.Module) -> None:
        if not self.SYMBOLS & self.enabled_symbols:
            return
        found = self.audited_index_for(node)
        if found is None:
            return
        index, relpath = found
        for planned in change_plan(index, self.enabled_symbols).planned_in(relpath, self.SYMBOLS):
            at = anchored(node, planned.line, planned.anchor)
            if at is not None:
                self.emit(planned.symbol, at, planned.verdict, planned.args, planned.details, absorbable=False)


def absorbing(index: ProjectIndex, relpath: str, first: int, last: int, enabled: frozenset[str]) -> str:
    """The id of the high-confidence change that deletes those lines ("" when none does, or per-member runs)."""
    if index.settings.per_member or not enabled:
        return ""
    return change_plan(index, enabled).absorbing(relpath, first, last)
