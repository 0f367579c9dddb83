"""A bool flag that mirrors another mechanism of its class: an Event, a handle, or a field.

The flag is set in exactly the methods where the Event is set / the handle (a task, thread,
process) or field (a model, a session) is assigned, and cleared where the Event is cleared /
the attribute goes back to `None`: `event.is_set()` or `attr is not None` says the same. Or
the flag is set where the Event is cleared and the reverse, from `__init__` on: it is
`not event.is_set()`.
Each set and clear of either has a partner move of the other in the same function under the
same guards (`matching`: the rule holds at every transition, not in some method). A move made
in a helper the method calls right away (`self._launch()`, not `create_task(self._loop())`)
still counts, but is weaker evidence (medium). A near pair (set in the same methods) with one
move unmatched is a rejected idea naming that move.

Kept apart, with the reason (the audit's protected cases): moves in `except`/`finally`
that the other mechanism does not make (publication vs rollback, cleanup after partial
failure), a handle kept after the flag is cleared (joined or reused later), and a flag
tested and set in more methods than the other (first terminal outcome wins). A flag set in a
method where the other is not (a remote message) is no pair, nor one that `__init__` leaves in
another state than the other (or in one the other may not be in: a field set on one branch).
A handle or field no `__init__` assigns is medium: the test needs `x = None` there first; so
is one assigned, where the flag is set, a value that may itself be None (`self._fn = other.fn`,
`self._res = self.hook()`): `x is not None` would then say "not yet" after the work is done.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from astroid import nodes

from pylint_omni.lifecycle.matching import MOVES, Layout, match, unmatched_reason
from pylint_omni.lifecycle.mechanisms import RUNNERS, Mechanism, Transition, self_stores


@dataclass(frozen=True)
class Pair:
    """A flag and the mechanism it mirrors; `via`: helper methods the match goes through (medium evidence)."""

    flag: Mechanism
    other: Mechanism
    kind: str  # "event" | "handle" | "field"
    via: tuple[str, ...]
    kept_apart: str  # why the audit keeps the two apart (a rejected idea), or ""
    negated: bool = False  # the flag is set where the Event is cleared and cleared where it is set
    undeclared: bool = False  # the handle or field exists only once a method assigns it (`_undeclared`): medium
    maybe_none: str = ""  # a value assigned to the handle or field that may be None (`_maybe_none`): medium


def _plain(mechanism: Mechanism, move: str) -> frozenset[str]:
    """Methods (not `__init__`) where the mechanism makes `move` outside an except/finally clause."""
    return frozenset(t.method for t in mechanism.transitions
                     if t.kind == move and t.method != "__init__" and not t.in_handler)


def _handled(mechanism: Mechanism) -> list[Transition]:
    return [t for t in mechanism.transitions if t.in_handler and t.kind in MOVES]


def _initial(mechanism: Mechanism) -> str:
    """The state `__init__` leaves: "set", "clear" (an Event is created clear), "either" when it sets and clears it
    in different branches (`self.sock = socket() if readers else None`, written as an if/else), or "" when it
    says nothing."""
    moves = [t for t in mechanism.transitions if t.method == "__init__" and t.kind in (*MOVES, "create")]
    if not moves:
        return ""
    if {"set", "clear"} <= {t.kind for t in moves} and len({t.blocks for t in moves if t.kind in MOVES}) > 1:
        return "either"
    return "clear" if moves[-1].kind == "create" else moves[-1].kind


def _undeclared(other: Mechanism) -> bool:
    """A handle or field first assigned in a method other than `__init__`: before that, `x is not None` raises."""
    return other.kind != "event" and not _initial(other) and not isinstance(other.created.frame(), nodes.ClassDef)


# Builtins that always return an object, and library calls that may return None (a lookup that can miss).
BUILT_OBJECTS = frozenset({"object", "dict", "list", "set", "tuple", "frozenset", "str", "int", "float", "bytes",
                           "bytearray", "range", "sorted", "len", "iter"})
LOOKUPS = frozenset({"get", "getenv", "which", "find_spec", "match", "search", "fullmatch", "getattr", "pop", "next"})


def _surely_set(value: nodes.NodeNG) -> bool:
    """A value that is never None: a constructed object (`Cls(...)`, `object()`), a running thing (`create_task(...)`),
    a library module's factory (`torch.zeros(...)`, not a lookup like `os.environ.get`), a literal, a container
    display, a lambda or a formatted string. A call of the project's own functions or hooks may return None."""
    if isinstance(value, nodes.Call):
        func = value.func
        name = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", "")
        if name in LOOKUPS:
            return False
        if name[:1].isupper() or name in RUNNERS or name in BUILT_OBJECTS:
            return True
        if isinstance(func, nodes.Attribute) and isinstance(func.expr, nodes.Name):
            return any(isinstance(b, (nodes.Import, nodes.ImportFrom)) for b in func.expr.lookup(func.expr.name)[1])
        return False
    if isinstance(value, nodes.Const):
        return value.value is not None
    return isinstance(value, (nodes.List, nodes.Tuple, nodes.Set, nodes.Dict, nodes.ListComp, nodes.DictComp,
                              nodes.SetComp, nodes.Lambda, nodes.JoinedStr))


