"""What every pylint-omni checker shares: its settings, the project index, and emission.

A checker asks `index_for(module)` for the project index and the module's
root-relative path. Under `--from-stdin` the buffer's text replaces that file in the
index, so project-wide facts stay right for the text being edited. Findings are
emitted at visit time, at the node, so `# pylint: disable=` and `-j N` just work.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.lint import parallel

from pylint_omni.evidence.wording import searched_summary
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.findings import FindingDetails, build_record, recording_findings, write_record
from pylint_omni.evidence.provenance import copied_code, with_provenance
from pylint_omni.index.project_index import ProjectIndex, begin_run, get_index
from pylint_omni.options import RunOptions
from pylint_omni.index.paths import find_project_root
from pylint_omni.index.settings import OmniSettings


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

    def open(self) -> None:
        """Start a run, once per run whatever pylint calls per file.

        pylint's `-j N` workers call `open()` before every file they lint; each worker
        process is one run (its pool lives for one `check`), so only its first
        `open()` starts one. Elsewhere (`-j 1`, an editor's long-lived process) every
        `open()` is a new run: files may have changed since the last.
        """
        if parallel._worker_linter is self.linter:  # pylint: disable=protected-access
            if self._run_pid == os.getpid():
                return
            self._run_pid = os.getpid()
        begin_run()
        self._start_run()

    def _start_run(self) -> None:
        self._run = RunOptions.of(self.linter.config)
        self._base = self._run.base()
        self._by_root = {}

    def settings_for(self, path: str | None) -> OmniSettings:
        """The settings of the project that holds `path` (its own pyproject.toml, then the command line)."""
        if self._run is None or self._base is None:
            self._start_run()
        assert self._run is not None and self._base is not None
        root = self._base.root or find_project_root(path or Path.cwd())
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
    ) -> None:
        """Emit a candidate (or, when asked, a rejected finding) and record it for the report.

        Rejected findings are always recorded (the report lists them as rejected ideas)
        but emitted as messages only with `omni-include-rejected`. A finding silenced by
        a `# pylint: disable=` pragma is not recorded either. Checkers that give no
        `details` still get a record (evidence, owner, validation) for the report.
        """
        if verdict.status is Status.LIVE:
            return
        if verdict.status is Status.CANDIDATE:
            verdict, args = self._in_copied_code(node, verdict, args, details)
        if recording_findings() and self.linter.is_message_enabled(symbol, node.fromlineno):
            found = self.index_for(node.root())  # the index is only built when a report asks
            if found is not None:
                index, relpath = found
                message = self.msgs[self.linter.msgs_store.get_message_definitions(symbol)[0].msgid][0] % args
                write_record(build_record(index, relpath, symbol, node.fromlineno or 0, node.col_offset or 0, verdict, message, details, searched_summary(index)))
        if verdict.status is Status.REJECTED and not self.settings.include_rejected:
            return
        self.add_message(symbol, node=node, args=args, confidence=verdict.pylint_confidence)
