"""Evaluate a symbolic environment test against the oldest supported versions (three-valued).

A comparison is decided only by the floor (`Support.floor`): `torch < 2.0` is false
for every allowed torch when the project requires `torch>=2.4.1`; `torch < 2.6` stays
unknown (a gate inside the allowed range), and so does a gate for a version newer
than every allowed one (`==`: the supported future, not the past). Raw version
strings compared as text are decided only against an exact pin, since text order is
not version order, and only where the versions' order gives the same answer. `and`/`or`/`not` follow Kleene's logic; names imported from
other modules and version helpers (`vllm_version_is("0.9.1")`) are resolved through
the index facts of the module that defines them.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from packaging.version import InvalidVersion, Version

from pylint_omni.compat.support import SCANNER_KEY, Floor, Support
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream import upstream_of

MAX_CONDITION_DEPTH = 8  # nesting of a condition (not/and/or, names bound to a version) that is evaluated
TEXT_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}


@dataclass(frozen=True)
class Decided:
    """A comparison the floor decides: its source, its value, the floor and what it is of."""

    src: str
    value: bool
    floor: Floor
    subject: str  # "torch", "Python"


@dataclass
class Outcome:
    value: bool | None
    decided: list[Decided] = field(default_factory=list)  # what decides the value (or, when unknown, decided operands)


def _same_version(text: str, version: Version) -> bool:
    try:
        return Version(text) == version
    except InvalidVersion:
        return False


def decide(op: str, threshold: str, floor: Floor, as_text: bool, major_only: bool) -> bool | None:
    """The value of `version OP threshold` for every version from the floor up, or None."""
    if as_text:
        # Text order decides only where version order agrees (`"2.100" < "2.11"` as text), and an exact pin is one
        # environment, not a ceiling: a check for a newer exact version (ChatLearn's `ray.__version__ == '2.46.0'`
        # under a `ray==2.32.0` requirements pin, while its images install 2.46) is the supported future.
        by_text = TEXT_OPS[op](str(floor.version), threshold) if floor.exact else None
        return by_text if by_text is not None and decide(op, threshold, floor, False, major_only) == by_text else None
    try:
        target = Version(threshold)
    except InvalidVersion:
        return None
    low: Any = floor.version
    if major_only:
        low, target = floor.version.major, target.major
    below = target < low or (target == low and not floor.inclusive)  # every allowed version is above target
    at_or_below = target <= low  # every allowed version is at or above target
    if op == ">=":
        return True if at_or_below else None
    if op == "<":
        return False if at_or_below else None
    if op == ">":
        return True if below else None
    if op in ("<=", "=="):
        return False if below else None
    if op == "!=":
        return True if below else None
    return None


class Evaluator:
    """Evaluates the tests of one project's modules."""

    def __init__(self, index: ProjectIndex, support: Support) -> None:
        self.index = index
        self.support = support

    def _module_facts(self, module: str) -> dict[str, Any]:
        relpath = self.index.module_file(module)
        return (self.index.extra(relpath, SCANNER_KEY) or {}) if relpath else {}

    def subject_floor(self, subject: dict[str, Any], depth: int = 0) -> tuple[str, Floor] | None:
        """(what it is the version of, its floor) for a subject, or None."""
        if "py" in subject:
            found = self.support.python_floor()
            return ("Python", found) if found else None
        if "dist" in subject:
            found = self.support.floor(subject["dist"])
            return (subject["dist"], found) if found else None
        if "imp" in subject:
            head = subject["imp"].partition(".")[0]
            if head in self.index.top_packages():
                return None  # the project's own version
            floors = [(d, self.support.floor(d)) for d in self.support.runtime.distributions_of(head)]
            usable = [(d, f) for d, f in floors if f is not None]
            usable.sort(key=lambda item: item[1].confidence != "high")
            return (usable[0][0], usable[0][1]) if usable else None
        if "ref" in subject and depth < MAX_CONDITION_DEPTH:
            module, _, name = subject["ref"].rpartition(".")
            bound = self._module_facts(module).get("names", {}).get(name, {})
            if "subject" in bound:
                return self.subject_floor(bound["subject"], depth + 1)
        return None

    def evaluate(self, sym: dict[str, Any], depth: int = 0) -> Outcome:
        if depth > MAX_CONDITION_DEPTH:
            return Outcome(None)
        kind = sym.get("t")
        if kind == "cmp":
            return self._compare(sym, depth)
        if kind == "not":
            inner = self.evaluate(sym["a"], depth + 1)
            return Outcome(None if inner.value is None else not inner.value, inner.decided)
        if kind in ("and", "or"):
            return self._combine(kind, [self.evaluate(a, depth + 1) for a in sym["a"]])
        if kind == "ref":
            module, _, name = sym["to"].rpartition(".")
            bound = self._module_facts(module).get("names", {}).get(name, {})
            if "cond" in bound:
                found = self.evaluate(bound["cond"], depth + 1)
                return Outcome(found.value, [Decided(f"{sym['src']} ({d.src})", d.value, d.floor, d.subject) for d in found.decided])
            return Outcome(None)
        if kind == "has":
            return self._probe(sym)
        if kind == "call":
            module, _, name = sym["f"].rpartition(".")
            helper = self._module_facts(module).get("helpers", {}).get(name)
            if helper and helper["param"] < len(sym["args"]):
                atom = {"t": "cmp", "s": helper["s"], "op": helper["op"], "v": sym["args"][helper["param"]], "text": False, "src": sym["src"]}
                return self._compare(atom, depth)
        return Outcome(None)

    def _compare(self, sym: dict[str, Any], depth: int) -> Outcome:
        found = self.subject_floor(sym["s"], depth)
        if found is None:
            return Outcome(None)
        subject, floor = found
        value = decide(sym["op"], sym["v"], floor, bool(sym.get("text")), sym["s"].get("py") == 1)
        if value is None:
            return Outcome(None)
        src = sym.get("src", "")
        if sym.get("flag"):
            src = f"{sym['flag']} ({src})"
        return Outcome(value, [Decided(src, value, floor, subject)])

    def _probe(self, sym: dict[str, Any]) -> Outcome:
        """`hasattr(module, "name")`: true when the one allowed version's source defines the name.

        Only against an exact floor (an `==` pin or the installed version) and only when
        the upstream index holds the package's source at that very version (an indexed
        torch of another version says nothing): a range may hold older releases without
        the name. Build and plugin probes (`torch.npu`, `torch.ops`, CUDA/ROCm
        attributes) are never judged: they are not versions.
        """
        parts = {*sym["mod"].split(".")[1:], sym["name"]}
        if parts & self.index.settings.vocabulary.build_probes:
            return Outcome(None)
        found = self.subject_floor({"imp": sym["mod"]})
        if found is None or not found[1].exact:
            return Outcome(None)
        package = upstream_of(self.index).owning(sym["mod"])
        if package is None or not _same_version(package.version, found[1].version):
            return Outcome(None)
        where = package.defines(sym["mod"], sym["name"])
        if where is None:
            return Outcome(None)
        subject, floor = found
        note = (floor.note + "; " if floor.note else "") + f"`{sym['name']}` is defined at {where.describe()}"
        return Outcome(True, [Decided(sym["src"], True, replace(floor, note=note), subject)])

    @staticmethod
    def _combine(kind: str, parts: list[Outcome]) -> Outcome:
        short = kind == "or"  # `or` is decided by a true operand, `and` by a false one
        deciding = [p for p in parts if p.value is short]
        if deciding:
            return Outcome(short, [d for p in deciding for d in p.decided])
        if all(p.value is not None for p in parts):
            return Outcome(not short, [d for p in parts for d in p.decided])
        return Outcome(None, [d for p in parts if p.value is not None for d in p.decided])
