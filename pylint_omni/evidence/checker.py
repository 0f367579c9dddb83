"""What every pylint-omni checker shares: its settings, the project index, and emission.

A checker asks `index_for(module)` for the project index and the module's
root-relative path. Under `--from-stdin` the buffer's text replaces that file in the
index, so project-wide facts stay right for the text being edited. Findings are
emitted at visit time, at the node, so `# pylint: disable=` and `-j N` just work.

Every visit and leave method of a checker goes through the findings memo
(`evidence.memo`): when the project is exactly as in an earlier run, a module's
findings are replayed through `emit` (pragmas, the keep list and the baseline apply
as ever) and the checker's own visits of that module are skipped. When it is not, a
`-j 1` run forks a helper that visits the last modules (`evidence.split_run`), and
the modules it has done are replayed the same way.
"""

from __future__ import annotations

import datetime
import functools
import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, ClassVar, Sequence

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.lint import parallel

from pylint_omni.evidence.wording import confidence_tagged, searched_summary
from pylint_omni.evidence.benefit import Benefit, BenefitKind, Heat
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.baseline import BaselineError, load_baseline
from pylint_omni.evidence.findings import FindingDetails, build_record, recording_findings, write_record
from pylint_omni.evidence.heat import heat_of, hottest
from pylint_omni.evidence.identity import fallback_subject, finding_id
from pylint_omni.evidence.keep import KeepList, keep_list
from pylint_omni.evidence.anchors import anchor_of, anchored
from pylint_omni.evidence.memo import Planned, memo_of, outside_state, save_memos
from pylint_omni.evidence.provenance import copied_code, with_provenance
from pylint_omni.evidence.split_run import collect, start_helper, stop_helper
from pylint_omni.index.live import begin_run, get_index
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.run_options import RunOptions
from pylint_omni.index.paths import Location, find_project_root
from pylint_omni.index.settings import OmniSettings


Visit = Callable[[Any, nodes.NodeNG], None]
# Which high-confidence change deletes the code at (relpath, first, last), for the messages enabled: its id, or "".
Absorber = Callable[[ProjectIndex, str, int, int, frozenset[str]], str]


def _starting(visit_module: Visit) -> Visit:
    """A checker's `visit_module`, unless the memo replays the module."""
    @functools.wraps(visit_module)
    def starting(self: OmniChecker, node: nodes.Module) -> None:
        if not self.replayed(node):
            visit_module(self, node)
    return starting


def _skipped_on_replay(visit: Visit) -> Visit:
    """Any other visit or leave method: nothing to do in a replayed module."""
    @functools.wraps(visit)
    def guarded(self: OmniChecker, node: nodes.NodeNG) -> None:
        if not self._replaying:  # pylint: disable=protected-access
            visit(self, node)
    return guarded


