"""Two fields of one class bound to the same object at construction: one fact under two names.

`self.model_family = model_spec` and, a few lines later, `self._model_spec = model_spec`,
neither ever rebound: every reader of one could read the other, and a later change to one
name (a reload assigning only `_model_spec`) silently splits them. Only a plain local
name or parameter counts as "the same object"; `self.a = x.y` twice is a mirror
(`patterns.find_mirrors`), `self.a = []` twice are two lists.
"""

from __future__ import annotations

from dataclasses import dataclass

from astroid import nodes

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.consumers import Verdict
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.ranking import PATTERN
from pylint_omni.evidence.wording import evidence_clause, short_message
from pylint_omni.state.patterns import ClassState, FieldWrite


@dataclass(frozen=True)
class Alias:
    """Fields of one class that construction binds to one local name, each written once."""

    source: str  # the parameter or local both are bound to
    writes: tuple[FieldWrite, ...]  # in line order; the first is the name to keep by default

    @property
    def fields(self) -> list[str]:
        return [w.name for w in self.writes]


def find_aliases(state: ClassState) -> list[Alias]:
    """Groups of two or more fields assigned the same plain name in one construction method, each written once."""
    construction = state.construction_methods()
    groups: dict[tuple[str, str], list[FieldWrite]] = {}
    for writes in state.writes.values():
        if len(writes) != 1:
            continue  # rebound elsewhere in the class: its own state
        write = writes[0]
        if write.kind != "assign" or write.method not in construction or not isinstance(write.value, nodes.Name):
            continue
        if write.value.name in ("self", "cls") or write.name in state.mutated_in:
            continue
        groups.setdefault((write.method, write.value.name), []).append(write)
    return [
        Alias(source, tuple(sorted(items, key=lambda w: w.node.lineno or 0)))
        for (_, source), items in groups.items()
        if len(items) >= 2 and not _rebound_between(source, items)
    ]


def _rebound_between(source: str, writes: list[FieldWrite]) -> bool:
    """Whether the local is bound again between the first and the last field write (Megatron-LM's `self.input_data =
    layout`, then `layout = parse(layout)` ... `self.layout = layout`): the fields then hold different objects."""
    lines = [w.node.lineno or 0 for w in writes]
    first, last = min(lines), max(lines)
    frame = writes[0].node.frame()
    return any(first < (n.lineno or 0) < last for n in frame.nodes_of_class(nodes.AssignName) if n.name == source)


def alias_text(owner: str, alias: Alias, verdict: Verdict) -> str:
    names = " and ".join(f"{owner}.{name}" for name in alias.fields)
    lines = ", ".join(str(w.node.lineno) for w in alias.writes)
    keep = alias.fields[0]
    return short_message(f"{names} hold the same object (`{alias.source}`, lines {lines})",
                         f"keep {keep} and read it where the other name is read",
                         evidence_clause(verdict, "each is bound once, at construction, and never rebound"))


def alias_details(relpath: str, owner: str, alias: Alias, proof: str) -> FindingDetails:
    surface = [f"{relpath}:{w.node.lineno} {owner}.{w.name} = {alias.source}" for w in alias.writes]
    keep, others = alias.fields[0], alias.fields[1:]
    change = (f"Keep {owner}.{keep}; replace the reads of {', '.join(f'.{n}' for n in others)} with .{keep} "
              f"(or a read-only property if the other name is public API) and delete {'their' if len(others) > 1 else 'its'} assignment")
    risk = "A subclass or a caller outside this repository that rebinds one name alone would see the names diverge."
    # A rename-sized cleanup: micro, so that the same pair across many classes is one line of the report.
    gain = Benefit(len(others), BenefitKind.STATE, f"{len(others)} duplicate field name(s) of one object", micro=True,
                   bundle="field naming the same object as another", scope=owner, change=PATTERN)
    return FindingDetails(surface, change + ".", gain, risk, [owner, *alias.fields], proof)
