"""`lifecycle-mechanism` through real pylint runs: a flag mirroring an Event fires, the protected cases do not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from astroid import nodes
from pylint.lint import Run
from pylint.reporters import JSON2Reporter

from conftest import SAMPLE_REPO, enable_args, run_pylint, write_tree
from pylint_omni.lifecycle import checker as lifecycle_checker
from pylint_omni.lifecycle.mechanisms import Mechanism, class_mechanisms

HEADER = "import threading\n\n\n"
MIRROR = HEADER + """class Client:
    def __init__(self):
        self._ready = threading.Event()
        self._started = False

    def start(self):
        self._ready.set()
        self._started = True

    def stop(self):
        self._ready.clear()
        self._started = False

    def wait_started(self, timeout):
        return self._ready.wait(timeout)
"""


def lint(source: str, tmp_path: Path, cache_dir: Path, *extra: str) -> list[tuple[int, str, str]]:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'case'\n")
    (tmp_path / "mod.py").write_text(source)
    _, findings, stderr = run_pylint([*enable_args(["lifecycle-mechanism"]), *extra, "mod.py"], cwd=tmp_path, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return [(f.line, f.confidence, f.message) for f in findings]


def test_flag_mirroring_event_is_high(tmp_path: Path, cache_dir: Path) -> None:
    [(line, confidence, message)] = lint(MIRROR, tmp_path, cache_dir)
    assert (line, confidence) == (7, "HIGH")
    assert "`_started` mirrors `_ready` (set together in start(), cleared together in stop())" in message
    assert message.endswith("read `_ready.is_set()` and drop the flag")


def test_cleanup_after_partial_failure_is_rejected(tmp_path: Path, cache_dir: Path) -> None:
    source = MIRROR.replace("        self._ready.clear()\n        self._started = False\n",
                            "        try:\n            self._ready.clear()\n        finally:\n            self._started = False\n")
    assert lint(source, tmp_path, cache_dir) == []
    [(_, confidence, message)] = lint(source, tmp_path, cache_dir, "--omni-include-rejected=y")
    assert (confidence, message[:10]) == ("UNDEFINED", "[rejected]")


def test_first_terminal_outcome_is_silent(tmp_path: Path, cache_dir: Path) -> None:
    source = MIRROR + "\n    def abort(self):\n        self._started = True\n"
    assert lint(source, tmp_path, cache_dir) == []


def test_remote_ownership_is_silent(tmp_path: Path, cache_dir: Path) -> None:
    """The flag is set where another process's message arrives, the event where this side starts."""
    source = MIRROR.replace("        self._ready.set()\n        self._started = True\n", "        self._ready.set()\n") + \
        "\n    def on_message(self, msg):\n        self._started = True\n"
    assert lint(source, tmp_path, cache_dir) == []


def test_explain_prints_the_ownership_table(tmp_path: Path) -> None:
    env = {**os.environ, "PYLINT_OMNI_CACHE_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "pylint_omni", "explain", "EngineClient"], cwd=SAMPLE_REPO,
                          capture_output=True, text=True, env=env, timeout=300)
    assert "    _started | flag | __init__:13 | start:22 | __init__:13, stop:33 | running:38 | -\n" in proc.stdout
    assert "    _thread | handle | __init__:15 | start:18 | __init__:15, stop:35 | start:25 | -\n" in proc.stdout


def test_explain_leaves_plain_fields_out_and_shows_joins_and_terminations(tmp_path: Path) -> None:
    env = {**os.environ, "PYLINT_OMNI_CACHE_DIR": str(tmp_path)}
    tables = {name: subprocess.run([sys.executable, "-m", "pylint_omni", "explain", name], cwd=SAMPLE_REPO,
                                   capture_output=True, text=True, env=env, timeout=300).stdout
              for name in ("StageLauncher", "ModelSlot")}
    launcher = tables["StageLauncher"]
    assert "    _proc | handle | __init__:64 | launch:70 | __init__:64, shutdown:79 | shutdown:77 | shutdown:78\n" in launcher
    assert "    model | handle | __init__:17 | load:21 | __init__:17, unload:25 | - | -\n" in tables["ModelSlot"]
    assert "    name |" not in tables["ModelSlot"]  # set once in __init__: configuration, not a lifecycle


def test_explain_shows_where_each_lock_is_taken(tmp_path: Path) -> None:
    env = {**os.environ, "PYLINT_OMNI_CACHE_DIR": str(tmp_path)}
    table = subprocess.run([sys.executable, "-m", "pylint_omni", "explain", "BlockLedger"], cwd=SAMPLE_REPO,
                           capture_output=True, text=True, env=env, timeout=300).stdout
    assert "    _alloc_lock | lock | __init__:13 | allocate:19 | - | - | -\n" in table
    assert "    _free_lock | lock | __init__:14 | release:25 | - | - | -\n" in table


