"""A bool flag that mirrors another mechanism of its class: an Event, a handle, or a field.

The flag is set in exactly the methods where the Event is set / the handle (a task, thread,
process) or field (a model, a session) is assigned, and cleared where the Event is cleared /
the attribute goes back to `None`: `event.is_set()` or `attr is not None` says the same. Or
the flag is set where the Event is cleared and the reverse, from `__init__` on: it is
`not event.is_set()`.
"Together" means in the same statement list (a move under an `if` or a loop the other is
not in may not happen; a move in both branches of an `if`/`else` counts for the list that
holds the `if`). A move made in a helper the method calls right away (`self._launch()`, not
`create_task(self._loop())`) still counts, but is weaker evidence (medium): the helper may
be reached from elsewhere too.

Kept apart, with the reason (the audit's protected cases): moves in `except`/`finally`
that the other mechanism does not make (publication vs rollback, cleanup after partial
failure), a handle kept after the flag is cleared (joined or reused later), and a flag
tested and set in more methods than the other (first terminal outcome wins). Any other flag
moved in a method where the other is not (a remote message) is no pair.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from astroid import nodes

from pylint_omni.lifecycle.mechanisms import Mechanism, Transition, block_of, runs_now

MOVES = ("set", "clear")


@dataclass(frozen=True)
class Pair:
    """A flag and the mechanism it mirrors; `via`: helper methods the match goes through (medium evidence)."""

    flag: Mechanism
    other: Mechanism
    kind: str  # "event" | "handle" | "field"
    via: tuple[str, ...]
    kept_apart: str  # why the audit keeps the two apart (a rejected idea), or ""
    negated: bool = False  # the flag is set where the Event is cleared and cleared where it is set


def _plain(mechanism: Mechanism, move: str) -> frozenset[str]:
    """Methods (not `__init__`) where the mechanism makes `move` outside an except/finally clause."""
    return frozenset(t.method for t in mechanism.transitions
                     if t.kind == move and t.method != "__init__" and not t.in_handler)


def _handled(mechanism: Mechanism) -> list[Transition]:
    return [t for t in mechanism.transitions if t.in_handler and t.kind in MOVES]


def _initial(mechanism: Mechanism) -> str:
    """The state `__init__` leaves: "set", "clear" (an Event is created clear), or "" when it says nothing."""
    moves = [t.kind for t in mechanism.transitions if t.method == "__init__" and t.kind in (*MOVES, "create")]
    return ("clear" if moves[-1] == "create" else moves[-1]) if moves else ""


def _blocks(mechanism: Mechanism, move: str, method: str) -> set[str]:
    """The statement lists where `mechanism` makes `move` in `method`; a move in both branches of an
    `if`/`else` counts for the list holding the `if` too."""
    moves = [t.blocks for t in mechanism.transitions if t.kind == move and t.method == method and not t.in_handler]
    found = {blocks[0] for blocks in moves if blocks}
    branches = {(blocks[0].rpartition(":")[0], blocks[1] if len(blocks) > 1 else "") for blocks in moves if blocks
                if blocks[0].endswith(":body") or blocks[0].endswith(":orelse")}
    for owner, outer in branches:
        if {f"{owner}:body", f"{owner}:orelse"} <= found and outer:
            found.add(outer)
    return found


def _call_blocks(cls: nodes.ClassDef, caller: str, callee: str, reach: dict[str, frozenset[str]]) -> set[str]:
    """The statement lists of `caller` that call (directly or through helpers) `callee` right away."""
    method = next((m for m in cls.mymethods() if m.name == caller), None)
    if method is None:
        return set()
    return {block for call in method.nodes_of_class(nodes.Call) for block in block_of(call)[:1]
            if isinstance(call.func, nodes.Attribute) and isinstance(call.func.expr, nodes.Name) and call.func.expr.name == "self"
            and (call.func.attrname == callee or callee in reach.get(call.func.attrname, ())) and runs_now(call, cls)}


def _match(cls: nodes.ClassDef, flag: Mechanism, other: Mechanism, move: str,
           reach: dict[str, frozenset[str]], strict: bool = True) -> tuple[str, ...] | None:
    """None unless every `move` of each happens together with one of the other (same method and statement
    list, or a call to the helper that makes it in the same statement list); else the helpers involved.
    Not `strict`: the same method or a helper of it is enough (to say why a near pair is kept apart)."""
    ours, theirs = _plain(flag, move), _plain(other, move)

    def together(a: str, b: str) -> bool:
        if not strict:
            return a == b or b in reach.get(a, ()) or a in reach.get(b, ())
        if a == b:
            return bool(_blocks(flag, move, a) & _blocks(other, move, b))
        if b in reach.get(a, ()):
            return bool(_blocks(flag, move, a) & _call_blocks(cls, a, b, reach))
        return a in reach.get(b, ()) and bool(_blocks(other, move, b) & _call_blocks(cls, b, a, reach))

    if all(any(together(a, b) for b in theirs) for a in ours) and all(any(together(a, b) for a in ours) for b in theirs):
        # The helpers: methods where only one of the two moves, reached from a method where the other does.
        return tuple(sorted(m for m in ours ^ theirs if any(m in reach.get(x, ()) for x in ours | theirs)))
    return None


def _negated(event: Mechanism) -> Mechanism:
    """The Event read as `not event.is_set()`: its sets are clears and its clears sets (created clear: set)."""
    swap = {"set": "clear", "clear": "set"}
    return replace(event, transitions=tuple(
        replace(t, kind="set" if t.kind == "create" and t.method == "__init__" else swap.get(t.kind, t.kind))
        for t in event.transitions))


def _kind(other: Mechanism) -> str:
    return "event" if other.kind == "event" else "handle" if other.runner else "field"


def _kept_apart(flag: Mechanism, other: Mechanism, clears: tuple[str, ...] | None) -> str:
    """Why the audit keeps a flag and a mechanism whose sets match apart, or ""."""
    ours, theirs = _handled(flag), _handled(other)
    if {(t.method, t.kind) for t in ours} != {(t.method, t.kind) for t in theirs}:
        moved, still = (flag, other) if ours else (other, flag)
        line, method = (ours or theirs)[0].line, (ours or theirs)[0].method
        published = [t.line for t in flag.transitions if t.kind == "set" and not t.in_handler and t.method == method]
        first_other = [t.line for t in other.transitions if t.kind == "set" and t.method == method]
        if ours and published and first_other and min(published) < min(first_other):
            return (f"publication vs rollback: `{flag.name}` is published (line {min(published)}) before `{other.name}` "
                    f"exists (line {min(first_other)}) and rolled back in except/finally (line {line})")
        return (f"cleanup after partial failure: `{moved.name}` is also moved in except/finally (line {line}), "
                f"which `{still.name}` is not")
    if clears is None and other.kind != "event":
        kept = sorted(_plain(flag, "clear") - _plain(other, "clear"))
        if kept:
            return (f"`{other.name}` outlives `{flag.name}`: {', '.join(f'{m}()' for m in kept)} clears the flag "
                    f"and keeps `{other.name}` (joined or reused later)")
    return ""


def _first_outcome(flag: Mechanism, other: Mechanism) -> str:
    """Why a flag set in more methods than the other, each time tested first, is kept apart, or ""."""
    ours, theirs = _plain(flag, "set"), _plain(other, "set")
    if not theirs or not theirs < ours:
        return ""
    for method in ours:
        first_set = min(t.line for t in flag.transitions if t.kind == "set" and t.method == method)
        if not any(t.kind == "read" and t.method == method and t.line < first_set for t in flag.transitions):
            return ""
    return (f"first terminal outcome: `{flag.name}` is tested and set in {', '.join(f'{m}()' for m in sorted(ours))}, "
            f"`{other.name}` only in {', '.join(f'{m}()' for m in sorted(theirs))}: the flag arbitrates which came first")


def _pair(cls: nodes.ClassDef, flag: Mechanism, other: Mechanism, reach: dict[str, frozenset[str]]) -> Pair | None:
    near = _match(cls, flag, other, "set", reach, strict=False)
    first = _first_outcome(flag, other) if near is None else ""
    if first:
        return Pair(flag, other, _kind(other), (), first)
    if near is None or not _plain(flag, "set"):
        return None
    if _initial(flag) and _initial(other) and _initial(flag) != _initial(other):
        return None
    if other.kind == "handle" and (not other.methods("clear") or not flag.methods("read")):
        return None  # no `None` state to test, or no reader the test would replace
    sets, clears = _match(cls, flag, other, "set", reach), _match(cls, flag, other, "clear", reach)
    kept_apart = _kept_apart(flag, other, clears)
    if kept_apart:
        return Pair(flag, other, _kind(other), near, kept_apart)
    if sets is None or clears is None:
        return None
    return Pair(flag, other, _kind(other), tuple(sorted({*sets, *clears})), "")


def flag_pairs(cls: nodes.ClassDef, mechanisms: dict[str, Mechanism], reach: dict[str, frozenset[str]]) -> list[Pair]:
    """Each flag of `cls` with the first mechanism it mirrors: an Event first, then a handle or field by line,
    then an Event it negates."""
    others = sorted((m for m in mechanisms.values() if m.kind in ("event", "handle")),
                    key=lambda m: (m.kind != "event", m.created.lineno))
    found = []
    for flag in (m for m in mechanisms.values() if m.kind == "flag"):
        pairs = [p for p in (_pair(cls, flag, other, reach) for other in others) if p is not None]
        negated = (_pair(cls, flag, _negated(event), reach) for event in others if event.kind == "event")
        pairs.extend(replace(p, negated=True) for p in negated if p is not None)
        # A mirror the audit would merge wins over one it keeps apart; a rejected idea only when there is no other.
        found.extend(sorted(pairs, key=lambda p: bool(p.kept_apart))[:1])
    return found
