"""Per class: its lifecycle mechanisms (events, flags, handles, locks, queues) and their transitions.

Read from the class's own AST only (no analysed code is imported): a flag is an attribute
assigned a bool constant, an event one created by `Event()` (or by a class of the module built
on one, `class CounterEvent(asyncio.Event)`) and moved by `.set()`/`.clear()` (a fresh
`Event()` outside `__init__` is a clear), a handle one assigned `None` and something else, a
task group a collection the class adds running tasks to (`self.tasks.add(create_task(...))`),
aborted by a loop that cancels each one. A call on a local name bound once to the attribute
(`que = self._queue; que.get()`) is the attribute's move. A transition inside `except`/`finally` is marked: a flag set there
records cleanup after partial failure, a different state.
`helpers` is the class's own call graph (`self.m()`), so a transition made in a helper
method counts for the methods that reach it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from astroid import nodes

FACTORIES = {
    "Event": "event",
    **dict.fromkeys(("Lock", "RLock", "Condition", "Semaphore", "BoundedSemaphore"), "lock"),
    **dict.fromkeys(("Queue", "SimpleQueue", "LifoQueue", "PriorityQueue", "JoinableQueue", "deque"), "queue"),
}
# Method calls on a mechanism and the transition each one is (the explain table's columns).
CALLS = {
    "set": "set", "clear": "clear", "wait": "wait", "is_set": "read",
    "acquire": "set", "release": "clear", "put": "set", "put_nowait": "set", "append": "set",
    "get": "clear", "get_nowait": "clear", "popleft": "clear",
    "join": "wait", "result": "wait", "cancel": "abort", "terminate": "abort", "kill": "abort",
    "wait_for": "wait", "notify": "set", "notify_all": "set", "add": "set",
}
# Calls whose result is a running thing: the attribute holding it is a handle to a task, thread or process.
RUNNERS = frozenset({"create_task", "ensure_future", "Thread", "Process", "Popen", "Timer", "submit",
                     "run_in_executor", "start_background_task", "create_subprocess_exec"})
# Calls only a queue answers (a dict has `get` too): an attribute handed in and called so is a queue.
QUEUE_CALLS = frozenset({"put", "put_nowait", "get_nowait"})
# What a call on a handle (a task, thread, process, field) says: waited for or aborted, never set or cleared
# (`self.cache.clear()` empties a dict; only `self.x = None` clears a handle).
HANDLE_MOVES = frozenset({"wait", "abort"})
ABORTS = frozenset(call for call, move in CALLS.items() if move == "abort")  # `cancel`, `terminate`, `kill`


@dataclass(frozen=True)
class Transition:
    """One move of a mechanism: in which method, what kind (`create`, `set`, `clear`), at which line.

    `blocks`: the statement lists it is in, innermost first (`block_of`); `timed`: a wait, join,
    get or acquire bounded by a timeout (`join(timeout=5)`, `asyncio.wait_for(self._ev.wait(), 3)`).
    """

    method: str
    kind: str
    line: int
    in_handler: bool
    blocks: tuple[str, ...]
    timed: bool = False


@dataclass(frozen=True)
class Mechanism:
    """An attribute of the class that carries lifecycle state, with every transition found."""

    name: str
    kind: str  # "event" | "flag" | "handle" | "lock" | "queue" | "tasks"
    created: nodes.NodeNG
    transitions: tuple[Transition, ...]
    runner: bool = False  # a handle assigned a task, thread or process (`RUNNERS`), not a plain field

    def has_lifecycle(self) -> bool:
        """Not a plain field: a mechanism, a flag, a running handle, or a handle that goes back to None after `__init__`."""
        if self.kind != "handle":
            return True
        cleared_later = any(t.kind == "clear" and t.method != "__init__" for t in self.transitions)
        return bool(self.methods("clear")) and (self.runner or cleared_later or bool(self.methods("wait") | self.methods("abort")))

    def methods(self, kind: str) -> frozenset[str]:
        """The methods where the mechanism makes transitions of this kind."""
        return frozenset(t.method for t in self.transitions if t.kind == kind)


def _in_handler(node: nodes.NodeNG, method: nodes.FunctionDef) -> bool:
    """Whether `node` runs in an `except` or `finally` clause of `method` (cleanup after failure)."""
    child, parent = node, node.parent
    while parent is not None and parent is not method:
        if isinstance(parent, nodes.ExceptHandler):
            return True
        if isinstance(parent, nodes.Try) and child in parent.finalbody:
            return True
        child, parent = parent, parent.parent
    return False


def _guard(owner: nodes.NodeNG, name: str) -> str:
    """"present" for an `if` that only tests that `self.<name>` is set (`is not None`, truthy), "absent" for
    one that tests it is not (`is None`, `not`), "" for any other statement."""
    if not isinstance(owner, nodes.If) or not name:
        return ""
    negated = isinstance(owner.test, nodes.UnaryOp) and owner.test.op == "not"
    test = owner.test.operand if negated else owner.test
    if isinstance(test, nodes.Compare) and len(test.ops) == 1 and test.ops[0][0] in ("is", "is not") \
            and isinstance(test.ops[0][1], nodes.Const) and test.ops[0][1].value is None:
        negated ^= test.ops[0][0] == "is"
        test = test.left
    return ("absent" if negated else "present") if _self_attr(test) == name else ""


def block_of(node: nodes.NodeNG, name: str = "", move: str = "") -> tuple[str, ...]:
    """The statement lists holding `node`'s statement, innermost first up to the method body.

    Each is its owner's kind, position and which of its bodies (`If:12:8:orelse`): two moves in
    one list happen together; one under an `if` or a loop the other is not in may not. An `if`
    that only tests the moved attribute `name` itself and skips a move that would change
    nothing (`if self._task is not None: self._task = None`, `if not self._on: self._on = True`)
    is no level of its own.
    """
    idle = {"clear": "present", "set": "absent"}.get(move)
    found = []
    statement = node.statement()
    while not isinstance(statement, (nodes.FunctionDef, nodes.ClassDef, nodes.Module)):
        owner = statement.parent
        part = next((name for name in ("body", "orelse", "handlers", "finalbody")
                     if statement in (getattr(owner, name, None) or ())), "")
        if not (part == "body" and idle and _guard(owner, name) == idle):
            found.append(f"{type(owner).__name__}:{owner.lineno}:{owner.col_offset}:{part}")
        statement = owner
    return tuple(found)


def _self_attr(node: nodes.NodeNG) -> str | None:
    if isinstance(node, (nodes.AssignAttr, nodes.Attribute)) and isinstance(node.expr, nodes.Name) and node.expr.name == "self":
        return node.attrname
    return None


def _alias_of(node: nodes.NodeNG) -> str | None:
    """`x` behind a local name bound once, to `self.x` (`que = self._queue` before `que.get()`): a call on
    the name is a move of the mechanism, which a rule blind to it would miss."""
    if not isinstance(node, nodes.Name):
        return None
    _, bound = node.lookup(node.name)
    if len(bound) != 1 or not isinstance(bound[0], nodes.AssignName) or not isinstance(bound[0].parent, nodes.Assign):
        return None
    return _self_attr(bound[0].parent.value)


def _called_name(node: nodes.NodeNG) -> str:
    if not isinstance(node, nodes.Call):
        return ""
    func = node.func
    return func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", "")


def _factory(value: nodes.NodeNG) -> str:
    """The mechanism factory a call makes: `Event()`, or a class of the module whose base is one
    (`CounterEvent()` for `class CounterEvent(asyncio.Event)`), found by name in the module, never inferred."""
    name = _called_name(value)
    if name in FACTORIES or not isinstance(value, nodes.Call) or not isinstance(value.func, nodes.Name):
        return name if name in FACTORIES else ""
    for defined in value.func.lookup(name)[1]:
        if isinstance(defined, nodes.ClassDef):
            return next((base for base in (getattr(b, "attrname", getattr(b, "name", "")) for b in defined.bases)
                         if base in FACTORIES), "")
    return ""


def _assignment_kind(value: nodes.NodeNG) -> tuple[str, str]:
    """(mechanism kind, transition kind) of `self.x = value`."""
    if isinstance(value, nodes.Const) and isinstance(value.value, bool):
        return "flag", "set" if value.value else "clear"
    if isinstance(value, nodes.Const) and value.value is None:
        return "handle", "clear"
    if _factory(value):
        return FACTORIES[_factory(value)], "create"
    return "handle", "set"


def _cancelled_each(loop: nodes.For) -> nodes.Call | None:
    """`task.cancel()` on the loop's own variable in `for task in self.tasks:`: the group's abort path."""
    if not isinstance(loop.target, nodes.AssignName):
        return None
    return next((call for call in loop.nodes_of_class(nodes.Call) if isinstance(call.func, nodes.Attribute)
                 and call.func.attrname in ABORTS and isinstance(call.func.expr, nodes.Name)
                 and call.func.expr.name == loop.target.name), None)


def named_in_string(tree: nodes.Module, name: str) -> bool:
    """Whether the module writes `name` as a string (`getattr(self, "_lock")`, `setattr(self, "_task", t)`): code there
    may reach the attribute or global by name, which no rule here follows."""
    return any(const.value == name for const in tree.nodes_of_class(nodes.Const) if isinstance(const.value, str))


def self_stores(cls: nodes.ClassDef, name: str) -> list[nodes.NodeNG | None]:
    """What each store of `self.<name>` in the class assigns: the value of the statement holding it (an assignment,
    an augmented one), None when none is written there (a tuple unpacked into it, a `with ... as` or loop target);
    a bare annotation (`self.x: Thread`) stores nothing."""
    found: list[nodes.NodeNG | None] = []
    for node in cls.nodes_of_class(nodes.AssignAttr):
        if node.attrname != name or not isinstance(node.expr, nodes.Name) or node.expr.name != "self":
            continue
        statement = node.parent
        if isinstance(statement, nodes.AnnAssign) and statement.value is None:
            continue
        found.append(getattr(statement, "value", None))
    return found


def _moved_name(node: nodes.NodeNG) -> str:
    """The attribute a move is made on: `self.x = ...`, `self.x.set()`, `with self.x:`."""
    target = node.func.expr if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Attribute) else node
    return _self_attr(target) or ""


def _timed(node: nodes.NodeNG) -> bool:
    """Whether a call on a mechanism is bounded by a timeout: a `timeout=` argument, a first positional one
    of `join`/`wait`/`result`, or the call handed to `wait_for`."""
    if not isinstance(node, nodes.Call):
        return False
    positional = isinstance(node.func, nodes.Attribute) and node.func.attrname in ("join", "wait", "result") and bool(node.args)
    outer = node.parent.func if isinstance(node.parent, nodes.Call) else None
    handed = getattr(outer, "attrname", getattr(outer, "name", "")) == "wait_for"
    return positional or handed or any(k.arg == "timeout" for k in node.keywords or ())


def function_of(method: nodes.FunctionDef, node: nodes.NodeNG) -> str:
    """The function `node` runs in: the method, or a function or lambda nested in it (`start.inner`), which
    runs later (a callback, a task's coroutine)."""
    scope = node.scope()
    return method.name if scope is method else f"{method.name}.{getattr(scope, 'name', '<lambda>')}"


def move_at(method: nodes.FunctionDef, kind: str, node: nodes.NodeNG) -> Transition:
    """A move in a function nested in the method is that function's move, not the method's."""
    blocks = block_of(node, _moved_name(node), kind)
    return Transition(function_of(method, node), kind, node.lineno, _in_handler(node, method), blocks, _timed(node))


def class_mechanisms(cls: nodes.ClassDef) -> dict[str, Mechanism]:
    """Every event, flag, handle, lock and queue of `cls`, keyed by attribute name."""
    kinds: dict[str, set[str]] = {}
    created: dict[str, nodes.NodeNG] = {}
    moves: dict[str, list[Transition]] = {}
    calls: dict[str, list[Transition]] = {}  # `.set()`, `.put()`, `.join()`...: what a call on the mechanism does
    queued: set[str] = set()  # attributes something is put on or got from without waiting
    runners: set[str] = set()
    groups: set[str] = set()  # collections running tasks are added to: task groups
    taken: dict[str, list[Transition]] = {}  # `with self.x:` blocks
    for method in cls.mymethods():
        for assign in method.nodes_of_class(nodes.AssignAttr):
            name = _self_attr(assign)
            if name is None or not isinstance(assign.parent, (nodes.Assign, nodes.AnnAssign)) or assign.parent.value is None:
                continue
            kind, move = _assignment_kind(assign.parent.value)
            if kind == "event" and move == "create" and method.name != "__init__":
                move = "clear"  # a fresh Event replacing the old one starts clear: a transition, not a creation
            if _called_name(assign.parent.value) in RUNNERS:
                runners.add(name)
            kinds.setdefault(name, set()).add(kind)
            created.setdefault(name, assign.parent)
            moves.setdefault(name, []).append(move_at(method, move, assign))
        for call in method.nodes_of_class(nodes.Call):
            name = (_self_attr(call.func.expr) or _alias_of(call.func.expr)) if isinstance(call.func, nodes.Attribute) else None
            if name is not None and call.func.attrname in QUEUE_CALLS:
                queued.add(name)
            if name is not None and call.func.attrname in CALLS:
                calls.setdefault(name, []).append(move_at(method, CALLS[call.func.attrname], call))
            if name is not None and call.func.attrname in ("add", "append") and any(_called_name(a) in RUNNERS for a in call.args):
                groups.add(name)
        for loop in method.nodes_of_class(nodes.For):
            name, cancel = _self_attr(loop.iter) or _alias_of(loop.iter), _cancelled_each(loop)
            if name is not None and cancel is not None:
                calls.setdefault(name, []).append(move_at(method, "abort", cancel))
        for block in method.nodes_of_class((nodes.With, nodes.AsyncWith)):
            for item, _ in block.items:
                name = _self_attr(item)
                if name is not None:  # `with self._lock:` acquires it
                    taken.setdefault(name, []).append(move_at(method, "set", item))
        for read in method.nodes_of_class(nodes.Attribute):
            name = _self_attr(read)
            # A read (`if self._started:`, `kill(self._actor)`, `self._cfg.plugin`), not a call on or of it
            # (`self._ev.set()`, `self._hook()`: those are its moves) nor a `with` (an acquisition).
            parent = read.parent
            called = isinstance(parent, (nodes.With, nodes.AsyncWith)) or (isinstance(parent, nodes.Call) and parent.func is read) \
                or (isinstance(parent, nodes.Attribute) and isinstance(parent.parent, nodes.Call) and parent.parent.func is parent)
            if name is not None and not called:
                moves.setdefault(name, []).append(move_at(method, "read", read))
    found = {}
    for name, seen in kinds.items():
        # An attribute assigned both a bool and something else is no clean flag: leave it out.
        made = seen & {"event", "lock", "queue"}
        kind = next(iter(made)) if len(made) == 1 else next(iter(seen)) if len(seen) == 1 else ""
        if kind == "handle" and name in queued:
            kind = "queue"  # handed in (`self._in_q = in_q`), known by its puts and gets
        if kind == "handle" and name in groups:
            kind = "tasks"  # its calls are the group's moves: `add` starts one, `clear` forgets them, a loop cancels
        if kind:
            own_calls = [t for t in calls.get(name, []) if kind != "handle" or t.kind in HANDLE_MOVES]
            own_calls += taken.get(name, []) if kind == "lock" else []
            own_moves = moves.get(name, [])
            if kind == "tasks":  # the empty collection it starts as is its creation, not a task started
                own_moves = [replace(t, kind="create") if t.line == created[name].lineno and t.kind == "set" else t for t in own_moves]
            transitions = tuple(sorted([*own_moves, *own_calls], key=lambda t: t.line))
            found[name] = Mechanism(name, kind, created[name], transitions, name in runners)
    return found


def runs_now(call: nodes.Call, cls: nodes.ClassDef) -> bool:
    """Whether `self.m()` runs `m` here: not handed to another call (`create_task(self.m())`), not an un-awaited
    coroutine, not inside a nested function or lambda (which runs later, if at all)."""
    if isinstance(call.parent, (nodes.Call, nodes.Keyword)) or not isinstance(call.scope(), nodes.FunctionDef) \
            or call.scope().parent is not cls:
        return False
    target = cls.locals.get(call.func.attrname, [None])[0]
    return not isinstance(target, nodes.AsyncFunctionDef) or isinstance(call.parent, nodes.Await)


def helpers(cls: nodes.ClassDef) -> dict[str, frozenset[str]]:
    """Per method of `cls`: every method of `cls` it reaches through `self.m()` calls, transitively."""
    own = {method.name for method in cls.mymethods()}
    direct: dict[str, set[str]] = {}
    for method in cls.mymethods():
        called = direct.setdefault(method.name, set())
        for call in method.nodes_of_class(nodes.Call):
            if isinstance(call.func, nodes.Attribute) and _self_attr(call.func) in own and runs_now(call, cls):
                called.add(call.func.attrname)
    reached: dict[str, frozenset[str]] = {}
    for name in direct:
        seen: set[str] = set()
        todo = list(direct[name])
        while todo:
            callee = todo.pop()
            if callee not in seen:
                seen.add(callee)
                todo.extend(direct.get(callee, ()))
        reached[name] = frozenset(seen - {name})
    return reached
