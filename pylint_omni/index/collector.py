"""The cyclic garbage collector during a run: the index's facts and the findings memo kept out of its walks.

They are hundreds of thousands of objects that live for the whole run, and pylint's
own tree building triggers collections that would walk them every time (a third of a
warm run's time on a 1,000-module tree). `keep_out` moves every object alive now to
the collector's permanent generation (`gc.freeze`); when pylint's `check` ends
(`during_run`) they go back. Outside a run (a reporter reading the index after it)
nothing is frozen; forked `-j N` workers start inside the run. While a cache or
the cold scan's entries are decoded, no collection runs at all (`no_collections`).

During a run, and in the processes this plugin forks beside one (`for_side_process`), a
young collection runs every 20,000 new objects instead of 700: astroid builds a tree
per module and pylint keeps them all, so the default threshold collected thousands of
times (7 of the 21 CPU-s of pylint's own floor on `vllm_ascend`, 491 modules; 1.1 s so,
peak memory unchanged). mypy raises its threshold for the same reason.

A run that froze also flushes pylint's report files at exit (`atexit`): pylint leaves
closing them to the collector's last pass, and after a freeze that pass no longer
flushes them (a multi-reporter's `text:FILE` output ended empty). After any run,
everything is frozen again at exit: that last pass would otherwise walk every object
the run left only to free memory the system takes back anyway (3 s of a vLLM-Ascend
run).
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

YOUNG_THRESHOLD = 20_000
_open_runs = 0
_threshold_before: list[tuple[int, ...]] = []
_froze = False
_exit_registered: list[bool] = []


@contextmanager
def during_run(linter: Any) -> Iterator[None]:
    """Around pylint's `check`: young collections every 20,000 new objects; when it ends, the collector's
    threshold is the one before and what `keep_out` froze goes back to the collector."""
    global _open_runs, _froze  # pylint: disable=global-statement  # one state per process, like the collector's
    if not _open_runs:
        _threshold_before.append(gc.get_threshold())
        gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    _open_runs += 1
    try:
        yield
    finally:
        _open_runs -= 1
        if not _open_runs:
            gc.set_threshold(*_threshold_before.pop())
        if not _exit_registered:
            _exit_registered.append(True)
            atexit.register(_skip_last_collection)
        if not _open_runs and _froze:
            gc.unfreeze()
            _froze = False
            atexit.register(_flush_reports, linter)


@contextmanager
def no_collections() -> Iterator[None]:
    """No collection while a decoder builds a document (JSON or a pickle of plain data holds no cycle):
    each one triggered by its allocations would walk all it has built so far (a third of reading the index)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def for_side_process() -> None:
    """The collector of a process forked beside a run (a scan worker, the cold scan's child, a split helper): what
    it inherited goes out of its walks, and a young collection runs every 20,000 new objects, as in the run. A scan
    builds and drops a syntax tree per file, which the default threshold collected thousands of times (4.6 of
    33 CPU-s of vLLM-Ascend's scan, 1.1 s so)."""
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])


def keep_out() -> None:
    """Keep every object alive now out of the collector's walks until the run ends (no-op outside a run)."""
    global _froze  # pylint: disable=global-statement
    if _open_runs:
        gc.freeze()
        _froze = True


def _skip_last_collection() -> None:
    """At exit, everything alive goes out of the interpreter's last collection, which would walk all the run
    left (the index, pylint's trees: seconds on a 1,000-module tree) only to free memory the system takes back."""
    gc.freeze()


def _flush_reports(linter: Any) -> None:
    reporter = linter.reporter
    for each in getattr(reporter, "_sub_reporters", None) or [reporter]:
        out = getattr(each, "out", None)
        if out is not None and not getattr(out, "closed", True):
            out.flush()
