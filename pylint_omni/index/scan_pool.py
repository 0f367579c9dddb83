"""Scanning many files at once: the cold index build, spread over the machine's cores.

A cold build parses every file of the project; the work is per file and
independent, so it is mapped over a process pool when there is enough of it. Any
failure to start the pool (a daemon process, no fork, limits) falls back to
scanning in this process: the result is the same, only slower.

A cold scan that has project judgements to run beside pylint's build
(`index.background`) runs in one child process instead (`BackgroundScan`), which
scans (with its own pool), hands the entries back, then judges. A child that fails
or is killed costs time, never a result: the main process scans or judges itself.
"""

from __future__ import annotations

import atexit
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable, Iterator

from pylint_omni.index.collector import for_side_process, no_collections
from pylint_omni.index.discovery import SourceFile, content_digest, read_text
from pylint_omni.index.scan.data_scan import InputProblem
from pylint_omni.index.scan.dispatch import scan_file

PARALLEL_MIN_FILES = 200
MAX_WORKERS = 4
WORKER_NICENESS = 10
MAX_SAVE_WAIT_S = 10.0  # how long stopping a child waits for it to save the entries it handed over
PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent ends
Job = tuple[str, SourceFile, str, int, bool | None]  # root, file, module name, size cap, audited (`scanners.python_scanners`)
Entries = list[dict[str, Any]]


def scan_entry(job: Job) -> dict[str, Any]:
    """The cache entry of one file: its stat, module name and facts (or the problem)."""
    root, f, module, max_bytes, audited = job
    entry: dict[str, Any] = {"size": f.size, "mtime": f.mtime_ns, "module": module, "kind": f.kind}
    try:
        text = read_text(Path(root) / f.relpath, max_bytes)
        entry["digest"] = content_digest(text)
        entry["facts"] = scan_file(f.kind, text, f.relpath, module, audited)
    except InputProblem as exc:
        entry["problem"] = str(exc)
        entry["facts"] = {"kind": f.kind, "refs": {}}
    return entry


def yield_to_caller(niceness: int = WORKER_NICENESS) -> None:
    """A worker's start: a lower priority (by `niceness`) than the process that started the pool, which meanwhile
    builds pylint's own trees (the scan soaks up the spare core instead of slowing that build down); fewer
    collections (`collector.for_side_process`); and an end with that process (a pool whose owner was
    stopped must not linger, holding its caller's output pipes)."""
    for_side_process()
    try:
        os.nice(niceness)
    except (OSError, AttributeError):  # pragma: no cover - not permitted, or no os.nice: same result, slower
        pass
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # pragma: no cover - not Linux: a stopped owner's workers end when their queue does
        pass


def become_side_process(niceness: int = WORKER_NICENESS) -> None:
    """The start of a process forked beside a run (a cold scan's child, a split run's helper): it writes nothing to
    the caller's output nor keeps its pipes open (a caller reading pylint's output to the end would wait for it too;
    the parent's buffered output, flushed when this process ends, goes nowhere), and it yields to the caller (by
    `niceness`: none for a process the caller waits for)."""
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    os.close(quiet)
    yield_to_caller(niceness)


def usable_cores() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return min(MAX_WORKERS, cores)


def worth_a_pool(jobs: list[Job]) -> bool:
    """Enough files to scan, a core to spare, and a process allowed to start others."""
    return worth_other_processes(len(jobs))


def worth_other_processes(files: int) -> bool:
    """`worth_a_pool` for a scan of `files` files."""
    return files >= PARALLEL_MIN_FILES and usable_cores() > 1 and not multiprocessing.current_process().daemon


