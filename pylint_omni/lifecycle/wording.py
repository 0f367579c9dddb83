"""The `lifecycle-mechanism` messages: what mirrors what, the fix, and one clause of evidence."""

from __future__ import annotations

from pylint_omni.lifecycle.idle import Idle
from pylint_omni.lifecycle.locks import LockPair
from pylint_omni.lifecycle.never_set import NeverSet
from pylint_omni.lifecycle.pairs import Pair
from pylint_omni.lifecycle.sentinels import SentinelPair


def _calls(methods: set[str] | frozenset[str] | tuple[str, ...]) -> str:
    return ", ".join(f"{m}()" for m in sorted(methods))


def _moves(pair: Pair, move: str) -> set[str]:
    return {t.method for t in (*pair.flag.transitions, *pair.other.transitions)
            if t.kind == move and t.method != "__init__" and not t.in_handler}


def mirror_text(pair: Pair, keep_flag: bool = False) -> str:
    """`_started` mirrors `_ready` (set together in start(), ...): read `_ready.is_set()` and drop the flag; or,
    `keep_flag`, nothing waits on the Event: keep the flag and drop the Event."""
    flag, other = pair.flag.name, pair.other.name
    clears = _moves(pair, "clear") - set(pair.via)
    together = f"set together in {_calls(_moves(pair, 'set') - set(pair.via))}" + (
        f", cleared together in {_calls(clears)}" if clears else "")
    if pair.via:
        together += f", one of them through {_calls(pair.via)}"
    idle = f"; nothing waits on `{other}`: keep the flag and drop the event" if keep_flag else ""
    if pair.negated:
        return (f"`{flag}` is the negation of `{other}` (set where the event is cleared, cleared where it is set: "
                f"{together.replace(' together', '')})" + (idle or f": read `not {other}.is_set()` and drop the flag"))
    if pair.kind == "event":
        return f"`{flag}` mirrors `{other}` ({together})" + (idle or f": read `{other}.is_set()` and drop the flag")
    what = "handle" if pair.kind == "handle" else "field"
    gone = " and back to None" if clears else ""
    first = f"assign `{other} = None` in __init__ (no `__init__` does), " if pair.undeclared else ""
    return (f"`{flag}` is derivable from the {what} `{other}` (assigned{gone} where the flag moves: {together}): "
            f"{first}test `{other} is not None` and drop the flag")


def locks_text(pair: LockPair) -> str:
    """`_stats_lock` guards the fields `_free_lock` does: take one lock."""
    a, b = pair.first.name, pair.second.name
    fields = ", ".join(f"`{f}`" for f in pair.fields)
    return (f"`{b}` guards exactly the fields `{a}` does ({fields}; taken in {_calls(pair.methods)}, never together): "
            f"take `{a}` and drop `{b}`")


def sentinel_text(pair: SentinelPair) -> str:
    """`_closed` duplicates the `_STOP` put on `_queue`: keep the sentinel, drop the flag."""
    return (f"`{pair.flag.name}` duplicates the `{pair.sentinel}` sentinel put on `{pair.queue}` (both in "
            f"{pair.closing}(), both checked in {_calls(pair.consumers)}): stop on the sentinel and drop the flag, "
            f"unless items queued before it must be dropped")


def kept_apart_text(first: str, second: str, reason: str) -> str:
    """`_loaded` and `_ready` look like one state; rejected, cleanup after partial failure: ..."""
    if not second:  # an idle lock: one mechanism, no partner
        return f"`{first}` looks like a lock that makes no one wait; rejected, {reason}"
    name = second if second.startswith("the ") else f"`{second}`"
    return f"`{first}` and {name} look like one state; rejected, {reason}"


def idle_text(idle: Idle) -> str:
    """`_lock` is never taken: delete it. / `_lock` guards only await-free sections: drop it and its `async with`.
    / `_stopped` is an Event nothing waits on: make it a bool. Then why it is only medium, when it is."""
    name = idle.mechanism.name
    if idle.shape == "untaken":
        text = f"`{name}` is a lock no code takes (created at line {idle.mechanism.created.lineno}): delete it"
    elif idle.shape == "unwaited":
        text = (f"`{name}` is an Event no code waits on (only set, cleared or tested, in {_calls(idle.sections)}): it "
                "wakes no one, so a bool attribute holds the same state; make it a bool flag")
    else:
        text = (f"`{name}` is an asyncio lock whose {idle.lines - 1} critical section(s) in {_calls(idle.sections)} "
                "never await: one event loop runs each to its end without interleaving, so it makes no one wait; drop it "
                "and its `async with` lines")
    return f"{text} ({idle.doubt})" if idle.doubt else text


def never_set_text(handle: NeverSet) -> str:
    """`_listen_task` is only ever None: the branches that cancel or join it are dead; delete it and them."""
    mechanism = handle.mechanism
    text = (f"`{mechanism.name}` is only ever None (assigned None at line {mechanism.created.lineno}, never a task, "
            f"thread or process): the branches of {_calls(handle.methods)} that cancel, join or wait on it are dead; "
            "delete it and them")
    return f"{text} ({handle.doubt})" if handle.doubt else text
