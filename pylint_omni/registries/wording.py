"""Words of `unused-registry-entry`: the short message and the report details of one entry.

The fix names the entry's target only when deleting the entry may leave it unused: a
lazy-export map's target is a definition of its own module that other code imports
directly, so its entry's fix is the entry alone, never the class it points to.
"""

from __future__ import annotations

from typing import Any

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import evidence_clause, short_message
from pylint_omni.index.facts import RegistryFact
from pylint_omni.registries.liveness import EntryEvidence

SYMBOL = "unused-registry-entry"
POINTERS = frozenset({"lazy-export"})  # forms whose entries point to definitions that live on their own


def dying_target(registry: RegistryFact, evidence: EntryEvidence) -> Any:
    """The definition that goes with the entry: none of a lazy-export map, nor one other code uses."""
    return None if registry["form"] in POINTERS or evidence.target_consumers else evidence.target


def entry_details(relpath: str, registry: RegistryFact, entry: dict[str, Any], evidence: EntryEvidence, module: str,
                  subject: str | None = None, exported: tuple[str, ...] = ()) -> FindingDetails:
    """`exported`: the module's `__all__` (a lazily served name listed there goes from it too, or `import *` breaks)."""
    key, target = entry["key"], dying_target(registry, evidence)
    surface = [f"{relpath}:{entry['line']} {registry['name']}[{key!r}] ({registry['form']})"]
    simplification = f"Remove the entry {key!r} from {registry['name']}" + (
        " and from __all__ (`import *` would fail on it)" if registry["form"] == "lazy-export" and key in exported else "")
    benefit = f"one {registry['form']} registry entry and the name {key!r} as a supported choice"
    names = [key]
    lines = entry["span"][1] - entry["span"][0] + 1
    if target is not None:
        target_lines = target.data["end"] - target.data["line"] + 1
        lines += target_lines
        surface.append(f"{target.path}:{target.data['line']} {target.kind} {target.data['name']}")
        simplification += f", then delete {target.kind} {target.data['name']} (only the entry names it)"
        benefit += f"; {target.kind} {target.data['name']} ({target_lines} lines), which only it names"
        names.append(target.data["name"])
    elif evidence.target is not None and registry["form"] in POINTERS:
        simplification += f"; {evidence.target.data['name']} stays (other code imports it from its own module)"
    elif evidence.target is not None:
        used = evidence.target_consumers[0]
        simplification += f"; {evidence.target.data['name']} stays (used at {used.path}:{used.line})"
    risk = (
        f"A configuration, checkpoint or plugin outside this repository that names {key!r} would stop "
        "resolving; run the tests that exercise the registry."
    )
    # An entry without code of its own (a key and a value) is small: the report bundles them per file.
    gain = Benefit(lines, BenefitKind.API, benefit, micro=target is None and lines <= 2,
                   bundle="unused registry entry", scope=registry["name"])
    if subject is not None:
        return FindingDetails(surface, simplification + ".", gain, risk, names, subject=subject, kind="qualname-function")
    return FindingDetails(surface, simplification + ".", gain, risk, names,
                          subject=f"{module or relpath}.{registry['name']}[{key!r}]", kind="entry")


def entry_text(registry: RegistryFact, entry: dict[str, Any], evidence: EntryEvidence) -> str:
    target = dying_target(registry, evidence)
    fix = "remove the entry" + (f" and {target.data['name']}, which only it names" if target else "")
    return short_message(
        f"Registry entry '{entry['key']}' of {registry['name']} has no production consumer", fix,
        evidence_clause(evidence.verdict),
    )
