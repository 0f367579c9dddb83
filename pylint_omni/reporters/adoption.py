"""What a team adopting the audit needs beside the findings: the baseline, the keep list, owners.

- **Baseline** (`--omni-baseline`): how many known findings remain (held back from
  the messages), and which baseline entries of the linted files disappeared (fixed,
  or moved out of the way). Entries of files this run did not lint are counted, not
  listed as disappeared.
- **Keep list**: the findings kept on purpose with their reason; expired entries
  (their findings are reported again) and entries no finding of this run matched.
- **Owners** (`--omni-report-by=owner`): candidates grouped by the owners each names
  (contract `owners`, else CODEOWNERS).

Gathering only; `markdown` renders the sections with the functions at the bottom.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from pylint_omni.evidence.baseline import BaselineError, load_baseline
from pylint_omni.evidence.keep import keep_list
from pylint_omni.index.settings import OmniSettings

NO_OWNER = "(no owner: no contract `owners` and no CODEOWNERS line)"
MAX_LISTED_ROWS = 30


@dataclass
class Adoption:
    """The adoption facts of one run, for every reporter."""

    report_by: str = "contract"
    baseline: dict[str, Any] | None = None  # {path, known, disappeared: [entry], not_linted}
    kept: list[dict[str, Any]] = field(default_factory=list)  # JSON rows of kept findings
    expired: list[dict[str, Any]] = field(default_factory=list)  # keep entries past their date
    unmatched: list[dict[str, Any]] = field(default_factory=list)  # keep entries no finding matched

    def as_json(self) -> dict[str, Any]:
        return {"report_by": self.report_by, "baseline": self.baseline, "kept": self.kept,
                "keep_expired": self.expired, "keep_unmatched": self.unmatched}


def split_held(records: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(records the report joins with messages, kept records, known records)."""
    rest, kept, known = [], [], []
    for record in records:
        {"kept": kept, "known": known}.get(record["status"], rest).append(record)
    return rest, kept, known


def _unique(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One record per finding id (a file linted twice writes its records twice)."""
    return list({r.get("id") or id(r): r for r in records}.values())


def adoption_facts(settings: OmniSettings, kept: list[dict[str, Any]], known: list[dict[str, Any]],
                   seen_ids: set[str], linted: set[str]) -> Adoption:
    """Baseline and keep-list facts: `seen_ids` are the ids of this run, `linted` its root-relative files."""
    facts = Adoption(report_by=settings.report_by)
    kept, known = _unique(kept), _unique(known)
    facts.kept = [{"id": r.get("id"), "symbol": r["symbol"], "subject": r.get("subject"), "path": r["path"],
                   "line": r["line"], "confidence": r.get("confidence"), "kept_because": r.get("kept_because")} for r in kept]
    if settings.baseline is not None:
        try:
            baseline = load_baseline(settings.baseline)
        except BaselineError as exc:
            facts.baseline = {"path": str(settings.baseline), "problem": str(exc), "known": 0, "disappeared": [], "not_linted": 0}
        else:
            seen = seen_ids | {r.get("id") for r in known}
            gone = [e for i, e in baseline.entries.items() if i not in seen]
            facts.baseline = {
                "path": str(settings.baseline), "known": len(known), "entries": len(baseline.entries),
                "disappeared": [e for e in gone if e.get("path") in linted],
                "not_linted": sum(1 for e in gone if e.get("path") not in linted),
            }
    if settings.root is not None:
        today = datetime.date.today()
        entries = keep_list(settings.root).entries
        facts.expired = [e.as_json() for e in entries if e.expired(today)]
        used = {r.get("kept_because") for r in kept}
        facts.unmatched = [e.as_json() for e in entries if not e.expired(today)
                           and f"{e.reason} ({e.where})" not in used]
    return facts


def linted_relpaths(linted_files: Iterable[str], root: Path) -> set[str]:
    found = set()
    for file in linted_files:
        try:
            found.add(Path(file).resolve().relative_to(root.resolve()).as_posix())
        except ValueError:
            continue
    return found


# -- Markdown sections (kept apart from `markdown`'s own, which call them) ----------------
def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def header_lines(adoption: Adoption) -> list[str]:
    """Header bullets: the baseline's and the keep list's counts."""
    lines = []
    baseline = adoption.baseline
    if baseline is not None and baseline.get("problem"):
        lines.append(f"- **Baseline**: could not be used: {baseline['problem']}")
    elif baseline is not None:
        gone = len(baseline["disappeared"])
        lines.append(f"- **Baseline**: `{baseline['path']}` ({baseline['entries']} findings): {baseline['known']} known "
                     f"findings remain (not listed below), {gone} disappeared"
                     + (f", {baseline['not_linted']} in files this run did not lint" if baseline["not_linted"] else ""))
    if adoption.kept or adoption.expired or adoption.unmatched:
        lines.append(f"- **Keep list**: {len(adoption.kept)} findings kept on purpose"
                     + (f"; {len(adoption.expired)} entries expired (their findings are reported again)" if adoption.expired else "")
                     + (f"; {len(adoption.unmatched)} entries matched no finding" if adoption.unmatched else ""))
    return lines


def identity_line(finding_id: str, subject: str, owners: list[str], owners_source: str) -> str:
    """The finding's id and subject (for the baseline, the keep list and `explain`), and its owners."""
    line = f"- **Id**: `{finding_id}` (subject `{subject}`)"
    return line + (f"; **Owners**: {', '.join(owners)} (from {owners_source})" if owners else "")


def owner_key(owners: list[str]) -> str:
    return ", ".join(owners) if owners else NO_OWNER


def sections(adoption: Adoption) -> list[str]:
    """The kept findings, the baseline findings that disappeared, and keep entries to review."""
    lines: list[str] = []
    if adoption.kept:
        lines += ["", "## Kept on purpose", "", "Findings the project's keep list keeps, with its reason.", "",
                  "| id | where | subject | reason |", "|---|---|---|---|"]
        lines += [f"| `{k['id']}` | `{k['path']}:{k['line']}` | `{_cell(k['subject'])}` | {_cell(k['kept_because'])} |"
                  for k in adoption.kept[:MAX_LISTED_ROWS]]
        if len(adoption.kept) > MAX_LISTED_ROWS:
            lines += ["", f"And {len(adoption.kept) - MAX_LISTED_ROWS} more (all are in the JSON report)."]
    baseline = adoption.baseline
    if baseline is not None and baseline.get("disappeared"):
        lines += ["", "## Disappeared since the baseline", "",
                  "Baseline findings of the linted files that this run no longer finds (fixed, or changed beyond recognition).", ""]
        lines += [f"- `{e.get('id')}` `{e.get('symbol')}` `{_cell(e.get('subject') or '')}` (was `{e.get('path')}:{e.get('line')}`)"
                  for e in baseline["disappeared"][:MAX_LISTED_ROWS]]
    if adoption.expired or adoption.unmatched:
        lines += ["", "## Keep entries to review", ""]
        lines += [f"- expired on {e['until']}: `{e['symbol']}` `{_cell(e['name'])}` ({e['where']}): its findings are reported "
                  "again; renew the date or fix the code" for e in adoption.expired]
        lines += [f"- matched no finding of this run: `{e['symbol']}` `{_cell(e['name'])}` ({e['where']}): stale, "
                  "or its file was not linted" for e in adoption.unmatched]
    return lines
