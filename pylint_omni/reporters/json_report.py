"""`omni-json`: the audit as JSON, for tools. The keys are stable (docs/report.md)."""

from __future__ import annotations

import json
from typing import Any

from pylint_omni.evidence.ranking import Entry
from pylint_omni.reporters.audit import Audit
from pylint_omni.reporters.reporter import AuditReporter

FORMAT = "pylint-omni-audit/1"  # bump when a key changes meaning or disappears


def entry_json(audit: Audit, entry: Entry, numbers: dict[int, int]) -> dict[str, Any]:
    """One ranked candidate: a finding or a bundle of micro findings (`findings` point into `candidates`)."""
    return {
        "number": f"C{numbers.get(entry.lead.key, 0)}", "score": entry.score, "confidence": entry.confidence,
        "heat": entry.heat.value, "compact": entry.compact, "title": entry.title,
        "findings": [{"symbol": f.symbol, "path": f.path, "line": f.line} for f in audit.findings_of(entry)],
    }


def audit_json(audit: Audit) -> dict[str, Any]:
    numbers = audit.number_of()
    return {
        "format": FORMAT,
        "tool": audit.tool,
        "root": audit.root,
        "audit_base": audit.audit_base,
        "scanned": audit.scanned,
        "contracts": audit.contracts,
        "not_run": audit.not_run,
        "summary": {
            "candidates": len(audit.candidates),
            "high": sum(f.confidence == "high" for f in audit.candidates),
            "medium": sum(f.confidence == "medium" for f in audit.candidates),
            "rejected": len(audit.rejected),
            "by_message": audit.counts_by("symbol"),
            "by_owner": audit.counts_by("group"),
            "other_messages": audit.other_messages,
        },
        "top_candidates": [entry_json(audit, e, numbers) for e in audit.top()],
        "ranking": [entry_json(audit, e, numbers) for e in audit.entries],
        "candidates": [f.as_json() for f in audit.candidates],
        "rejected": [f.as_json() for f in audit.rejected],
        "adoption": audit.adoption.as_json(),
    }


class JsonReporter(AuditReporter):
    """`--output-format=omni-json[:FILE]`: the audit report as JSON."""

    name = "omni-json"
    extension = "json"

    def render(self, audit: Audit) -> str:
        return json.dumps(audit_json(audit), indent=2) + "\n"
