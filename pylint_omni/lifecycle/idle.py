"""A mechanism that makes no one wait: a lock no code takes, an asyncio lock none of whose critical sections can
yield, an Event no code waits on.

- **untaken**: a `Lock`/`RLock`/`Semaphore`/`Condition` attribute that no method of its class
  names again, and that nothing else reads (the reference graph's reads of `Cls.name`, and of
  the same field on its project subclasses): dropping it changes nothing.
- **await-free**: an `asyncio` lock taken only by `async with self._lock:` blocks none of which
  can suspend (no `await`, `async for`, `async with` or `yield` inside): one event loop runs such
  a block to its end without interleaving, so the lock never makes anyone wait.
- **unwaited**: an `Event` whose every use in its class is `.set()`, `.clear()` or `.is_set()`
  (never `.wait()`, never handed to other code), set and tested: what it adds to a bool is
  waking waiters, and it has none; a bool attribute holds the same state. One never tested, or
  never set, is `unused-surface`'s (a signal that goes nowhere, or a wait nothing ends). A
  `threading` Event is medium: a stop flag shared by threads is that library's documented idiom
  (a bool works under the GIL, but the Event says the state crosses threads); an `asyncio` one
  is a coroutine's bool.
A public one (no leading underscore) is medium: code outside the repository may take or wait on it;
so is one of a class with a third-party base no upstream index reads (that base's code may). Any of
them the class hands on (a second target, a string, a module function outside the class), that the
reference graph sees read outside the class, or that an indexed upstream base reads, is not idle.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from astroid import nodes

from pylint_omni.evidence.upstream_readers import unread_base, upstream_readers
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.graph.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.lifecycle.locks import library
from pylint_omni.lifecycle.mechanisms import Mechanism, named_in_string

LOCK_FACTORIES = frozenset({"Lock", "RLock", "Semaphore", "BoundedSemaphore", "Condition"})
FLAG_CALLS = frozenset({"set", "clear", "is_set"})  # an Event used only so is a bool
THREADS_DOUBT = "a stop flag threads share is threading's idiom; a bool's reads and writes are atomic under the GIL"
SUSPENDING = (nodes.Await, nodes.AsyncFor, nodes.AsyncWith, nodes.Yield, nodes.YieldFrom)
READ_VIAS = frozenset({"load", "call", "attr", "getattr", "hop"})


@dataclass(frozen=True)
class Idle:
    """A lock or event attribute that never makes anyone wait, and why."""

    mechanism: Mechanism
    shape: str  # "untaken" | "await-free" | "unwaited"
    sections: tuple[str, ...]  # the methods whose `async with` blocks take it (await-free), or that move it (unwaited)
    lines: int  # the lines that go: its creation, and one per block that takes it
    doubt: str  # why it is only medium, as the message says it; "" when high


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
    if named_in_string(module, name):
        return True
    end = cls.tolineno or cls.fromlineno
    return any(node.attrname == name and not cls.fromlineno <= node.lineno <= end and not _own_self(node)
               for node in module.nodes_of_class(nodes.Attribute))


def _own_self(node: nodes.Attribute) -> bool:
    """`self.<name>` in a method of another class of the module: that class's own attribute of the same name."""
    method = node.scope()
    return (isinstance(node.expr, nodes.Name) and node.expr.name == "self" and isinstance(method, nodes.FunctionDef)
            and isinstance(method.parent, nodes.ClassDef))


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


def taking_block(use: nodes.NodeNG) -> nodes.AsyncWith | None:
    """The `async with` block that takes the lock at this use (`async with self._lock:`), or None for any other use."""
    block = use.parent
    return block if isinstance(block, nodes.AsyncWith) and any(item is use for item, _ in block.items) else None


def suspends(block: nodes.AsyncWith) -> bool:
    """Whether the block's own code (not a function defined in it) can hand control back to the loop."""
    for statement in block.body:
        for node in [statement, *statement.nodes_of_class(SUSPENDING, skip_klass=(nodes.FunctionDef, nodes.Lambda))]:
            if isinstance(node, SUSPENDING):
                return True
    return False


