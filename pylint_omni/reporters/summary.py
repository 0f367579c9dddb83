"""The run's summary on stderr: one short block, once per run, after pylint's own output.

What a new user needs after a run on a large tree, on one screen: how many findings of
each message at each confidence, how much was indexed (all project roots together),
which upstream packages the project imports but the run could not read (and what that
weakens), and where the audit report is (or how to get one). Printed by the main
process once its reports are written (`-j N` workers never write reports), never for
an editor's buffer (`--from-stdin`), and only when a pylint-omni message is enabled.

It formats what the run already knows (pylint's messages, the indexes, the
reporters); it decides nothing.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pylint.lint import PyLinter
from pylint.message import Message

from pylint_omni.evidence.wording import missing_submodules, missing_upstreams, shadowed_modules, unlinted_folders
from pylint_omni.index.live import get_index, take_builds
from pylint_omni.index.scan.data_scan import InputProblem
from pylint_omni.index.run_options import RunOptions
from pylint_omni.options import project_roots
from pylint_omni.reporters.adoption import linted_relpaths
from pylint_omni.reporters.markdown import MarkdownReporter

OMNI = "73"  # the checker id of every pylint-omni message
ANNOUNCE_MIN_SCANNED = 50  # a run that read fewer files found the index warm: nothing to say about it
LEVELS = {"HIGH": "high", "INFERENCE": "medium", "UNDEFINED": "rejected"}
REPORT_HINT = "the audit report: python -m pylint_omni report -o audit.md (or --output-format=omni-report:audit.md)"
MAX_UNLINTED_SHOWN = 3  # folders pylint skipped named in the summary (the report lists them all)


@dataclass
class Counts:
    """The pylint-omni messages a run printed: by symbol and confidence, and the unreadable-input notes."""

    by_symbol: dict[str, dict[str, int]] = field(default_factory=dict)
    notes: int = 0
    files: set[str] = field(default_factory=set)  # the Python files linted (pylint's stats also count pseudo-modules)

    def add(self, msg: Message) -> None:
        if msg.msg_id[1:3] != OMNI:
            return
        if msg.msg_id.startswith("I"):
            self.notes += 1
            return
        row = self.by_symbol.setdefault(msg.symbol, {"high": 0, "medium": 0, "rejected": 0})
        row[LEVELS.get(msg.confidence.name, "medium")] += 1

    def total(self, level: str) -> int:
        return sum(row[level] for row in self.by_symbol.values())


def summary_lines(counts: Counts, modules: int, indexed: list[str], missing: list[tuple[str, str]], report: str) -> list[str]:
    """The block, line by line (pure: the tests read it)."""
    high, medium, rejected = counts.total("high"), counts.total("medium"), counts.total("rejected")
    found = high + medium
    head = (f"pylint-omni: {found} finding{'s' if found != 1 else ''} in {modules} module{'s' if modules != 1 else ''}: "
            f"{high} high, {medium} medium" if found else f"pylint-omni: no findings in {modules} module{'s' if modules != 1 else ''}")
    lines = [head + (f" ({rejected} rejected ideas shown)" if rejected else "")]
    width = max((len(symbol) for symbol in counts.by_symbol), default=0)
    for symbol, row in sorted(counts.by_symbol.items(), key=lambda item: (-item[1]["high"], -item[1]["medium"], item[0])):
        shown = [f"{row[level]:>4} {level}" for level in ("high", "medium", "rejected") if row[level] or level != "rejected"]
        lines.append(f"  {symbol:<{width}} " + " ".join(shown))
    if counts.notes:
        lines.append(f"  {counts.notes} note(s) on project files the index could not read (omni-unreadable-input/-inputs)")
    lines += [f"  {line}" for line in indexed]
    lines += [f"  {what}: {weakens}" if what.startswith("not linted") else f"  not indexed: {what}: {weakens}" for what, weakens in missing]
    lines.append(f"  {report}")
    return lines


def report_line(linter: PyLinter) -> str:
    """Where the Markdown audit report went this run, or how to get one."""
    reporters = getattr(linter.reporter, "_sub_reporters", None) or [linter.reporter]
    for reporter in reporters:
        if isinstance(reporter, MarkdownReporter):
            name = getattr(reporter.out, "name", "")
            return "report: on stdout, above" if not name or name.startswith("<") else f"report: {name}"
    return REPORT_HINT


def _indexed(builds: dict[Path, Any]) -> list[str]:
    scanned = sum(stats.scanned for stats in builds.values())
    if scanned < ANNOUNCE_MIN_SCANNED:
        return []
    seconds = sum(stats.seconds for stats in builds.values())
    where = str(next(iter(builds))) if len(builds) == 1 else f"{len(builds)} project roots"
    return [f"indexed {scanned} files of {where} in {seconds:.1f} s; later runs reuse the cache"]


def _missing(linter: PyLinter, linted_files: set[str]) -> list[tuple[str, str]]:
    """(what, the line after it) for each upstream package and git submodule no index could read, and each
    folder of Python files this run did not lint."""
    found: dict[str, str] = {}
    run = RunOptions.of(linter.config)
    for root in project_roots(linter.config):
        try:
            index = get_index(root, run.for_root(root))
        except (InputProblem, OSError):
            continue  # the report says why; the summary has nothing to add
        for name, weakens in missing_upstreams(index):
            found.setdefault(f"{name} (imported, but not installed here nor in omni-upstream-paths)", weakens)
        for path, weakens in missing_submodules(index):
            found.setdefault(f"git submodule {path} (not checked out)", weakens)
        for folder, weakens in unlinted_folders(index, linted_relpaths(linted_files, root))[:MAX_UNLINTED_SHOWN]:
            found.setdefault(f"not linted: {folder}", weakens)
        for path, why in shadowed_modules(index):
            found.setdefault(f"shadowed: {path}", why)
    return sorted(found.items())


@dataclass
class RunSummary:
    """The counts of the run under way (`install` wires it into a linter)."""

    active: bool = False
    counts: Counts = field(default_factory=Counts)
    _restore: Callable[[], None] | None = None

    def start(self, linter: PyLinter) -> None:
        symbols = [d.symbol for d in linter.msgs_store.messages if d.msgid[1:3] == OMNI]
        self.active = not linter.config.from_stdin and any(linter.is_message_enabled(s) for s in symbols)
        self.counts = Counts()
        if not self.active:
            return
        reporter = linter.reporter
        handle, current = reporter.handle_message, reporter.on_set_current_module

        def counting(msg: Message) -> None:
            self.counts.add(msg)
            handle(msg)

        def linting(module: str, filepath: str | None) -> None:
            if filepath and filepath.endswith(".py"):
                self.counts.files.add(filepath)
            current(module, filepath)
        reporter.handle_message = counting  # type: ignore[method-assign]
        reporter.on_set_current_module = linting  # type: ignore[method-assign]

        def restore() -> None:
            reporter.handle_message, reporter.on_set_current_module = handle, current  # type: ignore[method-assign]
        self._restore = restore

    def finish(self, linter: PyLinter) -> None:
        if self._restore is not None:
            self._restore()
            self._restore = None
        builds = take_builds()  # taken by every run (an editor's too): the next run says only its own
        if not self.active:
            return
        self.active = False
        lines = summary_lines(self.counts, len(self.counts.files), _indexed(builds), _missing(linter, self.counts.files),
                              report_line(linter))
        print("\n".join(lines), file=sys.stderr, flush=True)


def install(linter: PyLinter) -> None:
    """Count this linter's messages from the start of each run and print the summary after its reports."""
    summary = RunSummary()
    checking, reporting = linter.check, linter.generate_reports

    def check(files_or_modules: Any) -> None:
        summary.start(linter)
        checking(files_or_modules)

    def generate_reports(verbose: bool = False) -> int | None:
        score = reporting(verbose=verbose)
        summary.finish(linter)
        return score

    linter.check = check  # type: ignore[method-assign]
    linter.generate_reports = generate_reports  # type: ignore[method-assign]
