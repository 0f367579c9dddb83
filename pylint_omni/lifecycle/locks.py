"""Two locks of one class that guard the same fields: one lock would do.

Per `Lock`/`RLock` attribute: the `self` fields written (assigned, item-assigned, mutated)
inside its `with self._lock:` / `async with self._lock:` blocks. Two locks whose field sets
are the same and not empty hold one state behind two doors. Kept apart, with the reason:
one taken inside the other (directly, or in a helper the block calls: the order is the
protocol), or an `asyncio` lock beside a `threading` one (different failure boundaries:
one serialises coroutines of a loop, the other threads).
"""

from __future__ import annotations

from dataclasses import dataclass

from astroid import nodes

from pylint_omni.lifecycle.mechanisms import Mechanism

MUTATORS = frozenset({"append", "extend", "insert", "pop", "popitem", "remove", "discard", "add", "update",
                      "setdefault", "clear", "appendleft", "popleft"})
LOCKS = frozenset({"Lock", "RLock"})


@dataclass(frozen=True)
class LockPair:
    """Two locks of one class whose `with` blocks write the same fields."""

    first: Mechanism
    second: Mechanism
    fields: tuple[str, ...]
    methods: tuple[str, ...]  # where each lock is taken
    kept_apart: str  # why the audit keeps them apart (a rejected idea), or ""


def _self_name(node: nodes.NodeNG) -> str | None:
    if isinstance(node, (nodes.Attribute, nodes.AssignAttr)) and isinstance(node.expr, nodes.Name) and node.expr.name == "self":
        return node.attrname
    return None


def library(mechanism: Mechanism) -> str:
    """"asyncio" or "threading": where the lock's factory comes from (a bare `Lock()` is looked up in the module)."""
    value = getattr(mechanism.created, "value", None)
    func = value.func if isinstance(value, nodes.Call) else None
    if isinstance(func, nodes.Attribute):
        return "asyncio" if func.expr.as_string().endswith("asyncio") else "threading"
    if isinstance(func, nodes.Name):
        _, found = func.lookup(func.name)
        if any(isinstance(f, nodes.ImportFrom) and f.modname.startswith("asyncio") for f in found):
            return "asyncio"
    return "threading"


def _written(block: nodes.NodeNG, locks: set[str]) -> set[str]:
    """The self fields a block writes (not the locks themselves)."""
    fields = {_self_name(a) for a in block.nodes_of_class(nodes.AssignAttr)}
    for target in block.nodes_of_class((nodes.Subscript, nodes.Call)):
        if isinstance(target, nodes.Subscript) and target.ctx is not None and target.ctx.name in ("Store", "Del"):
            fields.add(_self_name(target.value))
        elif isinstance(target, nodes.Call) and isinstance(target.func, nodes.Attribute) and target.func.attrname in MUTATORS:
            fields.add(_self_name(target.func.expr))
    return {f for f in fields if f is not None} - locks


def _blocks(cls: nodes.ClassDef, locks: set[str]) -> dict[str, list[tuple[str, nodes.NodeNG]]]:
    """Per lock: (method, with-statement) of every block that takes it."""
    found: dict[str, list[tuple[str, nodes.NodeNG]]] = {}
    for method in cls.mymethods():
        for block in method.nodes_of_class((nodes.With, nodes.AsyncWith)):
            for item, _ in block.items:
                name = _self_name(item)
                if name in locks:
                    found.setdefault(name, []).append((method.name, block))
    return found


def _nested(outer: list[tuple[str, nodes.NodeNG]], inner: list[tuple[str, nodes.NodeNG]],
            reach: dict[str, frozenset[str]]) -> str:
    """Where a block of `inner` runs inside one of `outer` (lexically or through a helper the block calls), or ""."""
    inner_methods = {method for method, _ in inner}
    for method, block in outer:
        if any(block is b or block.parent_of(b) for _, b in inner):  # `with self._a, self._b:` nests too
            return f"{method}()"
        for call in block.nodes_of_class(nodes.Call):
            callee = _self_name(call.func) if isinstance(call.func, nodes.Attribute) else None
            if callee is not None and ({callee} | reach.get(callee, frozenset())) & inner_methods:
                return f"{method}() through {callee}()"
    return ""


def lock_pairs(cls: nodes.ClassDef, mechanisms: dict[str, Mechanism], reach: dict[str, frozenset[str]]) -> list[LockPair]:
    """Pairs of `Lock`/`RLock` attributes of `cls` whose blocks write the same non-empty set of fields."""
    locks = {name: m for name, m in mechanisms.items() if m.kind == "lock"
             and isinstance(getattr(m.created, "value", None), nodes.Call)
             and (m.created.value.func.as_string().rpartition(".")[2] in LOCKS)}
    blocks = _blocks(cls, set(locks))
    guarded = {name: set().union(*(_written(b, set(locks)) for _, b in taken)) for name, taken in blocks.items()}
    found = []
    names = sorted(guarded, key=lambda n: locks[n].created.lineno)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if not guarded[a] or guarded[a] != guarded[b]:
                continue
            methods = tuple(sorted({m for m, _ in blocks[a]} | {m for m, _ in blocks[b]}))
            inside = _nested(blocks[a], blocks[b], reach) or _nested(blocks[b], blocks[a], reach)
            if inside:
                why = f"nested acquisition: both are taken together in {inside}, so their order is the protocol"
            elif library(locks[a]) != library(locks[b]):
                why = (f"different failure boundaries: `{a}` is {library(locks[a])}'s lock, `{b}` "
                       f"{library(locks[b])}'s (coroutines of one loop vs threads)")
            else:
                why = ""
            found.append(LockPair(locks[a], locks[b], tuple(sorted(guarded[a])), methods, why))
    return found
