"""A lock that guards nothing: no code takes it, or an asyncio lock none of whose critical sections can yield.

- **untaken**: a `Lock`/`RLock`/`Semaphore`/`Condition` attribute that no method of its class
  names again, and that nothing else reads (the reference graph's reads of `Cls.name`, and of
  the same field on its project subclasses): dropping it changes nothing.
- **await-free**: an `asyncio` lock taken only by `async with self._lock:` blocks none of which
  can suspend (no `await`, `async for`, `async with` or `yield` inside): one event loop runs such
  a block to its end without interleaving, so the lock never makes anyone wait.
A public lock (no leading underscore) is medium: code outside the repository may take it.
"""

from __future__ import annotations

from dataclasses import dataclass

from astroid import nodes

from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.graph.graph import graph_of
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.lifecycle.locks import library
from pylint_omni.lifecycle.mechanisms import Mechanism

LOCK_FACTORIES = frozenset({"Lock", "RLock", "Semaphore", "BoundedSemaphore", "Condition"})
SUSPENDING = (nodes.Await, nodes.AsyncFor, nodes.AsyncWith, nodes.Yield, nodes.YieldFrom)
READ_VIAS = frozenset({"load", "call", "attr", "getattr", "hop"})


@dataclass(frozen=True)
class IdleLock:
    """A lock attribute that never makes anyone wait, and why."""

    lock: Mechanism
    shape: str  # "untaken" | "await-free"
    sections: tuple[str, ...]  # the methods whose `async with` blocks take it (await-free)
    lines: int  # the lines that go: its creation, and one per block that takes it
    public: bool


def _self_uses(cls: nodes.ClassDef, name: str, created: nodes.NodeNG) -> list[nodes.Attribute]:
    """Every read of `self.<name>` in the class's own code (its creation is a write, not a use)."""
    return [node for node in cls.nodes_of_class(nodes.Attribute)
            if node.attrname == name and isinstance(node.expr, nodes.Name) and node.expr.name == "self"
            and not created.parent_of(node)]


def _handed_on(cls: nodes.ClassDef, name: str, created: nodes.NodeNG) -> bool:
    """Whether the lock also reaches code by another way than the class's own `self.<name>`: created into a second
    target (`lock = self._lock = asyncio.Lock()`, then returned), named by a string (`getattr(self, "_lock")`), or
    taken by a function of the module outside the class (a decorator's wrapper: `async with self._lock:` around
    the methods it wraps)."""
    if isinstance(created, nodes.Assign) and len(created.targets) > 1:
        return True
    module = cls.root()
    if any(const.value == name for const in module.nodes_of_class(nodes.Const) if isinstance(const.value, str)):
        return True
    end = cls.tolineno or cls.fromlineno
    return any(node.attrname == name and not cls.fromlineno <= node.lineno <= end
               for node in module.nodes_of_class(nodes.Attribute))


def _read_elsewhere(index: ProjectIndex, cls: nodes.ClassDef, relpath: str, name: str) -> bool:
    """Whether the reference graph resolves a read of the lock outside the class (another object, a subclass)."""
    graph = graph_of(index)
    end = cls.tolineno or cls.fromlineno
    for owner in (cls.qname(), *class_graph(index).descendants(cls.qname())):
        for ref in graph.refs_to(f"{owner}.{name}"):
            inside = ref.path == relpath and cls.fromlineno <= ref.line <= end
            if ref.via in READ_VIAS and not inside:
                return True
    return False


def _suspends(block: nodes.AsyncWith) -> bool:
    """Whether the block's own code (not a function defined in it) can hand control back to the loop."""
    for statement in block.body:
        for node in [statement, *statement.nodes_of_class(SUSPENDING, skip_klass=(nodes.FunctionDef, nodes.Lambda))]:
            if isinstance(node, SUSPENDING):
                return True
    return False


def idle_locks(cls: nodes.ClassDef, mechanisms: dict[str, Mechanism], index: ProjectIndex, relpath: str) -> list[IdleLock]:
    """The lock attributes of `cls` that never make anyone wait (see the module docstring)."""
    found = []
    for name, lock in mechanisms.items():
        value = getattr(lock.created, "value", None)
        if lock.kind != "lock" or not isinstance(value, nodes.Call) or value.func.as_string().rpartition(".")[2] not in LOCK_FACTORIES:
            continue
        uses = _self_uses(cls, name, lock.created)
        if _handed_on(cls, name, lock.created) or _read_elsewhere(index, cls, relpath, name):
            continue
        public = not name.startswith("_")
        if not uses:
            found.append(IdleLock(lock, "untaken", (), 1, public))
            continue
        blocks = [use.parent for use in uses if isinstance(use.parent, nodes.AsyncWith)
                  and any(item is use for item, _ in use.parent.items)]
        if library(lock) != "asyncio" or len(blocks) != len(uses) or any(_suspends(b) for b in blocks):
            continue
        methods = tuple(sorted({b.frame().name for b in blocks}))
        found.append(IdleLock(lock, "await-free", methods, 1 + len(blocks), public))
    return found
