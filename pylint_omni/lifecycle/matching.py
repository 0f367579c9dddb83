"""The mirror rule at every transition: each move of either mechanism has a partner move of the other.

Two mechanisms hold one state only when the rule holds at each write site, not in some method:
every set and clear of either (outside `__init__`, whose initial states are compared apart) has a
move of the same kind of the other in the same function under the same guards — the same
statement list, so the same chain of enclosing `if`/`while`/`with`/`try`/handlers. A move in both
branches of an `if`/`else` counts for the list holding the `if`. A move made unconditionally in a
helper method counts where a call to the helper sits (a weaker match, reported as such), and a move
in the helper itself is matched only if every call of the helper sits where the other moves. A move
in an `except`/`finally` or in a nested function (a callback) is matched only by one in that same
place, and an `await` (or `yield`, `async with`, `async for`) between the two moves splits them:
another coroutine runs there and sees them disagree (a flag tested and set before the await
arbitrates the first terminal outcome). A call between the two moves that may raise splits them too
(`self.buf = alloc(); self._start_server(); self._prepared = True`): a failure there leaves the first
changed and the second not, so the later one marks completion (cleanup after partial failure); calls
that only move a mechanism (`self._ev.set()`), log or compute builtins do not count. One move without
a partner is enough to tell the two apart:
a flag reset alone on purpose, set under a stricter condition than the other, or set on an error path
only says something the other does not.
"""

from __future__ import annotations

from dataclasses import dataclass

from astroid import nodes

from pylint_omni.lifecycle.mechanisms import Mechanism, Transition, block_of, function_of, runs_now

MOVES = ("set", "clear")
# How a statement list is named in a reason, by the kind and body of the statement owning it.
PLACES = {
    ("If", "body"): "inside the `if` at line {}",
    ("If", "orelse"): "in the `else` of the `if` at line {}",
    ("ExceptHandler", "body"): "in the `except` at line {}",
    ("Try", "finalbody"): "in the `finally` of the `try` at line {}",
    ("Try", "body"): "inside the `try` at line {}",
    ("Try", "orelse"): "in the `else` of the `try` at line {}",
    ("While", "body"): "inside the `while` at line {}",
    ("For", "body"): "inside the `for` at line {}",
    ("AsyncFor", "body"): "inside the `async for` at line {}",
    ("With", "body"): "inside the `with` at line {}",
    ("AsyncWith", "body"): "inside the `async with` at line {}",
}


@dataclass(frozen=True)
class Unmatched:
    """A move of `moved` that `still` does not make there: why the two are not one state."""

    moved: str
    still: str
    transition: Transition
    suspended: int = 0  # the line of an await between this move and its partner in the same list, or 0
    failing: int = 0  # the line of a call that may raise between this move and its partner, or 0


@dataclass(frozen=True)
class Matching:
    """Every move without a partner (by line), and the helper methods a match went through."""

    unmatched: tuple[Unmatched, ...]
    via: tuple[str, ...]


CallSites = dict[str, list[tuple[str, str]]]
SUSPENDS = (nodes.Await, nodes.Yield, nodes.YieldFrom, nodes.AsyncWith, nodes.AsyncFor)
# Calls that cannot fail in a way that splits two moves: a mechanism's own moves, logging, builtins.
MOVING_CALLS = frozenset({"set", "clear", "put", "put_nowait", "notify", "notify_all", "release", "cancel", "append",
                          "debug", "info", "warning", "error", "exception", "print", "len", "time", "monotonic",
                          "perf_counter", "isinstance", "getattr", "hasattr", "min", "max", "int", "str", "bool"})


@dataclass(frozen=True)
class Layout:
    """What the matching reads of a class beyond its transitions: per method, (caller, statement list) of
    each `self.m()` call that runs it right away; per function (named as `Transition.method`), the lines
    where it suspends."""

    sites: CallSites
    suspends: dict[str, tuple[int, ...]]
    fallible: dict[str, tuple[int, ...]]  # per function, the lines of calls that may raise (`MOVING_CALLS` aside)


def layout(cls: nodes.ClassDef) -> Layout:
    """The call sites and suspension lines of `cls`'s methods and the functions nested in them."""
    own = {method.name for method in cls.mymethods()}
    sites: CallSites = {}
    suspends: dict[str, list[int]] = {}
    fallible: dict[str, list[int]] = {}
    for method in cls.mymethods():
        for call in method.nodes_of_class(nodes.Call):
            func = call.func
            if isinstance(func, nodes.Attribute) and func.attrname in own and isinstance(func.expr, nodes.Name) \
                    and func.expr.name == "self" and runs_now(call, cls):
                sites.setdefault(func.attrname, []).append((method.name, block_of(call)[0]))
        for pause in method.nodes_of_class(SUSPENDS):
            suspends.setdefault(function_of(method, pause), []).append(pause.lineno)
        for call in method.nodes_of_class(nodes.Call):
            func = call.func
            name = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", "")
            if name not in MOVING_CALLS:
                fallible.setdefault(function_of(method, call), []).append(call.lineno)
    return Layout(sites, {name: tuple(sorted(lines)) for name, lines in suspends.items()},
                  {name: tuple(sorted(set(lines))) for name, lines in fallible.items()})


