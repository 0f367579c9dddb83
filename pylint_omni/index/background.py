"""Project judgements that run beside pylint's own tree building in a cold run.

In a cold `-j 1` run pylint builds its trees on one core while the index scan takes
the other (`scan_pool`). When the scan ends first, that core sits idle until the
main process reaches its first module and judges the whole project there. A family
whose project-wide judgement follows from the index alone and is kept in a disk
store (the copy groups and their verdicts) registers it here; then one child process
scans, hands the entries to the main process, builds its own copy of the index from
them and runs the judgement, which writes its store. The main process waits for the
child where it first needs the judgement (`ProjectIndex.await_background`) and reads
the store as a warm run would, instead of computing it after pylint's build.

The store is the only channel back. A child that fails or is killed leaves no store,
or one whose key does not match the index, and the main process computes the
judgement itself: the findings are the same, only later.

A judgement that needs nothing the child writes and keeps no store (the reachability
analysis, the readers of options) registers to run in the main process instead
(`in_child=False`): the main process computes it while it waits for the child
(`ProjectIndex.await_background`), so that both cores judge at once.
"""

from __future__ import annotations

import atexit
import functools
import multiprocessing
import pickle
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Callable

from pylint_omni.index.collector import no_collections
from pylint_omni.index.scan_pool import Job, PendingScan, become_side_process, worth_a_pool

if TYPE_CHECKING:
    from pylint_omni.index.project_index import ProjectIndex

Judgement = Callable[["ProjectIndex"], None]  # computes a project judgement and writes its store
Entries = list[dict[str, Any]]


@dataclass(frozen=True)
class _Registered:
    symbols: frozenset[str]  # the messages the judgement serves: run it only when one is enabled
    judge: Callable[..., None]
    in_child: bool  # False: the main process computes it while it waits for the child
    per_messages: bool = False  # the judgement takes the enabled ones of `symbols` too (`enabled=`)


_REGISTERED: dict[str, _Registered] = {}
_LIVE: set[BackgroundScan] = set()


def register_background_judgement(key: str, judge: Callable[..., None], symbols: frozenset[str], in_child: bool = True,
                                  per_messages: bool = False) -> None:
    """Run `judge` in a cold scan's child process (or, `in_child` false, in the main process while it waits for that
    child) when one of `symbols` is enabled (see the module docstring); `per_messages`: it is called with
    `enabled=` the enabled ones of `symbols` (a judgement that depends on which messages a run emits)."""
    _REGISTERED[key] = _Registered(symbols, judge, in_child, per_messages)


def judgements_for(enabled: Callable[[str], bool], in_child: bool = True) -> list[Judgement]:
    """The registered judgements of the child (or of the waiting main process) some enabled message needs, in a fixed order."""
    found: list[Judgement] = []
    for _, item in sorted(_REGISTERED.items()):
        wanted = frozenset(s for s in item.symbols if enabled(s))
        if item.in_child is in_child and wanted:
            found.append(functools.partial(item.judge, enabled=wanted) if item.per_messages else item.judge)
    return found


def judge_each(index: ProjectIndex, judgements: list[Judgement]) -> None:
    """Run each judgement ahead of the checkers; one that fails is judged again where a checker asks, which says why."""
    for judge in judgements:
        try:
            judge(index)
        except Exception:  # pylint: disable=broad-exception-caught
            pass


def start_scan(jobs: list[Job], judgements: list[Judgement], then: Callable[[Entries], None]) -> PendingScan | BackgroundScan:
    """A scan of `jobs`: with judgements to run and a scan big enough for a pool, in a child that then calls
    `then(entries)` (which builds that child's index and runs the judgements); otherwise a plain `PendingScan`."""
    if judgements and worth_a_pool(jobs):
        return BackgroundScan(jobs, then)
    return PendingScan(jobs)


class BackgroundScan:
    """The scan, then `then(entries)`, in one child process. `entries()` is `PendingScan`'s; `settle()` waits for the rest."""

    def __init__(self, jobs: list[Job], then: Callable[[Entries], None]) -> None:
        self._jobs = jobs
        context = multiprocessing.get_context("fork")
        self._receiver, sender = context.Pipe(duplex=False)
        self._process: multiprocessing.process.BaseProcess | None = context.Process(
            target=_child, args=(jobs, sender, then), name="pylint-omni-index")
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
                    return pickle.loads(data)
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
            self._process.terminate()
        self.settle()

    def _forget(self) -> None:
        self._process = None
        self._receiver.close()
        _LIVE.discard(self)


def _child(jobs: list[Job], sender: Connection, then: Callable[[Entries], None]) -> None:
    become_side_process()  # its pool, forked from it, writes nowhere either
    entries = PendingScan(jobs).entries()
    data = pickle.dumps(entries, pickle.HIGHEST_PROTOCOL)
    # The parent reads the entries after its own build: send them from a thread and judge meanwhile.
    handing = threading.Thread(target=_send, args=(sender, data), daemon=True)
    handing.start()
    try:
        then(entries)
    except Exception:  # pylint: disable=broad-exception-caught  # the parent computes it again and says why
        pass
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