class PendingScan:
    """A scan started now and collected later: a cold build overlaps pylint's own astroid build.

    The jobs go to a process pool as soon as the scan is started (when there are
    enough of them and cores to spare); `entries()` waits for them. A pool that
    cannot start or breaks falls back to scanning in this process at `entries()`.
    """

    def __init__(self, jobs: list[Job]) -> None:
        self._jobs = jobs
        self._pool: ProcessPoolExecutor | None = None
        self._results: Iterator[dict[str, Any]] | None = None
        workers = usable_cores()
        if worth_a_pool(jobs):
            try:
                self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                                                 initializer=yield_to_caller)
                # `map` submits every job at once; the results are read in order later.
                self._results = self._pool.map(scan_entry, jobs, chunksize=max(8, len(jobs) // (workers * 8)))
            except (OSError, ValueError, RuntimeError, BrokenProcessPool):
                self._close()

    def entries(self) -> list[dict[str, Any]]:
        """Entries for the jobs, in order (waits for the pool; scans here when there is none), their strings shared."""
        entries = list(self.stream())
        share_strings(entries)
        return entries

    def stream(self) -> Iterator[dict[str, Any]]:
        """Entries for the jobs, in order, each as soon as it is ready: a caller that keeps only part of each
        never holds them all. A pool that breaks midway hands the rest over scanned here."""
        done = 0
        if self._results is not None:
            try:
                for entry in self._results:
                    done += 1
                    yield entry
            except (OSError, RuntimeError, BrokenProcessPool):
                pass  # scan the rest here instead
            finally:
                self._close()
        for job in self._jobs[done:]:
            yield scan_entry(job)

    def _close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None
        self._results = None


def share_strings(facts: list[Any]) -> None:
    """Make equal strings of `facts`, keys and values, one object (`sys.intern`), in place.

    Each file's facts come from its own scan (in another process), so the names every
    file repeats (`torch`, `__init__`, a via tag, a dotted import) are separate copies:
    over a third of a big project's index, and one pickle of shared strings (the cold
    scan's hand-over) stores and rebuilds each once. About 0.35 s for 2,000 files.
    """
    intern = sys.intern
    pending: list[dict[str, Any] | list[Any]] = [facts]
    while pending:
        container = pending.pop()
        items = container.items() if isinstance(container, dict) else enumerate(container)
        for key, value in items:  # assigning to a key the container has already: no resize while iterating
            kind = type(value)
            if kind is str:
                container[key] = intern(value)  # type: ignore[index]
            elif kind is dict:
                value = container[key] = {intern(name): item for name, item in value.items()}  # type: ignore[index]
                pending.append(value)
            elif kind is list:
                pending.append(value)


def stream_entries(jobs: list[Job]) -> Iterator[dict[str, Any]]:
    """Entries for `jobs`, in order, one at a time (`PendingScan.stream`)."""
    return PendingScan(jobs).stream()


Then = Callable[[Entries, Callable[[], None]], None]  # in the child: (entries, kept) -> None; it calls kept() once it saved them


def start_scan(jobs: list[Job], then: Then | None) -> PendingScan | BackgroundScan:
    """A scan of `jobs`: with something to do `then` with its entries and a scan big enough for a pool, in a child
    that calls `then(entries, kept)` once it has handed them over (it saves them, calls `kept()`, builds that child's
    index and judges); otherwise a plain `PendingScan`."""
    if then is not None and worth_a_pool(jobs):
        return BackgroundScan(jobs, then)
    return PendingScan(jobs)


_LIVE: set[BackgroundScan] = set()


class BackgroundScan:
    """The scan, then `then(entries, kept)`, in one child process. `entries()` is `PendingScan`'s; `settle()` waits
    for the rest."""

    def __init__(self, jobs: list[Job], then: Then) -> None:
        self._jobs = jobs
        self.handed_over = False  # the entries came from the child (which then saves the index's cache), not a rescan
        context = multiprocessing.get_context("fork")
        self._kept = context.Event()  # set by the child once the entries are saved: a cancel waits for that much
        self._receiver, sender = context.Pipe(duplex=False)
        self._process: multiprocessing.process.BaseProcess | None = context.Process(
            target=_child, args=(jobs, sender, then, self._kept.set), name="pylint-omni-index")
        try:
            self._process.start()
            _LIVE.add(self)
        except (OSError, ValueError, RuntimeError):
            self._process = None
        sender.close()

    def entries(self) -> Entries:
        """Entries for the jobs, in order (waits for the child's scan; scans here when the child failed)."""
        if self._process is not None:
            try:
                data = self._receiver.recv_bytes()
                with no_collections():
                    entries: Entries = pickle.loads(data)
                self.handed_over = True
                return entries
            except (EOFError, OSError, pickle.UnpicklingError):
                self.cancel()
        return PendingScan(self._jobs).entries()

    def settle(self) -> None:
        """Wait for the child's judgements: their stores are written (or the child failed)."""
        if self._process is not None:
            self._process.join()
        self._forget()

    def cancel(self) -> None:
        """Stop the child (a run that no longer needs its judgements)."""
        if self._process is not None and self._process.is_alive():
            if self.handed_over:
                self._kept.wait(MAX_SAVE_WAIT_S)  # the next run's index must not be cold for a judgement nobody asked for
            self._process.terminate()
        self.settle()

    def _forget(self) -> None:
        self._process = None
        self._receiver.close()
        _LIVE.discard(self)


def _child(jobs: list[Job], sender: Connection, then: Then, kept: Callable[[], None]) -> None:
    become_side_process()  # its pool, forked from it, writes nowhere either
    entries = PendingScan(jobs).entries()
    data = pickle.dumps(entries, pickle.HIGHEST_PROTOCOL)
    # The parent reads the entries after its own build: send them from a thread and judge meanwhile.
    handing = threading.Thread(target=_send, args=(sender, data), daemon=True)
    handing.start()
    try:
        then(entries, kept)
    except Exception:  # pylint: disable=broad-exception-caught  # the parent computes it again and says why
        pass
    kept()  # also when `then` failed before it saved: nobody waits for a save that will not come
    handing.join()


def _send(sender: Connection, data: bytes) -> None:
    try:
        sender.send_bytes(data)
    except OSError:  # the parent stopped listening (it scans itself or has ended)
        pass


@atexit.register
def _stop_children() -> None:
    """A run that ends before it asked for a judgement does not wait for it (multiprocessing joins its children at exit)."""
    for scan in list(_LIVE):
        scan.cancel()
