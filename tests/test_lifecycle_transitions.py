"""`lifecycle-mechanism`'s mirror rule holds at every transition, through real pylint runs: a flag that moves
together with an Event in some place but alone in another is no mirror. Each shape was a wrong finding when
the rule was read per method; now it is a rejected idea naming the move without a partner."""

from __future__ import annotations

from pathlib import Path

from conftest import enable_args, run_pylint, write_tree

HEADER = "import threading\n\n\nclass Worker:\n    def __init__(self):\n        self._ready = threading.Event()\n" \
    "        self._started = False\n"
STOP = "\n    def stop(self):\n        self._ready.clear()\n        self._started = False\n"

# 1. A flag reset alone on purpose: a pause drops the flag, the event stays set for the waiters.
RESET_ALONE = HEADER + """
    def serve(self, inbox):
        self._ready.set()
        self._started = True
        while True:
            item = inbox.get()
            if item is None:
                self._ready.clear()
                self._started = False
                return
            if item == "pause":
                self._started = False
"""

# 2. A flag set under a stricter condition than the event: on one branch of the `if` only.
ONE_BRANCH = HEADER + """
    def start(self, warm):
        if warm:
            self._ready.set()
            self._started = True
        else:
            self._ready.set()
""" + STOP

# 3. A flag set only on the overflow path (an early-return guard), the event on the normal path too.
OVERFLOW = HEADER.replace("_started", "_overflow") + """
    def feed(self, buffer, item):
        if len(buffer) >= 8:
            self._overflow = True
            self._ready.set()
            return
        buffer.append(item)
        self._ready.set()

    def drain(self):
        self._ready.clear()
        self._overflow = False
"""


