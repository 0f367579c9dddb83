"""How sure each copy of a group is, from what it differs in and who owns the copies.

A group keeps one copy (`members[0]`); every other copy is judged against it, so a
group can hold identical copies (high) and drifted ones (medium) at once. In order
(the audit method's reject-or-downgrade rules for copies):
1. copies whose files two active design contracts own (primary paths) -> rejected:
   the contracts keep them apart; copies in two files that use their own module's
   state (a module-level registry dict), a module constant assigned differently in
   each file, a function or class of their own module defined differently in each
   (`_rotary_kernel`: the same text runs different code), or a name their bodies
   import from different modules (`from .stage1 import kernel` in two packages) ->
   medium: sharing one means passing that state or code in;
2. identical after renaming locals -> high;
3. near copies and blocks (whose statements match one by one: the drift checks the
   locals are renamed consistently across the block), by their drift from the kept
   copy (`drift`):
   - differences only in message text (logs, errors) or imports -> high;
   - an operator, a math function, a layer class, or a number in model code ->
     rejected: model-specific math a shared version would hide;
   - a differently named function or method of the same class or module with other
     calls -> rejected: two operations sharing scaffolding, not one implementation;
   - only vendor names or APIs (`torch.cuda` vs `torch.npu`) -> medium: parallel
     hardware backends, mergeable behind a device-agnostic call but not verified on
     the hardware;
   - a difference that changes behaviour (`kinds`: a flag or mode, an outside
     function, another signature, a number in arithmetic, a local's data flow, a
     statement only one copy has) -> medium, saying what differs: the fix is to
     extract the part the copies share, never to share one;
   - anything else (names, literals, values passed through) -> medium, naming the
     drift: one shared function takes it as a parameter;
4. a block inside a compiled GPU kernel (`@triton.jit`) -> medium: sharing it takes a
   jit helper whose compiled code must be checked;
5. after the cache, the rules that follow comments, text, names and upstream
   (`doubts.as_reported`).
A method copied into a subclass of its class is an override that repeats the
inherited one: the base's method is the one kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pylint_omni.copies.drift import Difference, Drift
from pylint_omni.copies.fingerprints import FACT_KEY
from pylint_omni.copies.groups import CopyGroup
from pylint_omni.copies.kinds import WHAT_DIFFERS
from pylint_omni.copies.members import Member
from pylint_omni.evidence.consumers import Status, Verdict, decide
from pylint_omni.evidence.contracts import contracts_of
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.project_index import ProjectIndex

KERNEL_DECORATORS = frozenset({"jit", "njit", "autotune", "heuristics", "kernel"})
MODEL_PATH_PARTS = ("/models/", "/model_executor/", "/layers/", "/ops/", "/kernels/", "/modeling", "/transformers/")
SHOWN_DIFFERENCES = 3  # differences named in a message
BEHAVIOUR_REASON = "the copies differ in behaviour"
# Drift kinds that make two differently named functions of one class or module two operations, not one.
SIBLING_DRIFT = frozenset({"call", "constant", "number", "numeric", "local", "mode", "operation", "signature"})
CALLABLES = ("function", "method")


@dataclass
class Judgement:
    """A copy group with the kept copy first, each other copy's verdict and drift, and whether they override it."""

    group: CopyGroup
    verdicts: dict[Member, Verdict] = field(default_factory=dict)
    drifts: dict[Member, Drift | None] = field(default_factory=dict)
    overrides: bool = False  # every other copy overrides the kept method in a subclass

    @property
    def kept(self) -> Member:
        return self.group.members[0]

    def identical(self, member: Member) -> bool:
        """The copy is the kept one, or the same after renaming locals (message text and imports aside)."""
        if member is self.kept or member.exact == self.kept.exact:
            return True
        found = self.drifts.get(member)
        return found is not None and not found.substantive()

    def tally(self) -> tuple[int, int]:
        """Copies identical to the kept one (itself included) and drifted ones."""
        same = sum(1 for m in self.group.members if self.identical(m))
        return same, len(self.group.members) - same

    def saved(self, member: Member) -> int:
        """Lines sharing deletes at this copy: a block's movable part, less the lines of its drift (they stay as
        arguments or branches); none at a rejected copy or the kept one."""
        verdict = self.verdicts.get(member)
        if verdict is None or verdict.status is Status.REJECTED:
            return 0
        claimed = self.group.claims.get(member)
        stay = set(claimed.stay) if claimed is not None else set()
        found = self.drifts.get(member)
        if found is not None and not self.identical(member):
            stay.update(d.other_line for d in found.substantive() if member.line <= d.other_line <= member.end)
        return member.lines - len(stay)

    @property
    def saved_lines(self) -> int:
        return sum(self.saved(m) for m in self.group.members[1:])

    def behaviour(self, member: Member) -> list[Difference]:
        """What makes this copy compute something else than the kept one (`kinds`): none for an identical copy or
        one whose drift can become plain parameters."""
        found = self.drifts.get(member)
        return found.behaviour() if found is not None and not self.identical(member) else []

    def drift_text(self, member: Member, limit: int = SHOWN_DIFFERENCES) -> str:
        found = self.drifts.get(member)
        if found is None:
            return ""
        differences = found.substantive() or list(found.differences)
        text = "; ".join(d.describe() for d in differences[:limit])
        more = len(differences) - limit
        return text + (f"; {more} more" if more > 0 else "")