def _maybe_none(other: Mechanism) -> str:
    """The first value the class assigns to the handle or field that may be None (a name, another object's field,
    a call of a function or hook), as written, or "" when every value is surely set."""
    frame = other.created.frame()
    cls = frame if isinstance(frame, nodes.ClassDef) else frame.parent
    if not isinstance(cls, nodes.ClassDef):
        return ""
    for value in self_stores(cls, other.name):
        if value is not None and not (isinstance(value, nodes.Const) and value.value is None) and not _surely_set(value):
            return value.as_string()
    return ""

def _near(flag: Mechanism, other: Mechanism, reach: dict[str, frozenset[str]]) -> bool:
    """Whether each sets the other in the same methods or helpers of them: close enough to say why they are
    one state or not."""
    ours, theirs = _plain(flag, "set"), _plain(other, "set")

    def together(a: str, b: str) -> bool:
        return a == b or b in reach.get(a, ()) or a in reach.get(b, ())

    return all(any(together(a, b) for b in theirs) for a in ours) and all(any(together(a, b) for a in ours) for b in theirs)


def _negated(event: Mechanism) -> Mechanism:
    """The Event read as `not event.is_set()`: its sets are clears and its clears sets (created clear: set)."""
    swap = {"set": "clear", "clear": "set"}
    return replace(event, transitions=tuple(
        replace(t, kind="set" if t.kind == "create" and t.method == "__init__" else swap.get(t.kind, t.kind))
        for t in event.transitions))


def _kind(other: Mechanism) -> str:
    return "event" if other.kind == "event" else "handle" if other.runner else "field"


def _kept_apart(flag: Mechanism, other: Mechanism, clears_match: bool) -> str:
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
    if not clears_match and other.kind != "event":
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


def _pair(flag: Mechanism, other: Mechanism, reach: dict[str, frozenset[str]], where: Layout, path: str) -> Pair | None:
    near = _near(flag, other, reach)
    first = _first_outcome(flag, other) if not near else ""
    if first:
        return Pair(flag, other, _kind(other), (), first)
    if not near or not _plain(flag, "set"):
        return None
    if _initial(flag) and _initial(other) and _initial(flag) != _initial(other):
        return None
    if other.kind == "handle" and (not other.methods("clear") or not flag.methods("read")):
        return None  # no `None` state to test, or no reader the test would replace
    matching = match(flag, other, where)
    clears_match = not any(u.transition.kind == "clear" for u in matching.unmatched)
    kept_apart = _kept_apart(flag, other, clears_match)
    if not kept_apart and matching.unmatched:
        kept_apart = unmatched_reason(matching.unmatched[0], path)
    maybe_none = _maybe_none(other) if other.kind == "handle" else ""
    return Pair(flag, other, _kind(other), matching.via, kept_apart, undeclared=_undeclared(other), maybe_none=maybe_none)


def flag_pairs(mechanisms: dict[str, Mechanism], reach: dict[str, frozenset[str]], where: Layout,
               path: str) -> list[Pair]:
    """Each flag of a class (in the file at `path`) with the first mechanism it mirrors: an Event first, then a
    handle or field by line, then an Event it negates."""
    others = sorted((m for m in mechanisms.values() if m.kind in ("event", "handle")),
                    key=lambda m: (m.kind != "event", m.created.lineno))
    found = []
    for flag in (m for m in mechanisms.values() if m.kind == "flag"):
        pairs = [p for p in (_pair(flag, other, reach, where, path) for other in others) if p is not None]
        negated = (_pair(flag, _negated(event), reach, where, path) for event in others if event.kind == "event")
        pairs.extend(replace(p, negated=True) for p in negated if p is not None)
        # A mirror the audit would merge wins over one it keeps apart; a rejected idea only when there is no other.
        found.extend(sorted(pairs, key=lambda p: bool(p.kept_apart))[:1])
    return found
