"""`lifecycle-mechanism` (R7312): two lifecycle mechanisms of one class that hold one state.

Shapes (each in its own module): a bool flag that mirrors an Event, a handle or a field
(`pairs`); two locks guarding the same fields (`locks`); a lock or event that makes no one wait: a lock
never taken, an asyncio lock over sections that never await, an Event nothing waits on (`idle`; a module's global
locks in `module_locks`); a closed flag beside
a sentinel put on a queue (`sentinels`); a handle only ever None that a method still cancels, joins or waits
on (`never_set`). The cases the audit keeps apart are rejected ideas with their
reason, and so is a flag, or the mechanism it mirrors, also written from outside its class (the
reference graph's stores: local vs remote ownership). HIGH when every move is in the same method; MEDIUM when a
helper method carries one of them, or for a sentinel (drain vs drop). Tests, benchmarks and
examples are never audited.
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.consumers import decide
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import clipped
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.graph.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.lifecycle.idle import idle_mechanisms
from pylint_omni.lifecycle.locks import lock_pairs
from pylint_omni.lifecycle.matching import layout
from pylint_omni.lifecycle.mechanisms import Mechanism, class_mechanisms, helpers
from pylint_omni.lifecycle.module_locks import idle_module_locks
from pylint_omni.lifecycle.never_set import STORE_VIA, never_set_handles
from pylint_omni.lifecycle.pairs import flag_pairs
from pylint_omni.lifecycle.sentinels import sentinel_pairs
from pylint_omni.lifecycle.wording import idle_text, kept_apart_text, locks_text, mirror_text, never_set_text, sentinel_text

SYMBOL = "lifecycle-mechanism"
MAX_VALUE_CHARS = 40  # characters of a possibly-None value a message quotes


def _remote_write(index: ProjectIndex, relpath: str, owner: nodes.ClassDef, name: str) -> str:
    """Where `owner.name` is stored outside the class: "at path:line, outside the class" (another owner moves
    it), "by the subclass Sub at path:line" (a subclass's own method moves it, which the class's moves do not
    match), or ""."""
    graph = graph_of(index)
    for ref in graph.refs_to(f"{owner.qname()}.{name}"):
        if ref.via == STORE_VIA and not (ref.path == relpath and owner.fromlineno <= ref.line <= (owner.tolineno or 0)):
            return f"at {ref.path}:{ref.line}, outside the class"
    for subclass in class_graph(index).descendants(owner.qname()):
        for ref in graph.refs_to(f"{subclass}.{name}"):
            if ref.via == STORE_VIA:
                return f"by the subclass {subclass.rpartition('.')[2]} at {ref.path}:{ref.line}"
    return ""


def _interface_doubt(index: ProjectIndex, name: str) -> str:
    """Why the attribute to drop may be part of an interface, or "": a public one code outside the repository may read
    or set, or one the tests set directly (a switch they drive: dropping it rewrites them)."""
    if not name.startswith("_"):
        return "public: code outside the repository may read or set it"
    tests = next((h for h in index.hits(name) if h.via == STORE_VIA and index.location(h.path) is Location.VALIDATION), None)
    return f"the tests set it directly ({tests.path}:{tests.line})" if tests is not None else ""


class LifecycleMechanismChecker(OmniChecker):
    """Flags two mechanisms of one class (flag and Event/handle/field, two locks, flag and sentinel) holding one state."""

    msgs = {
        "R7312": (
            "%s",
            SYMBOL,
            "Two lifecycle mechanisms of one class hold one state with the same failure boundary: a bool "
            "flag moved exactly where an Event, a task/thread handle or a field is; two locks guarding the "
            "same fields; a closed flag set where a sentinel is put on a queue. Keep one and drop the other. "
            "Or a lock or event that makes no one wait: a lock never taken, an asyncio lock over sections that "
            "never await, an Event nothing waits on. Or a handle only ever None whose cancel/join branches are dead.",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        found = self.audited_index_for(node)
        if found is None:
            return
        index, relpath = found
        for one in idle_module_locks(node, index, relpath):
            self._report(node, one.mechanism, "", "", "medium" if one.doubt else "high", idle_text(one),
                         f"lifecycle-module-lock-{one.shape}", one.lines)

    def visit_classdef(self, node: nodes.ClassDef) -> None:
        found = self.audited_index_for(node.root())
        if found is None:
            return
        index, relpath = found
        mechanisms = class_mechanisms(node)
        if not any(m.kind in ("flag", "lock", "event", "handle") for m in mechanisms.values()):
            return  # every shape needs a flag, a lock, an event or a handle
        reach, where = helpers(node), layout(node)
        idle = idle_mechanisms(node, mechanisms, index, relpath)
        unwaited = {i.mechanism.name for i in idle if i.shape == "unwaited"}
        paired: set[str] = set()  # an Event a flag mirrors: that finding already drops one of the two
        for pair in flag_pairs(mechanisms, reach, where, relpath):
            paired.add(pair.other.name)
            remote = (self._remote(index, relpath, node, m) for m in (pair.flag, pair.other))
            why = pair.kept_apart or next(filter(None, remote), "")
            # Nothing waits on the Event: the flag is the one to keep (dropping the flag would leave an idle Event).
            keep_flag = pair.kind == "event" and pair.other.name in unwaited
            dropped = pair.other if keep_flag else pair.flag
            doubt = _interface_doubt(index, dropped.name)
            if pair.maybe_none and not keep_flag:
                value = clipped(pair.maybe_none, MAX_VALUE_CHARS)
                doubt = ", ".join(filter(None, (doubt, f"`{pair.other.name}` may hold None: `{value}`")))
            confidence = "medium" if pair.via or pair.undeclared or doubt else "high"
            text = mirror_text(pair, keep_flag) + (f" ({doubt})" if doubt else "")
            self._report(node, dropped, pair.flag.name if keep_flag else pair.other.name,
                         why, confidence, text, f"lifecycle-flag-{pair.kind}")
        for locks in lock_pairs(node, mechanisms, reach):
            self._report(node, locks.second, locks.first.name, locks.kept_apart, "high", locks_text(locks),
                         "lifecycle-two-locks")
        for one in idle:
            if one.mechanism.name in paired:
                continue
            why = self._remote(index, relpath, node, one.mechanism)
            self._report(node, one.mechanism, "", why, "medium" if one.doubt else "high", idle_text(one),
                         f"lifecycle-{one.mechanism.kind}-{one.shape}", one.lines)
        for handle in never_set_handles(node, mechanisms, index, relpath):
            why = self._remote(index, relpath, node, handle.mechanism)
            self._report(node, handle.mechanism, "", why, "medium" if handle.doubt else "high", never_set_text(handle),
                         "lifecycle-handle-never-set", handle.lines)
        for sentinel in sentinel_pairs(node, mechanisms, where, relpath):
            why = sentinel.kept_apart or self._remote(index, relpath, node, sentinel.flag)
            self._report(node, sentinel.flag, f"the `{sentinel.sentinel}` sentinel on `{sentinel.queue}`", why, "medium",
                         sentinel_text(sentinel), "lifecycle-sentinel-flag")

    @staticmethod
    def _remote(index: ProjectIndex, relpath: str, owner: nodes.ClassDef, mechanism: Mechanism) -> str:
        """Why the mechanism is not this class's alone (a base class or another object writes it), or "": the
        flag would not be its own to drop, and the other one's moves made there are not matched by the flag's."""
        base = next((b for b in owner.ancestors() if mechanism.name in b.instance_attrs), None)
        if base is not None:
            return (f"local vs remote ownership: `{mechanism.name}` belongs to the base class {base.name}, "
                    "whose readers serve every subclass")
        where = _remote_write(index, relpath, owner, mechanism.name)
        return f"local vs remote ownership: `{mechanism.name}` is also written {where}" if where else ""

    def _report(self, owner: nodes.ClassDef | nodes.Module, dropped: Mechanism, other: str, kept_apart: str, confidence: str,
                text: str, kind: str, lines: int = 0) -> None:
        """A candidate says what to drop; a rejected idea names the two and why the audit keeps them apart."""
        verdict = decide(text, rejects=[kept_apart] if kept_apart else [], doubts=[text] if confidence == "medium" else [],
                         unknowns=[] if not kept_apart else None)
        if kept_apart:
            text = kept_apart_text(dropped.name, other, kept_apart)
        benefit = Benefit(lines or len(dropped.transitions), BenefitKind.STATE, f"drop `{dropped.name}`", scope=owner.name)
        subject = f"{owner.qname()}.{dropped.name}"
        details = FindingDetails([subject], text, benefit, "a reader that needs the two apart", subject=subject, kind=kind)
        self.emit(SYMBOL, dropped.created, verdict, (text,), details)


def register(linter: PyLinter) -> None:
    linter.register_checker(LifecycleMechanismChecker(linter))