def _class_dotted(index: ProjectIndex, member: Member) -> str | None:
    if member.kind != "method" or "." not in member.qual:
        return None
    module = index.entries.get(member.path, {}).get("module", "")
    return f"{module}.{member.qual.rpartition('.')[0]}" if module else None


def _override_order(index: ProjectIndex, group: CopyGroup) -> CopyGroup | None:
    """The group with the base class's method first, when every other copy overrides it in a subclass."""
    if any(m.kind != "method" for m in group.members) or len({m.qual.rpartition(".")[2] for m in group.members}) != 1:
        return None
    graph = class_graph(index)
    owners = {m: _class_dotted(index, m) for m in group.members}
    for base in group.members:
        owner = owners[base]
        if owner is None:
            continue
        if all(m is base or owner in graph.ancestors(owners[m] or "") for m in group.members):
            return CopyGroup(group.tier, [base, *[m for m in group.members if m is not base]], group.similarity, group.claims)
    return None


def is_model_code(member: Member) -> bool:
    path = "/" + member.path
    return any(part in path for part in MODEL_PATH_PARTS)


def in_kernel(index: ProjectIndex, member: Member) -> bool:
    """The copy lies in a compiled GPU kernel (`@triton.jit`, `@numba.njit`, ...)."""
    name = member.qual.rpartition(".")[2]
    for function in index.facts(member.path).get("functions", []):
        if function["name"] == name and function["line"] <= member.line <= function["end"]:
            return any(d.rpartition("(")[0].rpartition(".")[2] in KERNEL_DECORATORS or d.rpartition(".")[2] in KERNEL_DECORATORS
                       for d in function.get("decorators", []))
    return False


def _siblings(kept: Member, other: Member) -> bool:
    """Two differently named functions (or blocks of them) of one class or one module."""
    if kept.kind not in (*CALLABLES, "block") or other.kind not in (*CALLABLES, "block"):
        return False
    return kept.path == other.path and kept.qual != other.qual and (
        kept.qual.rpartition(".")[0] == other.qual.rpartition(".")[0])


def _module_state(index: ProjectIndex, kept: Member, other: Member) -> str | None:
    """Why copies in two files still differ through the module-level names they use (a registry, a constant,
    a helper function or class of their own module)."""
    shared = set(kept.uses) & set(other.uses)
    if kept.path == other.path or not shared:
        return None
    first = (index.extra(kept.path, FACT_KEY) or {}).get("state", {})
    second = (index.extra(other.path, FACT_KEY) or {}).get("state", {})
    own = sorted(n for n in shared if (first.get(n) or [None, False])[1] or (second.get(n) or [None, False])[1])
    if own:
        return f"each copy uses its own module's `{own[0]}` (module-level state): sharing one means passing it in"
    itself = {kept.qual.partition(".")[0], other.qual.partition(".")[0]}  # the copies' own definitions (or classes)
    differ = sorted(n for n in shared - itself if (first.get(n) or [None])[0] != (second.get(n) or [None])[0])
    defined = [n for n in differ if "def" in (first.get(n) or [])[2:] or "def" in (second.get(n) or [])[2:]]
    if defined:
        return (f"each copy calls its own module's `{defined[0]}`, defined differently in each file: "
                "the same text runs different code")
    if differ:
        return f"the module-level `{differ[0]}` the copies use is assigned differently in their files"
    return _local_imports_differ(index, kept, other)


def _local_imports(index: ProjectIndex, member: Member) -> dict[str, str]:
    """Names the copy imports inside its own body -> what they bind (`from .stage1 import kernel` in a function)."""
    imports = index.facts(member.path).get("imports", {})
    found: dict[str, str] = {}
    for token, hits in index.file_occurrences(member.path):
        if any(via == "import" and member.line < line <= member.end for line, via in hits):
            target = imports.get(token) or next((v for v in imports.values() if v.endswith("." + token)), "")
            if target:
                found[token] = target
    return found


