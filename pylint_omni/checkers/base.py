"""What every pylint-omni checker shares: its settings, the project index, and emission.

A checker asks `index_for(module)` for the project index and the module's
root-relative path. Under `--from-stdin` the buffer's text replaces that file in the
index, so project-wide facts stay right for the text being edited. Findings are
emitted at visit time, at the node, so `# pylint: disable=` and `-j N` just work.
"""

from __future__ import annotations

from typing import Any

from astroid import nodes
from pylint.checkers import BaseChecker

from pylint_omni.checkers.wording import searched_summary
from pylint_omni.evidence import Status, Verdict
from pylint_omni.findings import FindingDetails, build_record, recording_findings, write_record
from pylint_omni.index import ProjectIndex, begin_run, get_index
from pylint_omni.options import settings_from
from pylint_omni.paths import find_project_root
from pylint_omni.settings import OmniSettings


class OmniChecker(BaseChecker):
    """Base of the pylint-omni checkers.

    They all share the checker name `pylint-omni`, so `--enable=pylint-omni` turns on
    every message of the plugin and the options live in one `[tool.pylint.pylint-omni]`.
    """

    name = "pylint-omni"
    _settings: OmniSettings | None = None

    def open(self) -> None:
        begin_run()
        self._settings = settings_from(self.linter.config)

    @property
    def settings(self) -> OmniSettings:
        if self._settings is None:
            self._settings = settings_from(self.linter.config)
        return self._settings

    def index_for(self, module: nodes.Module) -> tuple[ProjectIndex, str] | None:
        """The index of the module's project and the module's path in it (None: not a file)."""
        if not module.file or not module.file.endswith((".py", ".pyi")):
            return None
        root = self.settings.root or find_project_root(module.file)
        index = get_index(root, self.settings)
        relpath = index.relpath(module.file)
        if relpath is None:
            return None
        if module.file_bytes is not None:  # --from-stdin: the editor buffer wins
            text = module.file_bytes.decode("utf-8") if isinstance(module.file_bytes, bytes) else str(module.file_bytes)
            index.override(relpath, text)
        return index, relpath

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
        if recording_findings() and self.linter.is_message_enabled(symbol, node.fromlineno):
            found = self.index_for(node.root())  # the index is only built when a report asks
            if found is not None:
                index, relpath = found
                message = self.msgs[self.linter.msgs_store.get_message_definitions(symbol)[0].msgid][0] % args
                write_record(build_record(index, relpath, symbol, node.fromlineno or 0, node.col_offset or 0, verdict, message, details, searched_summary(index)))
        if verdict.status is Status.REJECTED and not self.settings.include_rejected:
            return
        self.add_message(symbol, node=node, args=args, confidence=verdict.pylint_confidence)
