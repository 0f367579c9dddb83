"""`replaceable-infrastructure` (R7313): a hand-written primitive a dependency already provides.

Tests, benchmarks and examples are never audited (`audited_index_for`).
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.infrastructure.shapes import silu
from pylint_omni.infrastructure.wording import replaceable_text

SYMBOL = "replaceable-infrastructure"


class ReplaceableInfrastructureChecker(OmniChecker):
    """Flags hand-written code that a call into a dependency the project has replaces with the same numerics."""

    msgs = {
        "R7313": (
            "%s",
            SYMBOL,
            "Hand-written code that a dependency the project already has provides (a PyTorch activation, "
            "a standard-library helper). Call the library instead and delete the hand-written lines.",
        ),
    }

    def visit_binop(self, node: nodes.BinOp) -> None:
        found = silu(node)
        if found is None or self.audited_index_for(node.root()) is None:
            return
        scope = node.scope().qname()
        # The id's subject: the enclosing function and the expression, never the line (ids survive edits above it).
        details = FindingDetails([f"{scope}: {found.written}"], f"call `{found.replacement}`",
                                 Benefit(1, BenefitKind.COPIES, f"a hand-written {found.name} replaced by the library one"),
                                 "none: the library computes the same function", proof=found.evidence,
                                 subject=f"{scope}: {found.written}", kind=f"library-{found.name.lower()}")
        self.emit(SYMBOL, node, Verdict(Status.CANDIDATE, "high", found.evidence), (replaceable_text(found),), details)


def register(linter: PyLinter) -> None:
    linter.register_checker(ReplaceableInfrastructureChecker(linter))