def lint(files: dict[str, str], tmp_path: Path, cache_dir: Path, rejected: bool = False) -> list[tuple[str, str, str]]:
    write_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'case'\n", **files})
    extra = ["--omni-include-rejected=y"] if rejected else []
    _, findings, stderr = run_pylint([*enable_args(["lifecycle-mechanism"]), *extra, *files], cwd=tmp_path, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return [(f.path, f.confidence, f.message.partition("; rejected, ")[2]) for f in findings]


def test_each_move_without_a_partner_is_a_rejected_idea_naming_it(tmp_path: Path, cache_dir: Path) -> None:
    files = {"reset.py": RESET_ALONE, "branch.py": ONE_BRANCH, "overflow.py": OVERFLOW}
    assert lint(files, tmp_path, cache_dir) == []
    assert lint(files, tmp_path, cache_dir, rejected=True) == [
        ("branch.py", "UNDEFINED", "unmatched move: `_ready` changes at branch.py:14 in start(), in the `else` of the "
                                   "`if` at line 10, where `_started` does not"),
        ("overflow.py", "UNDEFINED", "unmatched move: `_ready` changes at overflow.py:15 in feed(), where `_overflow` does not"),
        ("reset.py", "UNDEFINED", "unmatched move: `_started` changes at reset.py:19 in serve(), inside the `if` at "
                                  "line 18, where `_ready` does not"),
    ]


def test_moves_together_in_both_branches_and_in_a_handler_are_a_mirror(tmp_path: Path, cache_dir: Path) -> None:
    """The rule is no stricter than the state: both set on each branch, both cleared in one `finally`."""
    both = ONE_BRANCH.replace("        else:\n            self._ready.set()\n",
                              "        else:\n            self._ready.set()\n            self._started = True\n")
    handled = HEADER + """
    def start(self):
        self._ready.set()
        self._started = True

    def stop(self, hook):
        try:
            hook()
        finally:
            self._ready.clear()
            self._started = False
"""
    found = lint({"both.py": both, "handled.py": handled}, tmp_path, cache_dir, rejected=True)
    assert [(path, confidence) for path, confidence, _ in found] == [("both.py", "HIGH"), ("handled.py", "HIGH")]


HELPER = HEADER + """
    def start(self):
        self._started = True
        self._launch()

    def _launch(self):
        self._ready.set()

    def retry(self):
        self._launch()
""" + STOP


def test_a_helper_called_where_the_flag_does_not_move_is_no_partner(tmp_path: Path, cache_dir: Path) -> None:
    """`_launch()` sets the event for start() and for retry(); only start() sets the flag."""
    matched = HELPER.replace("    def retry(self):\n        self._launch()\n", "")
    found = lint({"helper.py": HELPER, "matched.py": matched}, tmp_path, cache_dir, rejected=True)
    assert found == [
        ("helper.py", "UNDEFINED", "unmatched move: `_ready` changes at helper.py:14 in _launch(), where `_started` does not"),
        ("matched.py", "INFERENCE", ""),
    ]


def test_a_move_through_a_local_name_for_the_event_counts(tmp_path: Path, cache_dir: Path) -> None:
    """`ready = self._ready; ready.clear()` clears the event where the flag stays set: no mirror."""
    aliased = HEADER + """
    def start(self):
        self._ready.set()
        self._started = True

    def pause(self):
        ready = self._ready
        ready.clear()
""" + STOP
    assert lint({"alias.py": aliased}, tmp_path, cache_dir, rejected=True) == [
        ("alias.py", "UNDEFINED", "unmatched move: `_ready` changes at alias.py:15 in pause(), where `_started` does not"),
    ]


ARBITER = """
import asyncio


class Request:
    def __init__(self):
        self._done = asyncio.Event()
        self._finished = False

    async def finish(self, flush):
        if self._finished:
            return
        self._finished = True
        await flush()
        self._done.set()

    def reset(self):
        self._finished = False
        self._done.clear()
"""


def test_an_await_between_the_two_moves_keeps_them_apart(tmp_path: Path, cache_dir: Path) -> None:
    """A second finish() running during the flush must see `_finished` set and `_done` not yet: the flag
    arbitrates the first terminal outcome. Without the await the two are one state."""
    at_once = ARBITER.replace("        await flush()\n        self._done.set()\n", "        self._done.set()\n        await flush()\n")
    found = lint({"arbiter.py": ARBITER, "at_once.py": at_once}, tmp_path, cache_dir, rejected=True)
    assert found == [
        ("arbiter.py", "UNDEFINED", "split by a suspension: `_finished` changes at arbiter.py:12 in finish() and `_done` "
                                    "only across the await at line 13, where another coroutine sees them disagree (the "
                                    "first to change may arbitrate the first terminal outcome)"),
        ("at_once.py", "HIGH", ""),
    ]


STREAM = """
import queue

_END = object()


class Stream:
    def __init__(self):
        self._q = queue.Queue()
        self._closed = False

    def close(self):
        self._closed = True
        self._q.put(_END)

    def reopen(self):
        self._closed = False

    def drain(self):
        while True:
            item = self._q.get()
            if item is _END or self._closed:
                return
"""


def test_a_closed_flag_cleared_to_reopen_is_no_sentinel(tmp_path: Path, cache_dir: Path) -> None:
    """The sentinel already queued cannot be taken back when reopen() clears the flag."""
    assert lint({"stream.py": STREAM}, tmp_path, cache_dir, rejected=True) == [
        ("stream.py", "UNDEFINED", "unmatched move: `_closed` changes at stream.py:16 in reopen(), where `_q.put(_END)` does not"),
    ]


def test_an_event_made_anew_outside_init_is_a_clear(tmp_path: Path, cache_dir: Path) -> None:
    """rearm() replaces the event with a fresh one, clear, while the flag stays set."""
    rearmed = HEADER + """
    def start(self):
        self._ready.set()
        self._started = True

    def rearm(self):
        self._ready = threading.Event()
""" + STOP
    assert lint({"rearm.py": rearmed}, tmp_path, cache_dir, rejected=True) == [
        ("rearm.py", "UNDEFINED", "unmatched move: `_ready` changes at rearm.py:14 in rearm(), where `_started` does not"),
    ]


ENGINE = """
import torch


class Engine:
    def __init__(self):
        self.send_buf = None
        self._prepared = False

    def prepare(self, size):
        if self._prepared:
            return
        self.send_buf = torch.zeros(size)
        self._start_server()
        self._prepared = True

    def finalize(self):
        self.send_buf = None
        self._prepared = False

    def _start_server(self):
        raise OSError
"""


def test_a_call_that_may_fail_between_the_two_moves_keeps_them_apart(tmp_path: Path, cache_dir: Path) -> None:
    """`send_buf` is allocated, then the server starts (it may raise), then `_prepared` is set: after a failure the
    buffer exists and the engine is not prepared, so the flag marks completion. With the call elsewhere the two are
    one state again."""
    moved = ENGINE.replace("        self._start_server()\n        self._prepared = True\n",
                           "        self._prepared = True\n        self._start_server()\n")
    found = lint({"engine.py": ENGINE, "moved.py": moved}, tmp_path, cache_dir, rejected=True)
    assert found == [
        ("engine.py", "UNDEFINED", "split by a call that may fail: `send_buf` changes at engine.py:12 in prepare() and "
                                   "`_prepared` only after the call at line 13; a failure there leaves them apart "
                                   "(cleanup after partial failure: the later one marks completion)"),
        ("moved.py", "HIGH", ""),
    ]