class OmniChecker(BaseChecker):
    """Base of the pylint-omni checkers.

    They all share the checker name `pylint-omni`, so `--enable=pylint-omni` turns on
    every message of the plugin and the options live in one `[tool.pylint.pylint-omni]`.
    """

    name = "pylint-omni"
    _run: RunOptions | None = None
    _base: OmniSettings | None = None
    _run_pid: int | None = None  # in a pylint -j worker: the process whose run has begun
    _by_root: dict[Path, OmniSettings]
    _ordinals: dict[tuple[str, str], int]  # (relpath, id of the first such finding) -> findings so far
    _keeps: dict[Path, KeepList]  # the keep list of each project root, read once per run
    _relpaths: dict[str, str]  # a linted file -> its root-relative path (asked for every finding)
    _root_of_folder: dict[str, Path]
    memoised = True  # its findings follow from the project's files and the settings alone (see `replayed`)
    any_order = True  # a module's findings do not depend on the modules visited before it (`evidence.split_run`)
    _replaying = False
    _captured: list[Planned] | None = None
    _enabled: frozenset[str] = frozenset()
    # Set by the plugin (`pylint_omni.changes`): a finding inside code a high-confidence change deletes is listed in
    # that change, not emitted. Injected, so that this shared base never reaches up into the stage above it.
    absorber: ClassVar[Absorber | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.memoised:
            return
        for name, member in list(vars(cls).items()):
            if name == "visit_module":
                setattr(cls, name, _starting(member))
            elif name.startswith(("visit_", "leave_")) and callable(member):
                setattr(cls, name, _skipped_on_replay(member))
        if not any("visit_module" in vars(klass) for klass in cls.__mro__):
            # A checker that only visits classes or calls still starts each module through the memo: without
            # this its findings would be judged again, change plan and all, on every warm run.
            cls.visit_module = _starting(lambda self, node: None)  # type: ignore[method-assign]

    def __eq__(self, other: object) -> bool:
        """pylint's equality (same name, same messages) without formatting both message tables: pylint sorts
        its checkers, comparing them so, for every file a `-j N` worker lints."""
        return isinstance(other, BaseChecker) and self.name == other.name and self.msgs == other.msgs

    __hash__ = BaseChecker.__hash__

    def replayed(self, node: nodes.Module) -> bool:
        """Start a module: replay its findings when the memo has them (True), else capture what it finds."""
        self._replaying, self._captured = False, None
        found = self.index_for(node) if self.memoised else None
        if found is None:
            return False
        index, relpath = found
        settings = self.settings_for(node.file)
        memo = memo_of(index, lambda: [
            repr(settings), *outside_state(settings, index.root), str(recording_findings()),
            ",".join(sorted(d.symbol for d in self.linter.msgs_store.messages
                            if d.msgid[1:3] == "73" and self.linter.is_message_enabled(d.symbol)))])
        collect(memo)
        planned = memo.planned(type(self).__name__, relpath)
        if planned is None:
            start_helper(self.linter, index, memo, node, _shared_with_helper)
            self._captured = memo.capture(type(self).__name__, relpath)
            return False
        self._replaying = True
        for finding in planned:
            target = anchored(node, finding.line, finding.anchor)
            if target is not None:
                self.emit(finding.symbol, target, finding.verdict, finding.args, finding.details, absorbable=False)
        return True

    def close(self) -> None:
        """The end of a run: keep what it found for the next (not in a `-j N` worker, which pylint closes per file)."""
        if parallel._worker_linter is not self.linter:  # pylint: disable=protected-access
            stop_helper()
            save_memos()

    def open(self) -> None:
        """Start a run, once per run whatever pylint calls per file.

        pylint's `-j N` workers call `open()` before every file they lint; each worker
        process is one run (its pool lives for one `check`), so only its first
        `open()` starts one, from the indexes the parent refreshed for it. Elsewhere (`-j 1`, an editor's long-lived process) every
        `open()` is a new run: files may have changed since the last.
        """
        worker = parallel._worker_linter is self.linter  # pylint: disable=protected-access
        if worker:
            if self._run_pid == os.getpid():
                return
            self._run_pid = os.getpid()
        begin_run(worker)
        self._start_run()

    def _start_run(self) -> None:
        self._run = RunOptions.of(self.linter.config)
        self._base = self._run.base()
        self._by_root = {}
        self._ordinals = {}
        self._keeps = {}
        self._relpaths = {}
        self._root_of_folder = {}  # folder -> its project root, for this run (every module of a folder asks)
        self._enabled = frozenset(d.symbol for d in self.linter.msgs_store.messages
                                  if d.msgid[1:3] == "73" and self.linter.is_message_enabled(d.symbol))

    @property
    def enabled_symbols(self) -> frozenset[str]:
        """The pylint-omni messages this run emits (a change set is folded from the enabled ones only)."""
        if self._run is None:
            self._start_run()
        return self._enabled

    def settings_for(self, path: str | None) -> OmniSettings:
        """The settings of the project that holds `path` (its own pyproject.toml, then the command line)."""
        if self._run is None or self._base is None:
            self._start_run()
        assert self._run is not None and self._base is not None
        root = self._base.root
        if root is None:
            folder = os.path.dirname(os.path.abspath(path)) if path else os.getcwd()
            root = self._root_of_folder.get(folder)
            if root is None:
                root = self._root_of_folder[folder] = find_project_root(path or Path.cwd())
        found = self._by_root.get(root)
        if found is None:
            found = self._by_root[root] = self._run.for_root(root)
        return found

    @property
    def settings(self) -> OmniSettings:
        """The settings of the module being checked."""
        return self.settings_for(self.linter.current_file)

    def index_for(self, module: nodes.Module) -> tuple[ProjectIndex, str] | None:
        """The index of the module's project and the module's path in it (None: not a file)."""
        if not module.file or not module.file.endswith((".py", ".pyi")):
            return None
        settings = self.settings_for(module.file)
        assert settings.root is not None  # for_root always names it
        index = get_index(settings.root, settings)
        relpath = index.relpath(module.file)
        if relpath is None:
            return None
        if module.file_bytes is not None:  # --from-stdin: the editor buffer wins
            text = module.file_bytes.decode("utf-8") if isinstance(module.file_bytes, bytes) else str(module.file_bytes)
            index.override(relpath, text)
        return index, relpath

    def audited_index_for(self, module: nodes.Module) -> tuple[ProjectIndex, str] | None:
        """`index_for`, but None for a validation file too (tests, examples, benchmarks are not audited)."""
        found = self.index_for(module)
        return found if found is not None and found[0].location(found[1]) is not Location.VALIDATION else None

    def _in_copied_code(
        self, node: nodes.NodeNG, verdict: Verdict, args: tuple[Any, ...], details: FindingDetails | None,
    ) -> tuple[Verdict, tuple[Any, ...]]:
        """A candidate inside code the file says is copied from a third party: named so, and a micro one lowered.

        The message says where the code comes from; a verdict lowered to medium is
        also corrected in the text (families word the confidence into it).
        """
        found = self.index_for(node.root())
        provenance = copied_code(found[0], found[1], node.fromlineno or 0) if found is not None else None
        if provenance is None:
            return verdict, args
        verdict, lowered = with_provenance(verdict, details.benefit if details else None, provenance)
        if args and isinstance(args[-1], str):
            text = args[-1].replace("Confidence high", "Confidence medium", 1) if lowered else args[-1]
            args = (*args[:-1], f"{text.rstrip()} [in code {provenance.describe()}]")
        return verdict, args

    def emit(
        self,
        symbol: str,
        node: nodes.NodeNG,
        verdict: Verdict,
        args: tuple[Any, ...],
        details: FindingDetails | None = None,
        heat_sites: Sequence[nodes.NodeNG] = (),
        absorbable: bool = True,
    ) -> None:
        """Emit a candidate (or, when asked, a rejected finding) and record it for the report.

        Rejected findings are always recorded (the report lists them as rejected ideas)
        but emitted as messages only with `omni-include-rejected`. A finding silenced by
        a `# pylint: disable=` pragma is not recorded either. Checkers that give no
        `details` still get a record (evidence, owner, validation) for the report.
        A candidate the keep list keeps, or whose id the baseline knows, is recorded as
        kept or known and not emitted. The benefit's heat, unless the checker set it, is
        the hottest of `heat_sites` (default: the node), read only when a report asks
        for records. A candidate inside code that a high-confidence change deletes
        (`absorbable`: any finding a change-set stage did not plan) is recorded as taken
        in by that change and not emitted.
        """
        if verdict.status is Status.LIVE:
            return
        if absorbable and verdict.status is Status.CANDIDATE:
            details = self._taken_in(node, details, message_args=args)
        if self._captured is not None:
            self._captured.append(self._planned(symbol, node, verdict, args, details, heat_sites))
        if verdict.status is Status.CANDIDATE:
            verdict, args = self._in_copied_code(node, verdict, args, details)
        settings = self.settings_for(node.root().file)
        message = self.msgs[self.linter.msgs_store.get_message_definitions(symbol)[0].msgid][0] % args
        identity = self._identity(symbol, node, message, details, settings)
        held = self._held(symbol, identity, settings, details) if verdict.status is Status.CANDIDATE else None
        if recording_findings() and self.linter.is_message_enabled(symbol, node.fromlineno):
            found = self.index_for(node.root())  # the index is only built when a report asks
            if found is not None:
                index, relpath = found
                if details is not None and details.benefit.heat is Heat.UNKNOWN and not details.benefit.heat_reason:
                    reading = hottest([heat_of(site, index, relpath) for site in heat_sites or (node,)])
                    details = replace(details, benefit=details.benefit.with_heat(reading.heat, reading.reason))
                # pylint puts a message on a module at line 1 (a module's fromlineno is 0): the record must match it.
                line = node.fromlineno or (1 if isinstance(node, nodes.Module) else 0)
                write_record(build_record(index, relpath, symbol, line, node.col_offset or 0, verdict, message,
                                          details, searched_summary(index), identity, held))
        if held is not None or (details is not None and details.within) or (
                verdict.status is Status.REJECTED and not settings.include_rejected):
            return
        if args and isinstance(args[-1], str):
            args = (*args[:-1], confidence_tagged(args[-1], verdict))
        self.add_message(symbol, node=node, args=args, confidence=verdict.pylint_confidence)

    def _taken_in(self, node: nodes.NodeNG, details: FindingDetails | None, message_args: tuple[Any, ...]) -> FindingDetails | None:
        """The details marked `within` the change that deletes the node's code, if one does (see `emit`)."""
        absorber = type(self).absorber
        if absorber is None or (details is not None and details.within):
            return details
        found = self.index_for(node.root())
        if found is None:
            return details
        first = node.fromlineno or 0
        within = absorber(found[0], found[1], first, getattr(node, "end_lineno", None) or first, self.enabled_symbols)
        if not within:
            return details
        if details is None:
            text = str(message_args[-1]) if message_args else ""
            details = FindingDetails([f"{found[1]}:{first} {text}"], "", Benefit(0, BenefitKind.API, ""), "")
        return replace(details, within=within)

    def _planned(self, symbol: str, node: nodes.NodeNG, verdict: Verdict, args: tuple[Any, ...],
                 details: FindingDetails | None, heat_sites: Sequence[nodes.NodeNG]) -> Planned:
        """What replaying this finding needs; its heat read now, while the sites are at hand, when a report asks."""
        if recording_findings() and details is not None and heat_sites and details.benefit.heat is Heat.UNKNOWN \
                and not details.benefit.heat_reason:
            found = self.index_for(node.root())
            if found is not None:
                reading = hottest([heat_of(site, found[0], found[1]) for site in heat_sites])
                details = replace(details, benefit=details.benefit.with_heat(reading.heat, reading.reason))
        line, anchor = anchor_of(node)
        return Planned(symbol, line, anchor, tuple(str(a) for a in args), verdict, details)

    def _identity(self, symbol: str, node: nodes.NodeNG, message: str, details: FindingDetails | None,
                  settings: OmniSettings) -> tuple[str, str]:
        """(finding id, subject); the ordinal tells apart equal findings of one file."""
        file = node.root().file or ""
        relpath = self._relpaths.get(file)
        if relpath is None:
            prefix = f"{settings.root}{os.sep}"
            relpath = file[len(prefix):] if file.startswith(prefix) else os.path.relpath(file, settings.root) if file else file
            relpath = self._relpaths[file] = relpath.replace(os.sep, "/")
        subject = details.subject if details is not None and details.subject else fallback_subject(
            relpath, details.surface if details is not None else [], message)
        kind = details.kind if details is not None else ""
        first = finding_id(symbol, subject, kind)
        ordinal = self._ordinals[(relpath, first)] = self._ordinals.get((relpath, first), 0) + 1
        return finding_id(symbol, subject, kind, ordinal), subject

    def _held(self, symbol: str, identity: tuple[str, str], settings: OmniSettings,
              details: FindingDetails | None = None) -> tuple[str, str | None] | None:
        """("kept", why) for a finding the keep list keeps, ("known", None) for one in the baseline, else None.

        A change set is held when it is, or when every member is: a baseline or keep list written with one
        message per member (`omni-granularity=member`, or before change sets) still holds its members' change.
        """
        finding, subject = identity
        members = details.members if details is not None else ()
        if settings.root is not None:
            keep = self._keeps.get(settings.root)
            if keep is None:
                keep = self._keeps[settings.root] = keep_list(settings.root)
            entry = keep.match(symbol, subject, finding)
            if entry is None and members:
                entries = [keep.match(m.symbol, m.subject, m.id) for m in members]
                entry = entries[0] if all(entries) else None
            if entry is not None and not entry.expired(datetime.date.today()):
                return "kept", f"{entry.reason} ({entry.where})"
        if settings.baseline is not None:
            try:
                known = load_baseline(settings.baseline)
            except BaselineError:
                return None  # refused before linting started; a file removed since is no baseline
            if finding in known or (members and all(m.id in known for m in members)):
                return "known", None
        return None


def _shared_with_helper(checker: BaseChecker) -> bool:
    """Whether a split run's helper visits with this checker (`evidence.split_run`): ours, memoised, any order."""
    return isinstance(checker, OmniChecker) and checker.memoised and checker.any_order
