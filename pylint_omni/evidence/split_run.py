"""A `-j 1` run that visits every module again: a second process takes the last ones.

When the findings memo misses (a cold run, or any file changed), every module is
visited again on one core, while the other core has nothing left to do once the
index and the project judgements are ready. At the first module a checker has to
visit, the main process forks one helper. The fork shares pylint's trees, the index
and every project judgement. The helper visits the linted project modules from the
last one backwards, with this plugin's checkers only, capturing what each would emit
as the memo does (`evidence.memo`), and sends each module's findings as it finishes
it. At each module the main process takes what has arrived; a module the helper has
done is replayed as a warm run replays the memo. The two meet in the middle, and the
memo is then saved whole.

A checker whose findings in a module may depend on the modules visited before it
(`any_order` false) stays in the main process, which visits it in every module.

The helper gives nothing to the run but those findings: pylint's reporter is
replaced by a collecting one, it writes no finding record and no memo, and its
output goes to /dev/null. A helper that fails, or has not reached a module yet,
costs only duplicated work: the main process visits whatever has not arrived. It is
stopped when the run ends.

Only the main process of a `-j 1` run with a core to spare and enough modules
forks one, never an editor run (one module) nor a `-j N` worker.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import pickle
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

import astroid
from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.reporters import CollectingReporter
from pylint.utils import ASTWalker, FileState

from pylint_omni.evidence.findings import stop_writing_records
from pylint_omni.evidence.memo import FindingsMemo
from pylint_omni.index.background import judgements_for
from pylint_omni.index.collector import keep_out
from pylint_omni.index.live import TRACE_ENV
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan_pool import become_side_process, usable_cores

if TYPE_CHECKING:  # hints only
    from pylint.lint import PyLinter

MIN_MODULES = 40  # fewer modules to share: forking costs more than it saves
Sections = dict[str, list[Any]]  # checker class name -> one module's encoded findings


class _Run:
    """What the main process knows of this run's split: its targets, and the helper once started."""

    def __init__(self) -> None:
        self.targets: tuple[str, ...] = ()  # absolute paths of the files and folders pylint lints
        self.started = False
        self.process: multiprocessing.process.BaseProcess | None = None
        self.receiver: Connection | None = None
        self.in_helper = False
        self.adopted = 0  # modules the helper has done, taken into the memo


_RUN = _Run()


def note_targets(files_or_modules: Sequence[str]) -> None:
    """A new run linting these files or folders (module names that are not paths leave the run unsplit)."""
    stop_helper()
    _RUN.targets = tuple(os.path.abspath(t) for t in files_or_modules if os.path.exists(t))
    if len(_RUN.targets) != len(files_or_modules):
        _RUN.targets = ()
    _RUN.started = False


def _linted(module: nodes.Module) -> bool:
    path = module.file
    return bool(path) and module.file_bytes is None and any(
        path == target or path.startswith(target + os.sep) for target in _RUN.targets)


def start_helper(linter: PyLinter, index: ProjectIndex, memo: FindingsMemo, first: nodes.Module,
                 shares: Callable[[BaseChecker], bool]) -> None:
    """Fork the helper at the run's first module that must be visited (once per run, main process only);
    the helper visits with the checkers `shares` picks (the base checker says which: this module never imports it)."""
    if _RUN.started or _RUN.in_helper or not _RUN.targets or linter.config.jobs != 1 or usable_cores() < 2:
        return
    _RUN.started = True
    modules = [m for m in astroid.MANAGER.astroid_cache.values()
               if m is not first and _linted(m) and index.relpath(m.file or "") in index.entries]
    if len(modules) < MIN_MODULES:
        return
    _judge_first(linter, index)
    keep_out()  # what lives now stays out of the collector's walks: the helper's collector copies none of it
    checkers = [c for c in linter.prepare_checkers() if shares(c)]
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_helper, args=(linter, checkers, index, memo, modules[::-1], sender),
                              name="pylint-omni-split")
    try:
        process.start()
    except (OSError, ValueError, RuntimeError):
        receiver.close()
        return
    finally:
        sender.close()
    _RUN.process, _RUN.receiver, _RUN.adopted = process, receiver, 0


def _judge_first(linter: PyLinter, index: ProjectIndex) -> None:
    """Every project judgement an enabled message needs, so that the helper forks with them (not each process once)."""
    index.await_background()
    index.judge([*judgements_for(linter.is_message_enabled), *judgements_for(linter.is_message_enabled, in_child=False)])


def collect(memo: FindingsMemo) -> None:
    """Add the modules the helper has finished to the memo, without waiting."""
    receiver = _RUN.receiver
    if receiver is None:
        return
    try:
        while receiver.poll():
            relpath, sections = pickle.loads(receiver.recv_bytes())
            memo.adopt(relpath, sections)
            _RUN.adopted += 1
    except (EOFError, OSError, pickle.UnpicklingError):  # the helper has ended (done, or failed): the rest is visited here
        receiver.close()
        _RUN.receiver = None


def stop_helper() -> None:
    """Stop the helper (the run has visited every module)."""
    if _RUN.process is None:
        return
    if _RUN.process.is_alive():
        _RUN.process.kill()
    _RUN.process.join()
    if _RUN.receiver is not None:
        _RUN.receiver.close()
    _RUN.process, _RUN.receiver = None, None
    trace = os.environ.get(TRACE_ENV)
    if trace:
        with open(trace, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()} split {_RUN.adopted}\n")


atexit.register(stop_helper)


def _helper(linter: PyLinter, checkers: list[BaseChecker], index: ProjectIndex, memo: FindingsMemo,
            modules: Iterable[nodes.Module], sender: Connection) -> None:
    become_side_process()
    _RUN.in_helper = True
    _RUN.receiver = None
    stop_writing_records()
    linter.set_reporter(CollectingReporter())
    walker = ASTWalker(linter)
    for checker in checkers:
        walker.add_checker(checker)
    for module in modules:
        try:
            sections = _visit(linter, walker, index, memo, module)
        except Exception:  # pylint: disable=broad-exception-caught  # the main process visits it and says why
            continue
        if sections is not None:
            try:
                sender.send_bytes(pickle.dumps(sections, pickle.HIGHEST_PROTOCOL))
            except OSError:  # the main process has ended
                return


def _visit(linter: PyLinter, walker: ASTWalker, index: ProjectIndex, memo: FindingsMemo,
           module: nodes.Module) -> tuple[str, Sections] | None:
    """One module as pylint's `_lint_file` visits it, with only this plugin's checkers.

    Its pragmas are not read (tokenizing was a third of the helper's time): what a
    visit captures comes before any pragma, which the main process applies as it
    replays; a `# pylint: skip-file` module is captured too and never replayed.
    """
    relpath = index.relpath(module.file or "")
    if relpath is None:
        return None
    linter.set_current_module(module.name, module.file)
    linter.file_state = FileState(module.name, linter.msgs_store, module)
    walker.walk(module)
    return relpath, memo.captured_in(relpath)
