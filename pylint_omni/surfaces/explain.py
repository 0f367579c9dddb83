"""What `python -m pylint_omni explain NAME` says of a surface's reachability, as the messages judge it.

For a reached surface: the walk that reached it (production or validation only) and
the path back to its root, each step with the reason a convention or a root gave
(`registered in ...`, `upstream hook at ...`, `a console script`). For an unreached
one: the chain it belongs to and that chain's verdict (`verdicts.judge_chain`, the
same code the checker runs), with the consumers and doubts the finding cites, and the
production calls of its name (by name: where a call the graph did not resolve may
still run it).
"""

from __future__ import annotations

from pylint_omni.evidence.heat import callers_of
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import DEAD, analysis_of, owner_at, short_name
from pylint_omni.surfaces.reach import PRODUCTION
from pylint_omni.surfaces.verdicts import judge_chain

MAX_STEPS = 8  # steps of a reachability path shown


def lineage_targets(index: ProjectIndex, dotted: str) -> list[str]:
    """For a method, the same member on every class whose `self.m()` may run it (its lineage, sibling mixins of a
    class that combines them: `reach.lineage`), as the walk reaches it; the surface itself otherwise."""
    analysis = analysis_of(index)
    surface = analysis.table.surfaces.get(dotted)
    if surface is None or surface.kind != "method" or not surface.container:
        return [dotted]
    return [dotted, *sorted(f"{owner}.{surface.name}" for owner in analysis.reach.lineage(surface.container)
                            if f"{owner}.{surface.name}" != dotted)]


def _dead_production_uses(index: ProjectIndex, dotted: str) -> list[str]:
    """Production uses of a test-only surface sit in code no production root reaches: say so, since the consumer
    list shows them as production consumers."""
    analysis = analysis_of(index)
    lines: list[str] = []
    for ref in graph_of(index).refs_to(dotted):
        owner = owner_at(analysis, ref.path, ref.line)
        if (ref.via != "import" and index.location(ref.path) is Location.PRODUCTION and owner is not None
                and analysis.reach.phase.get(owner) != PRODUCTION):
            lines.append(f"  its production use at {ref.path}:{ref.line} is in {short_name(analysis, owner)}, "
                         "which no production root reaches (it goes with that code)")
    return lines


def reachability_lines(index: ProjectIndex, dotted: str) -> list[str]:
    """Lines describing how (or whether) the walk reaches `dotted`; empty when it is no surface."""
    analysis = analysis_of(index)
    if dotted not in analysis.table.surfaces:
        return []
    phase = analysis.reach.phase.get(dotted)
    if phase is not None:
        walk = "production roots" if phase == PRODUCTION else "validation code only (test-only-surface)"
        lines = [f"reachability: reached from {walk}"]
        current, steps = dotted, 0
        while current and steps < MAX_STEPS:
            if current.startswith("file:"):
                lines.append(f"    {current[5:]} (names it)")
                break
            why = analysis.reach.why.get(current, "")
            lines.append(f"    {current}" + (f"  [{why}]" if why else ""))
            previous = analysis.reach.reached_from.get(current, "")
            if not previous or previous == current:
                break
            current, steps = previous, steps + 1
        if phase != PRODUCTION:
            lines += _dead_production_uses(index, dotted)
        return lines
    for root, (status, chain) in analysis.chains.items():
        members = {root, *chain.units, *chain.overrides, *(c for u in chain.units for c in analysis.table.contained(u))}
        if dotted in members:
            judged = judge_chain(index, analysis, status, chain)
            symbol = "unused-surface" if status == DEAD else "test-only-surface"
            label = judged.verdict.status.value + (f" ({judged.verdict.confidence})" if judged.verdict.confidence else "")
            head = "its root" if root != dotted else "shown here"
            lines = [f"reachability: unreached; part of the chain of {short_name(analysis, root)} ({head})",
                     f"  {symbol} verdict: {label}: {judged.verdict.reason}"]
            lines += [f"  doubt: {doubt}" for doubt in judged.doubts if doubt != judged.verdict.reason]
            lines += [f"  validation consumer: {c.describe()}" for c in judged.validation]
            name = analysis.table.surfaces[dotted].name
            lines += [f"  production call of `{name}` by name: {c.path}:{c.function['line']} in {c.label}"
                      for c in (callers_of(index, name) or [])]
            return lines
    return ["reachability: unreached (no finding: an empty module, or a surface whose chain is not reported)"]