def _levels(mechanism: Mechanism, move: str) -> dict[Transition, frozenset[str]]:
    """Per `move` of the mechanism (not in `__init__`): the statement lists it counts for — its own, and the
    list holding an `if` whose two branches both make it (again and again up an `elif` chain)."""
    moves = [t for t in mechanism.transitions if t.kind == move and t.method != "__init__" and t.blocks]
    found: dict[Transition, frozenset[str]] = {}
    for method in {t.method for t in moves}:
        mine = [t for t in moves if t.method == method]
        outer = {inner: up for t in mine for inner, up in zip(t.blocks, t.blocks[1:])}
        levels = {t: {t.blocks[0]} for t in mine}
        grown = True
        while grown:
            held = set().union(*levels.values())
            lifted = {t: {outer[level] for level in held_by if _both_branches(level, held) and level in outer}
                      for t, held_by in levels.items()}
            grown = any(not up <= levels[t] for t, up in lifted.items())
            for t, up in lifted.items():
                levels[t] |= up
        found.update({t: frozenset(held_by) for t, held_by in levels.items()})
    return found


def _both_branches(level: str, held: set[str]) -> bool:
    owner, _, part = level.rpartition(":")
    return owner.startswith("If:") and part in ("body", "orelse") and {f"{owner}:body", f"{owner}:orelse"} <= held


def _top(move: Transition, levels: frozenset[str]) -> bool:
    """Whether the move is made whenever its function runs (it counts for the function's own body)."""
    return move.blocks[-1] in levels


def _suspension(move: Transition, partner: Transition, lines: dict[str, tuple[int, ...]], strict: bool = False) -> int:
    """The first of the function's `lines` after the earlier of the two moves, up to the later one (`self._h =
    await make()` stores after its await; `strict`: a call on the later move's own line is part of that move), or 0."""
    first, last = sorted((move.line, partner.line))
    return next((line for line in lines.get(move.method, ()) if first < line < last + (0 if strict else 1)), 0)


def _helper_partner(move: Transition, levels: frozenset[str], other: dict[Transition, frozenset[str]],
                    sites: CallSites) -> str | None:
    """The helper a match goes through (the other moves in it whenever it runs and it is called here, or this
    move is in a helper called only where the other moves), or None when the move has no partner."""
    for u, theirs in other.items():  # the other moves, whenever a helper runs, and the helper is called here
        if _top(u, theirs) and any(caller == move.method and block in levels for caller, block in sites.get(u.method, ())):
            return u.method
    # This move is made whenever a helper runs: each call of it (but `__init__`'s) must sit where the other moves.
    calls = [(caller, block) for caller, block in sites.get(move.method, ()) if caller != "__init__"]
    if _top(move, levels) and calls and all(any(u.method == caller and block in theirs for u, theirs in other.items())
                                            for caller, block in calls):
        return move.method
    return None


def match(a: Mechanism, b: Mechanism, where: Layout) -> Matching:
    """The moves of `a` and `b` without a partner in the other, and the helpers the matches went through."""
    unmatched: list[Unmatched] = []
    via: set[str] = set()
    for move in MOVES:
        ours, theirs = _levels(a, move), _levels(b, move)
        for mine, other, moved, still in ((ours, theirs, a.name, b.name), (theirs, ours, b.name, a.name)):
            for transition, levels in mine.items():
                together = [u for u, held in other.items() if u.method == transition.method and levels & held]
                splits = [_suspension(transition, u, where.suspends) for u in together]
                failing = [_suspension(transition, u, where.fallible, strict=True) for u in together]
                if together and 0 not in splits:
                    unmatched.append(Unmatched(moved, still, transition, min(splits)))
                elif together and 0 not in failing:
                    unmatched.append(Unmatched(moved, still, transition, failing=min(failing)))
                elif not together:
                    helper = _helper_partner(transition, levels, other, where.sites)
                    if helper is None:
                        unmatched.append(Unmatched(moved, still, transition))
                    else:
                        via.add(helper)
    return Matching(tuple(sorted(unmatched, key=lambda u: u.transition.line)), tuple(sorted(via)))


def unmatched_reason(unmatched: Unmatched, path: str) -> str:
    """`unmatched move: `_started` changes at mod.py:14 in start(), inside the `if` at line 12, where `_ready` does not`."""
    move = unmatched.transition
    if unmatched.suspended:
        return (f"split by a suspension: `{unmatched.moved}` changes at {path}:{move.line} in {move.method}() and "
                f"`{unmatched.still}` only across the await at line {unmatched.suspended}, where another coroutine sees "
                "them disagree (the first to change may arbitrate the first terminal outcome)")
    if unmatched.failing:
        return (f"split by a call that may fail: `{unmatched.moved}` changes at {path}:{move.line} in {move.method}() and "
                f"`{unmatched.still}` only after the call at line {unmatched.failing}; a failure there leaves them apart "
                "(cleanup after partial failure: the later one marks completion)")
    kind, line, _, part = move.blocks[0].split(":")
    place = PLACES.get((kind, part), "inside the block at line {}" if "Function" not in kind else "").format(line)
    return (f"unmatched move: `{unmatched.moved}` changes at {path}:{move.line} in {move.method}()"
            f"{', ' + place if place else ''}, where `{unmatched.still}` does not")