def _local_imports_differ(index: ProjectIndex, kept: Member, other: Member) -> str | None:
    """Copies whose body imports the same name from different modules (a relative import in two packages): the
    same text runs different code, which the fingerprint cannot see (an imported local is renamed like any local)."""
    if kept.kind == "module" or other.kind == "module":
        return None
    first, second = _local_imports(index, kept), _local_imports(index, other)
    differ = sorted(n for n in first.keys() & second.keys() if first[n] != second[n])
    if not differ:
        return None
    name = differ[0]
    return (f"each copy imports its own `{name}` (`{first[name]}` vs `{second[name]}`): the same text runs "
            "different code")


def _contract_apart(index: ProjectIndex, group: CopyGroup) -> str | None:
    contracts = contracts_of(index)
    owners = {}
    for member in group.members:
        owner = contracts.owner_of(member.path)
        if owner is not None and owner[1] == "primary":
            owners[owner[0].path] = owner[0]
    if len(owners) < 2:
        return None
    named = " and ".join(c.describe() for c in list(owners.values())[:2])
    return f"active design contracts own the copies apart: {named}"


def judge(index: ProjectIndex, group: CopyGroup, drift_of: Callable[[Member, Member], Drift | None]) -> Judgement:
    """The verdicts of one copy group; `drift_of(kept, other)` compares two copies (`drift.drift`, or a cached result)."""
    reordered = _override_order(index, group)
    judgement = Judgement(reordered or group, overrides=reordered is not None)
    group = judgement.group
    apart = _contract_apart(index, group)
    for member in group.members[1:]:
        state = _module_state(index, judgement.kept, member)
        if apart:
            judgement.verdicts[member] = decide("", rejects=[apart])
        elif state:
            if member.exact != judgement.kept.exact:
                judgement.drifts[member] = drift_of(judgement.kept, member)
            judgement.verdicts[member] = decide("", doubts=[state])
        elif member.kind == "block" and (in_kernel(index, member) or in_kernel(index, judgement.kept)):
            if member.exact != judgement.kept.exact:
                judgement.drifts[member] = drift_of(judgement.kept, member)
            judgement.verdicts[member] = decide("", doubts=[
                "a block inside a compiled GPU kernel: sharing it takes a jit helper; compare the compiled kernels"])
        elif member.kind != "block" and (group.tier == "exact" or member.exact == judgement.kept.exact):
            judgement.verdicts[member] = decide(
                "identical to the inherited method" if judgement.overrides else "identical after renaming locals")
        else:
            judgement.drifts[member] = drift_of(judgement.kept, member)
            judgement.verdicts[member] = _near_verdict(judgement, member)
    return judgement


def _near_verdict(judgement: Judgement, member: Member) -> Verdict:
    found = judgement.drifts.get(member)
    if found is None:
        return decide("", doubts=["a copy could not be read again to compare it"])
    differences = found.substantive()
    if not differences:
        return decide("differs only in message text or imports" if found.differences else "identical after renaming locals")
    kinds = {d.kind for d in differences}
    shown = judgement.drift_text(member)
    model = is_model_code(judgement.kept) or is_model_code(member)
    math = next((d for d in differences if d.kind in ("math", "layer") or (model and d.kind in ("number", "numeric"))), None)
    rejects = [f"the copies differ in model math ({math.describe()}): a shared version would hide a model-specific "
               "difference"] if math is not None else []
    if _siblings(judgement.kept, member) and kinds & SIBLING_DRIFT and not judgement.overrides:
        rejects.append(f"sibling operations sharing scaffolding, not one implementation ({shown})")
    if kinds <= {"vendor"}:
        return decide("", rejects=rejects, doubts=[f"differs only in vendor calls ({shown}): parallel hardware backends, "
                                                   "mergeable behind a device-agnostic call; not verified on the hardware"])
    behaviour = found.behaviour()
    if behaviour:
        return decide("", rejects=rejects, unknowns=None if rejects else ["whether the part the copies share is worth a helper"],
                      doubts=[f"{BEHAVIOUR_REASON} ({WHAT_DIFFERS[behaviour[0].kind]}: {behaviour[0].describe()})"])
    return decide("", rejects=rejects, doubts=[f"drifted copy ({shown})"],
                  unknowns=None if rejects else ["whether the drift is deliberate"])
