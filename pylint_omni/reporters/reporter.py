"""What the three audit reporters share: the findings folder, the messages, one write.

Each reporter takes the shared findings folder in its constructor (pylint builds
reporters while it reads its options, before linting, so `-j N` workers inherit the
folder), keeps the messages it is handed and the files linted, writes its whole
document once in `display_messages` (called after linting), and gives the folder
back in `on_close`; the last one to close removes it. pylint's own reports and score
are not part of an audit document, so `_display` writes nothing.
"""

from __future__ import annotations

from typing import TextIO

from pylint.reporters import BaseReporter
from pylint.reporters.ureports.nodes import Section
from pylint.utils import LinterStats

from pylint_omni.reporters.audit import Audit, build_audit
from pylint_omni.reporters.findings_folder import FINDINGS_FOLDER


class AuditReporter(BaseReporter):
    """Base of `omni-report`, `omni-json` and `omni-sarif`: subclasses only `render`."""

    def __init__(self, output: TextIO | None = None) -> None:
        super().__init__(output)
        self.folder = FINDINGS_FOLDER.acquire()
        self.linted_files: dict[str, None] = {}  # insertion-ordered set
        self._holding_folder = True

    def on_set_current_module(self, module: str, filepath: str | None) -> None:
        if filepath:
            self.linted_files.setdefault(filepath)

    def display_messages(self, layout: Section | None) -> None:
        audit = build_audit(self.linter, self.messages, list(self.linted_files), self.folder)
        self.out.write(self.render(audit))
        self.out.flush()

    def _display(self, layout: Section) -> None:
        """pylint's reports and score are not part of the audit document."""

    def on_close(self, stats: LinterStats, previous_stats: LinterStats | None) -> None:
        if self._holding_folder:
            self._holding_folder = False
            FINDINGS_FOLDER.release()

    def render(self, audit: Audit) -> str:
        raise NotImplementedError