def test_explain_marks_a_wait_bounded_by_a_timeout(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'case'\n")
    (tmp_path / "mod.py").write_text(HEADER + """class Pump:
    def __init__(self):
        self._thread = None
        self._stopped = threading.Event()

    def start(self):
        self._thread = threading.Thread(target=print)

    def stop(self):
        self._stopped.set()
        self._thread.join(timeout=5)
        self._thread = None
""")
    env = {**os.environ, "PYLINT_OMNI_CACHE_DIR": str(tmp_path / "cache")}
    table = subprocess.run([sys.executable, "-m", "pylint_omni", "explain", "Pump"], cwd=tmp_path,
                           capture_output=True, text=True, env=env, timeout=300).stdout
    assert "    _thread | handle | __init__:6 | start:10 | __init__:6, stop:15 | stop:14 (timeout) | -\n" in table
    assert "    _stopped | event | __init__:7 | stop:13 | - | - | -\n" in table


def test_explain_shows_a_task_group_and_an_event_subclass(tmp_path: Path) -> None:
    """A collection the class adds running tasks to is a task group, aborted where a loop cancels each one; an
    event built by a class of the module on `asyncio.Event` is an event."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'case'\n")
    (tmp_path / "mod.py").write_text("""import asyncio


class CountedEvent(asyncio.Event):
    pass


class Loop:
    def __init__(self):
        self.tasks = set()
        self.ticked = CountedEvent()

    def start(self, loop):
        self.tasks.add(loop.create_task(self.run()))

    async def run(self):
        await self.ticked.wait()

    def cancel(self):
        for task in self.tasks:
            task.cancel()
        self.tasks.clear()
""")
    env = {**os.environ, "PYLINT_OMNI_CACHE_DIR": str(tmp_path / "cache")}
    table = subprocess.run([sys.executable, "-m", "pylint_omni", "explain", "Loop"], cwd=tmp_path,
                           capture_output=True, text=True, env=env, timeout=300).stdout
    assert "    tasks | tasks | __init__:10 | start:14 | cancel:22 | cancel:20 | cancel:21\n" in table
    assert "    ticked | event | __init__:11 | - | - | run:17 | -\n" in table


IDLE_LOCKS = """import asyncio
import threading


class Worker:
    def __init__(self):
        self._lock = asyncio.Lock()
        self._stats_lock = asyncio.Lock()
        self._io_lock = asyncio.Lock()
        self._guard = threading.Lock()
        self.stats = {}
        self.items = []

    async def record(self, key):
        async with self._stats_lock:
            self.stats[key] = self.stats.get(key, 0) + 1

    async def reset(self):
        async with self._stats_lock:
            self.stats.clear()

    async def fetch(self, client):
        async with self._io_lock:
            self.items.append(await client.get())

    def add(self, item):
        with self._guard:
            self.items.append(item)


def with_lock(method):
    async def wrapper(self, *args):
        async with self._update_lock:
            return await method(self, *args)
    return wrapper


class Mesh:
    def __init__(self):
        self._update_lock = asyncio.Lock()

    @with_lock
    async def update(self, peers):
        return await peers.rebuild()


class Registry:
    def _get_lock(self):
        lock = getattr(self, "_registry_lock", None)
        if lock is None:
            lock = self._registry_lock = asyncio.Lock()
        return lock

    async def run(self, op):
        async with self._get_lock():
            return await op()
"""


def test_a_lock_no_code_takes_and_an_asyncio_lock_over_sections_that_never_await_make_no_one_wait(
        tmp_path: Path, cache_dir: Path) -> None:
    """`_lock` is never taken; `_stats_lock` guards two await-free sections (the loop runs each to its end);
    `_io_lock` guards an `await` and `_guard` is a thread lock: both protect something; a lock made lazily and
    returned by a getter is taken through the getter, and one a module decorator's wrapper takes is taken."""
    found = {line: (confidence, message) for line, confidence, message in lint(IDLE_LOCKS, tmp_path, cache_dir)}
    assert set(found) == {7, 8}, found
    assert found[7][0] == "HIGH" and "`_lock` is a lock no code takes" in found[7][1]
    assert found[8][0] == "HIGH" and "2 critical section(s) in record(), reset() never await" in found[8][1]


def test_a_warm_run_replays_the_findings_without_judging_a_class_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker visits classes only (no `visit_module`), yet its modules start through the memo: a second
    run of an unchanged project replays the finding and never maps a class's mechanisms again."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'case'\n")
    (tmp_path / "mod.py").write_text(MIRROR)
    monkeypatch.setenv("PYLINT_OMNI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    mapped: list[str] = []

    def counted(node: nodes.ClassDef) -> dict[str, Mechanism]:
        mapped.append(node.name)
        return class_mechanisms(node)

    monkeypatch.setattr(lifecycle_checker, "class_mechanisms", counted)

    def run() -> list[tuple[int, str]]:
        out = StringIO()
        Run(["--load-plugins=pylint_omni", "--persistent=n", *enable_args(["lifecycle-mechanism"]), "mod.py"], reporter=JSON2Reporter(out), exit=False)
        return [(m["line"], m["messageId"]) for m in json.loads(out.getvalue())["messages"]]

    first = run()
    assert first == [(7, "R7312")] and mapped == ["Client"]
    assert run() == first
    assert mapped == ["Client"]  # the warm run judged nothing


UNWAITED = """import asyncio
import threading


class Server:
    def __init__(self):
        self._shutdown = asyncio.Event()
        self._paused = threading.Event()
        self._stop = threading.Event()
        self._handed = threading.Event()
        self.ready = threading.Event()
        self._unset = asyncio.Event()

    async def serve(self):
        while not self._shutdown.is_set():
            await asyncio.sleep(0.1)

    def shutdown(self):
        self._shutdown.set()
        self._paused.set()
        self.ready.clear()

    def resume(self):
        if self._paused.is_set():
            self._paused.clear()

    def join(self):
        self._stop.wait()

    def start(self):
        threading.Thread(target=print, args=(self._handed,)).start()
        self._handed.set()
        self.ready.set()

    def is_ready(self):
        return self.ready.is_set() and not self._unset.is_set()


class Client:
    def __init__(self):
        self._shutdown = asyncio.Event()

    async def wait_closed(self):
        await self._shutdown.wait()
"""


def test_an_event_nothing_waits_on_is_a_bool(tmp_path: Path, cache_dir: Path) -> None:
    """`_shutdown` and `_paused` are only set, cleared or tested: high for the asyncio one, medium for the threading
    one (a stop flag threads share is that library's idiom); `_stop` is waited on and `_handed` goes to a
    thread: silent; the public `ready` may be waited on by code outside the repository: medium. An event only set
    (the sample's `RequestRouter._drained`) or only tested (`_unset`) is another message's. `Client._shutdown`, waited on, is
    another class's own attribute of the same name: it does not hand `Server._shutdown` on."""
    found = {line: (confidence, message) for line, confidence, message in lint(UNWAITED, tmp_path, cache_dir)}
    assert set(found) == {7, 8, 11}, found
    assert found[7][0] == "HIGH" and found[7][1].startswith(
        "[high] `_shutdown` is an Event no code waits on (only set, cleared or tested, in serve(), shutdown())")
    assert found[8][0] == "INFERENCE" and "in resume(), shutdown()" in found[8][1]
    assert found[8][1].endswith("make it a bool flag (a stop flag threads share is threading's idiom; a bool's reads and writes are atomic under the GIL)")
    assert found[11][0] == "INFERENCE" and "make it a bool flag" in found[11][1]


def test_a_lock_an_upstream_base_takes_is_not_idle_and_one_beside_an_unread_base_is_medium(
        tmp_path: Path, cache_dir: Path) -> None:
    """A subclass of an upstream engine creates the `_pause_cond` the engine's own methods take (its index says so):
    silent. The same lock in a subclass of a base no index reads is medium, naming the base."""
    write_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'case'\n", "upstream/engine/__init__.py": """
        class AsyncLLM:
            async def pause(self):
                async with self._pause_cond:
                    self.paused = True
    """, "pkg/__init__.py": "", "pkg/omni.py": """
        import asyncio

        from engine import AsyncLLM
        from elsewhere import Server


        class OmniLLM(AsyncLLM):
            def __init__(self):
                self._pause_cond = asyncio.Condition()


        class OmniServer(Server):
            def __init__(self):
                self._pause_cond = asyncio.Condition()
    """})
    _, findings, stderr = run_pylint([*enable_args(["lifecycle-mechanism"]), "--omni-upstream-paths=upstream",
                                      "--omni-exclude-globs=upstream/**", "pkg"], cwd=tmp_path, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    assert [(f.line, f.confidence) for f in findings] == [(14, "INFERENCE")], findings
    assert findings[0].message.endswith("delete it (unless its base elsewhere.Server, which no upstream index reads, uses it)")


def test_a_flag_mirroring_an_event_nothing_waits_on_keeps_the_flag(tmp_path: Path, cache_dir: Path) -> None:
    """The event is only set, cleared and tested: dropping the flag would leave an Event that wakes no one (the next
    run's finding), so the one finding says to keep the flag and drop the event, at the event."""
    source = MIRROR.replace("    def wait_started(self, timeout):\n        return self._ready.wait(timeout)\n",
                            "    def ready(self):\n        return self._ready.is_set()\n")
    [(line, confidence, message)] = lint(source, tmp_path, cache_dir)
    assert (line, confidence) == (6, "HIGH")
    assert message.endswith("`_started` mirrors `_ready` (set together in start(), cleared together in stop()); nothing "
                            "waits on `_ready`: keep the flag and drop the event")
