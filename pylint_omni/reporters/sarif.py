"""`omni-sarif`: the audit as SARIF 2.1.0, for code-scanning upload.

One rule per pylint-omni refactoring message, its help taken from the catalogue page
`checkers/<symbol>/README.md` when the repository checkout sits next to the package
(else the message description). Candidates are `fail` results (high: warning,
medium: note); rejected ideas are `pass` results (level none) so that a viewer can
show why they were dropped. Locations are relative to the project root
(`uriBaseId` PROJECTROOT); confidence, status, owner and validation are properties.
Each result carries the stable finding id as `partialFingerprints`
(`pylintOmniFindingId/v1`), so code-scanning services track it across commits.
Findings the keep list keeps are results with an external suppression (the reason);
with a baseline, the candidates shown are `baselineState: new`. Checks that could
not run become tool execution notifications.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pylint_omni.evidence.ranking import score
from pylint_omni.reporters.audit import Audit, Finding
from pylint_omni.reporters.reporter import AuditReporter

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
CATALOGUE = Path(__file__).resolve().parents[2] / "checkers"
ROOT_BASE_ID = "PROJECTROOT"
LEVEL_OF_CONFIDENCE = {"high": "warning", "medium": "note"}
FINGERPRINT_KEY = "pylintOmniFindingId/v1"


def rule_help(symbol: str, description: str) -> dict[str, str]:
    page = CATALOGUE / symbol / "README.md"
    try:
        text = page.read_text(encoding="utf-8")
    except OSError:
        return {"text": description}
    return {"text": text, "markdown": text}


def rule(symbol: str, msgid: str, description: str) -> dict[str, Any]:
    first_sentence = description.split(". ")[0].rstrip(".") + "."
    return {
        "id": symbol,
        "name": symbol,
        "shortDescription": {"text": first_sentence},
        "fullDescription": {"text": description},
        "help": rule_help(symbol, description),
        "defaultConfiguration": {"level": "warning"},
        "properties": {"pylintMsgId": msgid, "tags": ["maintainability", "simplification"]},
    }


def benefit_properties(finding: Finding) -> dict[str, Any]:
    """The benefit of a finding as SARIF result properties (docs/report.md)."""
    gain = finding.gain
    return {"benefit": finding.benefit, "benefitLines": gain.lines, "benefitKind": gain.kind.value, "heat": gain.heat.value,
            "heatReason": gain.heat_reason, "micro": gain.micro, "score": score(gain), "proof": finding.proof}


def result(finding: Finding, rule_index: int | None, baseline: bool = False) -> dict[str, Any]:
    candidate = finding.status == "candidate"
    properties: dict[str, Any] = {"status": finding.status, "confidence": finding.confidence, "owner": finding.owner,
                                  "validation": finding.validation, "subject": finding.subject, "owners": finding.owners,
                                  **benefit_properties(finding)}
    if not candidate:
        properties["reason"] = finding.reason
        properties["savedBy"] = finding.saved_by
    region = {"startLine": max(finding.line, 1), "startColumn": finding.column + 1}
    entry: dict[str, Any] = {
        "ruleId": finding.symbol,
        "kind": "fail" if candidate else "pass",
        "level": LEVEL_OF_CONFIDENCE.get(finding.confidence or "", "note") if candidate else "none",
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": finding.path, "uriBaseId": ROOT_BASE_ID},
            "region": region,
        }}],
        "partialFingerprints": {FINGERPRINT_KEY: finding.id},
        "properties": properties,
    }
    if baseline and candidate:
        entry["baselineState"] = "new"
    if rule_index is not None:
        entry["ruleIndex"] = rule_index
    return entry


def kept_result(kept: dict[str, Any], rule_index: int | None) -> dict[str, Any]:
    """A finding the keep list keeps: still a result, suppressed outside the code with the reason."""
    entry: dict[str, Any] = {
        "ruleId": kept["symbol"], "kind": "fail", "level": LEVEL_OF_CONFIDENCE.get(kept.get("confidence") or "", "note"),
        "message": {"text": f"Kept on purpose: {kept['subject']}"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": kept["path"], "uriBaseId": ROOT_BASE_ID},
                                            "region": {"startLine": max(kept["line"], 1)}}}],
        "partialFingerprints": {FINGERPRINT_KEY: kept["id"]},
        "suppressions": [{"kind": "external", "status": "accepted", "justification": kept["kept_because"] or ""}],
        "properties": {"status": "kept", "subject": kept["subject"]},
    }
    if rule_index is not None:
        entry["ruleIndex"] = rule_index
    return entry


def audit_sarif(audit: Audit) -> dict[str, Any]:
    symbols = sorted(set(audit.rules) | {f.symbol for f in [*audit.candidates, *audit.rejected]})
    rules = [rule(s, audit.rules.get(s, {}).get("msgid", ""), audit.rules.get(s, {}).get("description", s)) for s in symbols]
    index_of = {s: i for i, s in enumerate(symbols)}
    notifications = [
        {"level": "warning", "message": {"text": f"{item['what']}: {item['reason']}"}} for item in audit.not_run
    ]
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "pylint-omni", "version": audit.tool["version"], "rules": rules,
                            "properties": {"pylint": audit.tool["pylint"], "astroid": audit.tool["astroid"]}}},
        "originalUriBaseIds": {ROOT_BASE_ID: {"uri": Path(audit.root).as_uri().rstrip("/") + "/"}},
        "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications}],
        "results": [result(f, index_of.get(f.symbol), audit.adoption.baseline is not None) for f in [*audit.candidates, *audit.rejected]]
        + [kept_result(k, index_of.get(k["symbol"])) for k in audit.adoption.kept],
        "properties": {"auditBase": audit.audit_base, "scanned": audit.scanned},
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


class SarifReporter(AuditReporter):
    """`--output-format=omni-sarif[:FILE]`: the audit report as SARIF 2.1.0."""

    name = "omni-sarif"
    extension = "sarif"

    def render(self, audit: Audit) -> str:
        return json.dumps(audit_sarif(audit), indent=2) + "\n"
