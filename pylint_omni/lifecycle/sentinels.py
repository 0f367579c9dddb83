"""A sentinel put on a queue and a closed flag set at the same transition, both checked by the consumer.

The producer side's `close()` puts the sentinel (a module or class `object()`, or `None`) on
`self._queue` and sets `self._closed = True`; the consumer gets from the queue, compares the
item with the sentinel and reads the flag. Both say "closed". Medium at most: a consumer
that reads the flag before the queue is drained drops the items queued before the sentinel,
which the sentinel alone would deliver. Kept apart, with the reason: the flag is also read
where nothing is got from the queue (producers refuse to put after close), which a
sentinel inside the queue cannot answer; and a move of either without the other at the same
place (`matching`: a flag cleared again to reopen, which a sentinel already queued cannot undo, or
a sentinel put where the flag is not set).
"""

from __future__ import annotations

from dataclasses import dataclass

from astroid import nodes

from pylint_omni.lifecycle.matching import Layout, match, unmatched_reason
from pylint_omni.lifecycle.mechanisms import Mechanism, move_at

PUTS = frozenset({"put", "put_nowait"})
GETS = frozenset({"get", "get_nowait"})


@dataclass(frozen=True)
class SentinelPair:
    """A closed flag and the sentinel put on a queue where the flag is set."""

    flag: Mechanism
    queue: str
    sentinel: str
    closing: str  # the method that puts the sentinel and sets the flag
    consumers: tuple[str, ...]
    kept_apart: str  # why the audit keeps them apart (a rejected idea), or ""


def _sentinels(cls: nodes.ClassDef) -> set[str]:
    """Names bound to a bare `object()` at module or class level."""
    names = set()
    for scope in (cls.root(), cls):
        for assign in scope.body:
            if isinstance(assign, nodes.Assign) and isinstance(assign.value, nodes.Call) \
                    and getattr(assign.value.func, "name", "") == "object" and not assign.value.args:
                names.update(t.name for t in assign.targets if isinstance(t, nodes.AssignName))
    return names


def _sentinel_of(node: nodes.NodeNG, names: set[str]) -> str:
    if isinstance(node, nodes.Const) and node.value is None:
        return "None"
    if isinstance(node, nodes.Name) and node.name in names:
        return node.name
    if isinstance(node, nodes.Attribute) and node.attrname in names:
        return node.attrname
    return ""


def _queue_calls(method: nodes.FunctionDef, verbs: frozenset[str]) -> list[nodes.Call]:
    return [c for c in method.nodes_of_class(nodes.Call) if isinstance(c.func, nodes.Attribute) and c.func.attrname in verbs
            and isinstance(c.func.expr, nodes.Attribute) and isinstance(c.func.expr.expr, nodes.Name)
            and c.func.expr.expr.name == "self"]


def _compares(method: nodes.FunctionDef, sentinel: str, names: set[str]) -> bool:
    for compare in method.nodes_of_class(nodes.Compare):
        operands = [compare.left, *(right for op, right in compare.ops if op in ("is", "==", "is not", "!="))]
        if len(operands) > 1 and any(_sentinel_of(o, names) == sentinel for o in operands):
            return True
    return False


def _puts(cls: nodes.ClassDef, queue: str, sentinel: str, names: set[str]) -> Mechanism:
    """Every put of `sentinel` on `self.<queue>`, as the sets of a mechanism named by the call."""
    moves = [(method, put) for method in cls.mymethods() for put in _queue_calls(method, PUTS)
             if put.func.expr.attrname == queue and put.args and _sentinel_of(put.args[0], names) == sentinel]
    transitions = tuple(sorted((move_at(method, "set", put) for method, put in moves), key=lambda t: t.line))
    return Mechanism(f"{queue}.put({sentinel})", "queue", moves[0][1], transitions)


def _unmatched(cls: nodes.ClassDef, flag: Mechanism, queue: str, sentinel: str, names: set[str], where: Layout,
               path: str) -> str:
    """The first move of the flag or of the sentinel's puts the other does not make at that place, or ""."""
    found = match(flag, _puts(cls, queue, sentinel, names), where).unmatched
    return unmatched_reason(found[0], path) if found else ""


def sentinel_pairs(cls: nodes.ClassDef, mechanisms: dict[str, Mechanism], where: Layout, path: str) -> list[SentinelPair]:
    """Each closed flag of `cls` (in the file at `path`) set where a sentinel is put on one of its queues, when
    a consumer checks both."""
    names = _sentinels(cls)
    flags = {name: m for name, m in mechanisms.items() if m.kind == "flag"}
    methods = {m.name: m for m in cls.mymethods()}
    found = []
    for closing in cls.mymethods():
        for put in _queue_calls(closing, PUTS):
            sentinel = _sentinel_of(put.args[0], names) if put.args else ""
            queue = put.func.expr.attrname
            closed = [f for f in flags.values() if closing.name in {t.method for t in f.transitions
                                                                   if t.kind == "set" and not t.in_handler}]
            if not sentinel or not closed:
                continue
            consumers = tuple(sorted(name for name, m in methods.items()
                                     if any(c.func.expr.attrname == queue for c in _queue_calls(m, GETS))
                                     and _compares(m, sentinel, names)))
            for flag in closed:
                readers = {t.method for t in flag.transitions if t.kind == "read"}
                if not consumers or not readers & set(consumers):
                    continue
                others = sorted(readers - set(consumers) - {closing.name})
                why = (f"`{flag.name}` is also read in {', '.join(f'{m}()' for m in others)}, where nothing is got from "
                       f"`{queue}`: a sentinel inside the queue cannot answer there") if others else \
                    _unmatched(cls, flag, queue, sentinel, names, where, path)
                found.append(SentinelPair(flag, queue, sentinel, closing.name, consumers, why))
    return found
