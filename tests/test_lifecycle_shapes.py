"""`lifecycle-mechanism`'s shapes beyond flag-vs-Event, through real pylint runs: what fires, at which
confidence, and the audit's protected cases, each rejected with its reason."""

from __future__ import annotations

from pathlib import Path

from conftest import enable_args, run_pylint, write_tree

HANDLE = """
import asyncio
import threading


class StageLoop:
    def __init__(self):
        self._task = None
        self._running = False

    async def _serve(self):
        await asyncio.sleep(0)

    def start(self):
        self._task = asyncio.get_running_loop().create_task(self._serve())
        self._running = True

    def stop(self):
        self._task = None
        self._running = False

    def is_running(self):
        return self._running
"""

LOCKS = """
import asyncio
import threading


class Ledger:
    def __init__(self):
        self._a = threading.Lock()
        self._b = threading.Lock()
        self._free = []
        self._owner = {}

    def allocate(self, rid):
        with self._a:
            block = self._free.pop()
            self._owner[block] = rid
        return block

    def release(self, block):
        with self._b:
            self._free.append(block)
            self._owner.pop(block, None)
"""


def lint(files: dict[str, str], tmp_path: Path, cache_dir: Path, rejected: bool = False) -> list[tuple[str, int, str, str]]:
    write_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'case'\n", **files})
    extra = ["--omni-include-rejected=y"] if rejected else []
    _, findings, stderr = run_pylint([*enable_args(["lifecycle-mechanism"]), *extra, *files], cwd=tmp_path, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return [(f.path, f.line, f.confidence, f.message) for f in findings]


def test_flag_derivable_from_a_task_handle_is_high(tmp_path: Path, cache_dir: Path) -> None:
    [(_, line, confidence, message)] = lint({"mod.py": HANDLE}, tmp_path, cache_dir)
    assert (line, confidence) == (8, "HIGH")
    assert message == ("[high] `_running` is derivable from the handle `_task` (assigned and back to None where the flag "
                       "moves: set together in start(), cleared together in stop()): test `_task is not None` and drop the flag")


def fired(files: dict[str, str], tmp_path: Path, cache_dir: Path) -> list[str]:
    """The files with a finding (rejected ones included), beside `mod.py` holding the plain handle case."""
    return [path for path, *_ in lint({"mod.py": HANDLE, **files}, tmp_path, cache_dir, rejected=True)]


def test_tests_are_not_audited(tmp_path: Path, cache_dir: Path) -> None:
    assert fired({"tests/test_loop.py": HANDLE}, tmp_path, cache_dir) == ["mod.py"]


def test_handle_kept_after_stop_is_rejected(tmp_path: Path, cache_dir: Path) -> None:
    source = HANDLE.replace("    def stop(self):\n        self._task = None\n", "    def stop(self):\n") + \
        "\n    def join(self):\n        self._task = None\n"
    assert lint({"mod.py": source}, tmp_path, cache_dir) == []
    [(_, _, _, message)] = lint({"mod.py": source}, tmp_path, cache_dir, rejected=True)
    assert message.endswith("rejected, `_task` outlives `_running`: stop() clears the flag and keeps `_task` (joined or reused later)")


def test_publication_before_the_handle_and_rollback_is_rejected(tmp_path: Path, cache_dir: Path) -> None:
    source = HANDLE.replace(
        "        self._task = asyncio.get_running_loop().create_task(self._serve())\n        self._running = True\n",
        "        self._running = True\n        try:\n            self._task = asyncio.get_running_loop().create_task(self._serve())\n"
        "        except RuntimeError:\n            self._running = False\n            raise\n")
    assert lint({"mod.py": source}, tmp_path, cache_dir) == []
    [(_, _, _, message)] = lint({"mod.py": source}, tmp_path, cache_dir, rejected=True)
    assert "rejected, publication vs rollback: `_running` is published (line 14) before `_task` exists (line 16)" in message


def test_a_move_in_a_helper_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    source = HANDLE.replace("        self._task = asyncio.get_running_loop().create_task(self._serve())\n",
                            "        self._spawn()\n") + \
        "\n    def _spawn(self):\n        self._task = asyncio.get_running_loop().create_task(self._serve())\n"
    [(_, _, confidence, message)] = lint({"mod.py": source}, tmp_path, cache_dir)
    assert confidence == "INFERENCE"
    assert "set together in start(), cleared together in stop(), one of them through _spawn()" in message


def test_a_coroutine_handed_to_create_task_links_nothing(tmp_path: Path, cache_dir: Path) -> None:
    """The flag set inside the task's coroutine says "it has begun", later than the handle exists."""
    source = HANDLE.replace("        await asyncio.sleep(0)\n", "        await asyncio.sleep(1)\n        self._running = True\n")
    source = source.replace("create_task(self._serve())\n        self._running = True\n", "create_task(self._serve())\n")
    assert fired({"late.py": source}, tmp_path, cache_dir) == ["mod.py"]


def test_a_flag_set_where_the_handle_is_only_sometimes_assigned_is_rejected(tmp_path: Path, cache_dir: Path) -> None:
    source = HANDLE.replace("    def start(self):\n        self._task",
                            "    def start(self, now=True):\n        if now:\n            self._task")
    assert lint({"mod.py": source}, tmp_path, cache_dir) == []
    [(_, _, _, message)] = lint({"mod.py": source}, tmp_path, cache_dir, rejected=True)
    assert message.endswith("rejected, unmatched move: `_task` changes at mod.py:15 in start(), inside the `if` at line 14, "
                            "where `_running` does not")


def test_readiness_flag_of_a_field_and_a_base_class_owner(tmp_path: Path, cache_dir: Path) -> None:
    source = """
class Base:
    def __init__(self):
        self.enabled = False

    def is_enabled(self):
        return self.enabled


class Slot(Base):
    def __init__(self):
        super().__init__()
        self.model = None
        self.ready = False
        self._refresh = None

    def load(self):
        self.model = object()
        self.ready = True

    def unload(self):
        self.model = None
        self.ready = False

    def enable(self):
        self._refresh = print
        self.enabled = True

    def serve(self):
        return self.ready and self.enabled
"""
    found = lint({"mod.py": source}, tmp_path, cache_dir, rejected=True)
    assert [(line, confidence) for _, line, confidence, _ in found] == [(13, "INFERENCE"), (26, "UNDEFINED")]
    assert "`ready` is derivable from the field `model`" in found[0][3]
    assert found[0][3].endswith("(public: code outside the repository may read or set it)")  # `ready`, not `_ready`
    assert found[1][3].endswith("rejected, local vs remote ownership: `enabled` belongs to the base class Base, "
                                "whose readers serve every subclass")


def test_two_locks_guarding_the_same_fields_is_high(tmp_path: Path, cache_dir: Path) -> None:
    [(_, line, confidence, message)] = lint({"mod.py": LOCKS}, tmp_path, cache_dir)
    assert (line, confidence) == (8, "HIGH")
    assert message == ("[high] `_b` guards exactly the fields `_a` does (`_free`, `_owner`; taken in allocate(), release(), "
                       "never together): take `_a` and drop `_b`")


def test_locks_the_audit_keeps_apart(tmp_path: Path, cache_dir: Path) -> None:
    nested = LOCKS.replace("            self._owner[block] = rid\n",
                           "            self._owner[block] = rid\n            self.release(block)\n")
    mixed = LOCKS.replace("self._b = threading.Lock()", "self._b = asyncio.Lock()")
    other_fields = LOCKS.replace("            self._owner.pop(block, None)\n", "")
    found = lint({"nested.py": nested, "mixed.py": mixed, "fields.py": other_fields}, tmp_path, cache_dir, rejected=True)
    reasons = {path: message.partition("; rejected, ")[2] for path, _, _, message in found}
    assert reasons == {
        "nested.py": "nested acquisition: both are taken together in allocate() through release(), so their order is the protocol",
        "mixed.py": "different failure boundaries: `_a` is threading's lock, `_b` asyncio's (coroutines of one loop vs threads)",
    }


def test_closed_flag_beside_a_sentinel_is_medium_and_a_producer_guard_rejected(tmp_path: Path, cache_dir: Path) -> None:
    source = """
import queue

_END = object()


class Stream:
    def __init__(self):
        self._q = queue.Queue()
        self._closed = False

    def close(self):
        self._closed = True
        self._q.put(_END)

    def drain(self):
        while True:
            item = self._q.get()
            if item is _END or self._closed:
                return
"""
    guarded = source + "\n    def push(self, item):\n        if not self._closed:\n            self._q.put(item)\n"
    found = lint({"stream.py": source, "guarded.py": guarded}, tmp_path, cache_dir, rejected=True)
    assert [(path, confidence) for path, _, confidence, _ in found] == [("guarded.py", "UNDEFINED"), ("stream.py", "INFERENCE")]
    assert found[1][3] == ("[medium] `_closed` duplicates the `_END` sentinel put on `_q` (both in close(), both checked in "
                           "drain()): stop on the sentinel and drop the flag, unless items queued before it must be dropped")
    assert found[0][3].endswith("rejected, `_closed` is also read in push(), where nothing is got from `_q`: "
                                "a sentinel inside the queue cannot answer there")


def test_a_flag_written_from_another_module_is_rejected(tmp_path: Path, cache_dir: Path) -> None:
    """Local vs remote ownership, through the reference graph: a peer sets the flag on its own message."""
    peer = "from mod import StageLoop\n\n\ndef on_message(loop: StageLoop) -> None:\n    loop._running = True\n"
    assert lint({"mod.py": HANDLE, "peer.py": peer}, tmp_path, cache_dir) == []
    [(_, _, _, message)] = lint({"mod.py": HANDLE, "peer.py": peer}, tmp_path, cache_dir, rejected=True)
    assert message.endswith("rejected, local vs remote ownership: `_running` is also written at peer.py:5, outside the class")


def test_a_handle_written_from_another_module_is_rejected(tmp_path: Path, cache_dir: Path) -> None:
    """The peer drops the task without the flag: the flag's moves no longer match every move of the handle."""
    peer = "from mod import StageLoop\n\n\ndef on_crash(loop: StageLoop) -> None:\n    loop._task = None\n"
    assert lint({"mod.py": HANDLE, "peer.py": peer}, tmp_path, cache_dir) == []
    [(_, _, _, message)] = lint({"mod.py": HANDLE, "peer.py": peer}, tmp_path, cache_dir, rejected=True)
    assert message.endswith("rejected, local vs remote ownership: `_task` is also written at peer.py:5, outside the class")


def test_a_flag_a_subclass_resets_alone_is_rejected(tmp_path: Path, cache_dir: Path) -> None:
    """The subclass's pause() clears the flag and keeps the task: the class's own moves say nothing of it."""
    sub = "from mod import StageLoop\n\n\nclass PausingLoop(StageLoop):\n    def pause(self):\n        self._running = False\n"
    assert lint({"mod.py": HANDLE, "sub.py": sub}, tmp_path, cache_dir) == []
    [(_, _, _, message)] = lint({"mod.py": HANDLE, "sub.py": sub}, tmp_path, cache_dir, rejected=True)
    assert message.endswith("rejected, local vs remote ownership: `_running` is also written by the subclass PausingLoop "
                            "at sub.py:6")


NEGATION = """
import asyncio


class Loop:
    def __init__(self):
        self._sleeping = False
        self._resume = asyncio.Event()
        self._resume.set()

    def sleep(self):
        self._sleeping = True
        self._resume.clear()

    def wake(self):
        self._sleeping = False
        self._resume.set()

    async def pause_point(self):
        await self._resume.wait()
"""


def test_a_flag_negating_an_event_from_init_on_is_high(tmp_path: Path, cache_dir: Path) -> None:
    """The same flag beside an event that starts clear disagrees with it until the first wake(): silent."""
    starts_clear = NEGATION.replace("        self._resume.set()\n\n    def sleep", "\n    def sleep")
    found = lint({"mod.py": NEGATION, "clear.py": starts_clear}, tmp_path, cache_dir, rejected=True)
    assert [(path, line, confidence) for path, line, confidence, _ in found] == [("mod.py", 6, "HIGH")]
    assert found[0][3] == ("[high] `_sleeping` is the negation of `_resume` (set where the event is cleared, cleared where "
                           "it is set: set in sleep(), cleared in wake()): read `not _resume.is_set()` and drop the flag")


def test_a_move_in_a_nested_callback_is_not_the_methods(tmp_path: Path, cache_dir: Path) -> None:
    """The callback sets the flag when it runs, maybe after stop(): not where the handle is assigned."""
    source = HANDLE.replace("        self._running = True\n",
                            "        def started():\n            self._running = True\n        self._task.add_done_callback(started)\n", 1)
    assert fired({"callback.py": source}, tmp_path, cache_dir) == ["mod.py"]


def test_two_locks_taken_in_one_with_statement_are_nested(tmp_path: Path, cache_dir: Path) -> None:
    source = LOCKS.replace("        with self._a:\n", "        with self._a, self._b:\n")
    [(_, _, _, message)] = lint({"mod.py": source}, tmp_path, cache_dir, rejected=True)
    assert message.endswith("rejected, nested acquisition: both are taken together in allocate(), so their order is the protocol")


def test_a_guard_that_skips_only_a_no_op_move_keeps_the_moves_together(tmp_path: Path, cache_dir: Path) -> None:
    """`if self._task is not None: self._task = None` changes nothing when skipped; guarding the other way round
    (`if self._task is not None:` around the assignment of a new task) leaves the flag True with no task: silent."""
    guarded = HANDLE.replace("    def stop(self):\n        self._task = None\n",
                             "    def stop(self):\n        if self._task is not None:\n            self._task = None\n")
    wrong_way = HANDLE.replace("    def start(self):\n        self._task",
                               "    def start(self):\n        if self._task is not None:\n            self._task")
    found = lint({"guarded.py": guarded, "wrong_way.py": wrong_way}, tmp_path, cache_dir, rejected=True)
    assert [(path, confidence) for path, _, confidence, _ in found] == [("guarded.py", "HIGH"), ("wrong_way.py", "UNDEFINED")]
    assert "rejected, unmatched move: `_task` changes at wrong_way.py:15 in start(), inside the `if` at line 14" in found[1][3]


def test_first_terminal_outcome_is_rejected_with_its_reason(tmp_path: Path, cache_dir: Path) -> None:
    source = """
import threading


class Tracker:
    def __init__(self):
        self._done = threading.Event()
        self._finished = False

    def done(self):
        if self._finished:
            return
        self._finished = True
        self._done.set()

    def abort(self):
        if self._finished:
            return
        self._finished = True
"""
    assert lint({"mod.py": source}, tmp_path, cache_dir) == []
    [(_, _, _, message)] = lint({"mod.py": source}, tmp_path, cache_dir, rejected=True)
    assert message == ("[rejected] `_finished` and `_done` look like one state; rejected, first terminal outcome: `_finished` "
                       "is tested and set in abort(), done(), `_done` only in done(): the flag arbitrates which came first")


FIELD_LATER = """
class Comm:
    def __init__(self):
        self.initialized = False

    def initialize(self):
        if self.initialized:
            return
        self.workspace = object()
        self.initialized = True

    def cleanup(self):
        self.workspace = None
        self.initialized = False
"""

FIELD_ON_ONE_BRANCH = """
class Broadcast:
    def __init__(self, readers):
        if readers:
            self.local_socket = object()
        else:
            self.local_socket = None
        self._is_local_reader = False

    def attach(self):
        self.local_socket = object()
        self._is_local_reader = True

    def detach(self):
        self.local_socket = None
        self._is_local_reader = False

    def is_reader(self):
        return self._is_local_reader
"""


def test_a_field_no_init_assigns_is_medium_and_one_init_may_leave_set_is_no_pair(tmp_path: Path, cache_dir: Path) -> None:
    """`workspace` exists only once initialize() runs: `workspace is not None` would raise before, so the fix says to
    assign it in `__init__` first (medium). `local_socket` may be set by `__init__` while the flag starts False (the
    writer side of a broadcast queue): the two disagree from the start, so there is no pair."""
    found = lint({"later.py": FIELD_LATER, "branch.py": FIELD_ON_ONE_BRANCH}, tmp_path, cache_dir, rejected=True)
    assert [(path, line, confidence) for path, line, confidence, _ in found] == [("later.py", 3, "INFERENCE")], found
    assert found[0][3].endswith("assign `workspace = None` in __init__ (no `__init__` does), test `workspace is not None` "
                                "and drop the flag (public: code outside the repository may read or set it)")


MODULE_LOCKS = {
    "pkg/__init__.py": "",
    "pkg/buffers.py": """import asyncio
import threading

_flush_lock = asyncio.Lock()
_io_lock = asyncio.Lock()
_spare = threading.Lock()
_guard = threading.Lock()
shared = asyncio.Lock()
_late = asyncio.Lock()

pending = set()


async def flush(db):
    async with _flush_lock:
        batch = set(pending)
        pending.clear()
    await db.write(batch)


async def write(db):
    async with _io_lock:
        await db.write(1)


def guarded():
    with _guard:
        pending.add(1)


def reset():
    global _late
    _late = asyncio.Lock()


async def late():
    async with _late:
        pending.add(2)
""",
    "pkg/routes.py": """from pkg import buffers
from pkg.buffers import _flush_lock, pending


async def heartbeat(worker):
    async with _flush_lock:
        pending.add(worker)


async def other(db):
    async with buffers.shared:
        pending.add(3)
""",
}


def test_module_locks_that_make_no_one_wait(tmp_path: Path, cache_dir: Path) -> None:
    """A global asyncio lock whose sections never await, here and in the module that imports it, and a global lock
    nobody takes: high. Not judged: one a section awaits under, a thread lock taken by `with`, one reached as
    `buffers.shared` through its module, one rebound by `global` (made again per loop)."""
    found = {(path, line): (confidence, message) for path, line, confidence, message in lint(MODULE_LOCKS, tmp_path, cache_dir)}
    assert set(found) == {("pkg/buffers.py", 4), ("pkg/buffers.py", 6)}, found
    assert found[("pkg/buffers.py", 4)] == ("HIGH", "[high] `_flush_lock` is an asyncio lock whose 2 critical section(s) in "
                                            "flush(), routes.heartbeat() never await: one event loop runs each to its end "
                                            "without interleaving, so it makes no one wait; drop it and its `async with` lines")
    assert found[("pkg/buffers.py", 6)][0] == "HIGH" and "`_spare` is a lock no code takes (created at line 6)" in found[("pkg/buffers.py", 6)][1]


def test_a_flag_the_tests_set_directly_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """The tests drive the flag themselves (`loop._running = True` on a fixture's object, whose class the graph cannot
    tell): it is a switch of the tested interface, and dropping it for the handle rewrites them, so the pair is
    medium and says where."""
    tests = "def test_running(loop):\n    loop._running = True\n    assert loop.is_running()\n"  # a fixture's loop
    [(_, line, confidence, message)] = lint({"mod.py": HANDLE, "tests/test_loop.py": tests}, tmp_path, cache_dir)
    assert (line, confidence) == (8, "INFERENCE")
    assert message.endswith("(the tests set it directly (tests/test_loop.py:2))")


UNWAITED = """
import asyncio


class Runtime:
    def __init__(self):
        self._stop_requested = asyncio.Event()

    def terminate(self):
        self._stop_requested.set()

    async def loop(self):
        while not self._stop_requested.is_set():
            await asyncio.sleep(1)
"""


def test_an_event_the_tests_wait_on_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """aibrix's runtime only sets and tests `_stop_requested`, but its tests `await runtime._stop_requested.wait()`:
    a bool would break them, so the finding is medium and says where."""
    [(_, line, confidence, _)] = lint({"mod.py": UNWAITED}, tmp_path, cache_dir)
    assert (line, confidence) == (6, "HIGH")
    tests = "async def test_stop(runtime):\n    runtime.terminate()\n    await runtime._stop_requested.wait()\n"
    [(_, line, confidence, message)] = lint({"mod.py": UNWAITED, "tests/test_runtime.py": tests}, tmp_path / "with", cache_dir)
    assert (line, confidence) == (6, "INFERENCE") and message.endswith("(the tests wait on it (tests/test_runtime.py:3))")


def test_a_field_that_may_be_assigned_none_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """nemo-rl saves another object's sync function (None when the feature is off) where it sets `_disabled`:
    `_saved is not None` would then read as "not disabled" after the hooks were disabled, so the finding says so
    and is medium; a constructed value (`object()`, `torch.zeros(...)`) is never None and stays high."""
    source = """
class Worker:
    def __init__(self, model):
        self.model = model
        self._saved = None
        self._disabled = False

    def disable(self):
        self._saved = self.model.sync_func
        self._disabled = True

    def enable(self):
        self._saved = None
        self._disabled = False

    def step(self):
        return self._disabled
"""
    [(_, line, confidence, message)] = lint({"mod.py": source}, tmp_path, cache_dir)
    assert (line, confidence) == (5, "INFERENCE")
    assert message.endswith("(`_saved` may hold None: `self.model.sync_func`)")
    built = source.replace("self._saved = self.model.sync_func", "self._saved = object()")
    [(_, line, confidence, _)] = lint({"mod.py": built}, tmp_path / "built", cache_dir)
    assert (line, confidence) == (5, "HIGH")


def test_a_lock_the_tests_take_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """Xinference's tests hold a runtime's asyncio lock to keep a request waiting: dropping the lock rewrites them."""
    source = """
import asyncio


class Runtime:
    def __init__(self):
        self._lock = asyncio.Lock()
        self.routes = {}

    async def route(self, key, value):
        async with self._lock:
            self.routes[key] = value
"""
    [(_, line, confidence, _)] = lint({"mod.py": source}, tmp_path, cache_dir)
    assert (line, confidence) == (6, "HIGH")
    other = "async def test_other(store):\n    async with store._lock:\n        pass\n"  # names no Runtime
    [(_, line, confidence, _)] = lint({"mod.py": source, "tests/test_store.py": other}, tmp_path / "other", cache_dir)
    assert (line, confidence) == (6, "HIGH")
    tests = "from mod import Runtime\n\n\nasync def test_cancel(runtime: Runtime):\n    async with runtime._lock:\n        pass\n"
    [(_, line, confidence, message)] = lint({"mod.py": source, "tests/test_runtime.py": tests}, tmp_path / "with", cache_dir)
    assert (line, confidence) == (6, "INFERENCE") and message.endswith("(the tests take it (tests/test_runtime.py:5))")


NEVER_SET = """
import asyncio


class EventBus:
    def __init__(self):
        self._listen_task = None
        self._queue = asyncio.Queue()

    async def stop(self):
        if self._listen_task:
            self._listen_task.cancel()
            try:
                await self._listen_task
            except asyncio.CancelledError:
                pass
            self._listen_task = None
"""


def test_a_handle_only_ever_none_makes_its_cancel_branch_dead(tmp_path: Path, cache_dir: Path) -> None:
    """gpustack's EventBus cancels and awaits a `_listen_task` nothing ever assigns a task: the branch is dead."""
    [(_, line, confidence, message)] = lint({"mod.py": NEVER_SET}, tmp_path, cache_dir)
    assert (line, confidence) == (6, "HIGH")
    assert message == ("[high] `_listen_task` is only ever None (assigned None at line 6, never a task, thread or "
                       "process): the branches of stop() that cancel, join or wait on it are dead; delete it and them")
    public = NEVER_SET.replace("_listen_task", "listen_task")
    [(_, line, confidence, message)] = lint({"mod.py": public}, tmp_path / "public", cache_dir)
    assert (line, confidence) == (6, "INFERENCE") and message.endswith("(public: code outside the repository may set it)")


def test_a_handle_another_object_or_a_subclass_sets_is_not_never_set(tmp_path: Path, cache_dir: Path) -> None:
    """nemo-rl's algorithms hand a generation its `weight_synchronizer` from outside; a subclass may start the task."""
    starter = "import asyncio\n\n\ndef start(bus):\n    bus._listen_task = asyncio.ensure_future(bus.stop())\n"
    assert lint({"mod.py": NEVER_SET, "starter.py": starter}, tmp_path, cache_dir) == []
    unpacked = NEVER_SET + "\n    def start(self, spawn):\n        self._listen_task, self.url = spawn()\n"
    assert lint({"mod.py": unpacked}, tmp_path / "unpacked", cache_dir) == []  # nemo-rl's `server_thread`
    sub = NEVER_SET + "\n\nclass Listening(EventBus):\n    def start(self):\n        self._listen_task = asyncio.ensure_future(self.stop())\n"
    [(_, line, confidence, message)] = lint({"mod.py": sub}, tmp_path / "sub", cache_dir, rejected=True)
    assert (line, confidence) == (6, "UNDEFINED") and "local vs remote ownership" in message
