"""`lifecycle-mechanism` (R7312): a bool flag set and cleared in exactly the methods an Event is.

The flag mirrors the Event's state with the same failure boundary: read `event.is_set()` and
drop the flag. A flag also moved in an `except`/`finally` clause records cleanup after a
partial failure, which the Event does not: that pair is a rejected idea, with that reason.
HIGH when every set and clear of each has a matching one of the other in the same method.
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.lifecycle.mechanisms import Mechanism, class_mechanisms
from pylint_omni.lifecycle.wording import mirror_text

SYMBOL = "lifecycle-mechanism"


def _mirrors(flag: Mechanism, event: Mechanism) -> bool:
    """Whether the flag is set and cleared in exactly the methods where the event is (and is set somewhere)."""
    sets = flag.methods("set")
    return bool(sets) and sets == event.methods("set") and flag.methods("clear") - {"__init__"} == event.methods("clear")


class LifecycleMechanismChecker(OmniChecker):
    """Flags a bool flag that mirrors an Event of the same class."""

    msgs = {
        "R7312": (
            "%s",
            SYMBOL,
            "Two lifecycle mechanisms of one class hold one state with the same failure boundary: a bool "
            "flag set and cleared in exactly the methods where an Event is set and cleared. Read the Event "
            "and drop the flag.",
        ),
    }

    def visit_classdef(self, node: nodes.ClassDef) -> None:
        mechanisms = class_mechanisms(node)
        events = [m for m in mechanisms.values() if m.kind == "event"]
        for flag in (m for m in mechanisms.values() if m.kind == "flag"):
            for event in events:
                if _mirrors(flag, event):
                    self._report(node, flag, event)
                    break

    def _report(self, owner: nodes.ClassDef, flag: Mechanism, event: Mechanism) -> None:
        cleanup = [t.line for t in flag.transitions if t.in_handler]
        text = mirror_text(flag, event)
        if cleanup:
            why = f"`{flag.name}` is also moved in except/finally (line {cleanup[0]}): it records cleanup after partial failure"
            verdict = Verdict(Status.REJECTED, None, why)
        else:
            verdict = Verdict(Status.CANDIDATE, "high", text)
        benefit = Benefit(len(flag.transitions), BenefitKind.STATE, f"drop `{flag.name}`", scope=owner.name)
        details = FindingDetails([f"{owner.qname()}.{flag.name}"], text, benefit, "a reader that needs the flag apart from the event",
                                 subject=f"{owner.qname()}.{flag.name}", kind="lifecycle-flag-event")
        self.emit(SYMBOL, flag.created, verdict, (text,), details)


def register(linter: PyLinter) -> None:
    linter.register_checker(LifecycleMechanismChecker(linter))
