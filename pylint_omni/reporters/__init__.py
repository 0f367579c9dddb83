"""The audit report as pylint reporters: `omni-report` (Markdown), `omni-json`, `omni-sarif`.

They compose with any pylint run, e.g.
`--output-format=omni-report:audit.md,omni-json:audit.json,omni-sarif:audit.sarif`,
or print to stdout alone. docs/report.md describes the documents and the JSON keys.

The run's summary on stderr (`summary`) is formatted here too.
Reporters format; they never decide. May import: the index and evidence rooms and
the options. Never a message family.
"""

from __future__ import annotations

from pylint.lint import PyLinter

from pylint_omni.reporters.json_report import JsonReporter
from pylint_omni.reporters.markdown import MarkdownReporter
from pylint_omni.reporters.sarif import SarifReporter

AUDIT_REPORTERS = (MarkdownReporter, JsonReporter, SarifReporter)


def register(linter: PyLinter) -> None:
    for reporter in AUDIT_REPORTERS:
        linter.register_reporter(reporter)