def _doubt(index: ProjectIndex, cls: nodes.ClassDef, name: str) -> str:
    """Who else may use the attribute, when someone may: code outside the repository, or a base's code."""
    if not name.startswith("_"):
        return "public: code outside the repository may use it"
    base = next((b for b in class_graph(index).upstream_bases(cls.qname()) if unread_base(b, index)), None)
    return f"unless its base {base}, which no upstream index reads, uses it" if base else ""


def _factory(mechanism: Mechanism) -> str:
    value = getattr(mechanism.created, "value", None)
    return value.func.as_string().rpartition(".")[2] if isinstance(value, nodes.Call) else ""


def _flag_calls(uses: list[nodes.Attribute]) -> bool:
    """Whether every use is `self.<name>.set()`, `.clear()` or `.is_set()` called at once."""
    return all(isinstance(use.parent, nodes.Attribute) and use.parent.attrname in FLAG_CALLS
               and isinstance(use.parent.parent, nodes.Call) and use.parent.parent.func is use.parent for use in uses)


def _shape(cls: nodes.ClassDef, mechanism: Mechanism, lock: bool) -> Idle | None:
    """The idle shape the class's own uses of the mechanism make, if any (doubt not yet asked)."""
    uses = _self_uses(cls, mechanism.name, mechanism.created)
    if not uses and lock:
        return Idle(mechanism, "untaken", (), 1, "")
    if not lock:
        if _flag_calls(uses) and {"set", "is_set"} <= {use.parent.attrname for use in uses}:
            methods = tuple(sorted({use.frame().name for use in uses}))
            return Idle(mechanism, "unwaited", methods, 1, "" if library(mechanism) == "asyncio" else THREADS_DOUBT)
        return None
    blocks = [block for use in uses if (block := taking_block(use)) is not None]
    if library(mechanism) != "asyncio" or len(blocks) != len(uses) or any(suspends(b) for b in blocks):
        return None
    return Idle(mechanism, "await-free", tuple(sorted({b.frame().name for b in blocks})), 1 + len(blocks), "")


def idle_mechanisms(cls: nodes.ClassDef, mechanisms: dict[str, Mechanism], index: ProjectIndex, relpath: str) -> list[Idle]:
    """The lock and event attributes of `cls` that never make anyone wait (see the module docstring).

    The class's own uses decide the shape first: the module, graph and upstream checks that follow scan far more,
    and most locks and events are taken or waited on."""
    found = []
    for name, mechanism in mechanisms.items():
        factory = _factory(mechanism)
        lock = mechanism.kind == "lock" and factory in LOCK_FACTORIES
        if not (lock or (mechanism.kind == "event" and factory == "Event")):
            continue
        idle = _shape(cls, mechanism, lock)
        if idle is None or _handed_on(cls, name, mechanism.created) or _read_elsewhere(index, cls, relpath, name):
            continue
        if upstream_readers(index, cls.qname(), name):
            continue  # an upstream base's own code takes it (a subclass of vLLM's AsyncLLM creates its `_pause_cond`)
        doubt = _doubt(index, cls, name) or (_waited_in_tests(index, name) if idle.shape == "unwaited" else
                                             _taken_in_tests(index, cls, name))
        found.append(replace(idle, doubt=doubt or idle.doubt))
    return found


def _taken_in_tests(index: ProjectIndex, cls: nodes.ClassDef, name: str) -> str:
    """Where the tests reach the lock itself (`async with runtime._lock:` to hold a request back), in a test file
    that names the class (`_lock` is a common name): dropping it rewrites them, or ""."""
    testing = {h.path for h in index.hits(cls.name) if index.location(h.path) is Location.VALIDATION}
    hit = next((h for h in index.hits(name) if h.via in READ_VIAS and h.path in testing), None)
    return f"the tests take it ({hit.path}:{hit.line})" if hit is not None else ""


def _waited_in_tests(index: ProjectIndex, name: str) -> str:
    """Where the tests wait on the event (`await runtime._stop_requested.wait()`): they drive it as an Event, so a
    bool would break them, or ""."""
    for hit in index.hits(name):
        if index.location(hit.path) is not Location.VALIDATION:
            continue
        lines = (index.text(hit.path) or "").splitlines()
        if 0 < hit.line <= len(lines) and f"{name}.wait(" in lines[hit.line - 1]:
            return f"the tests wait on it ({hit.path}:{hit.line})"
    return ""
