"""`omni-report`: the audit as Markdown, for people.

Header (root, audit base, versions, what was scanned, what could not run), a summary
table, the top candidates, the candidates grouped by owning design contract (else by
package) with bundles of micro findings and a compact table of small medium ones, then
the rejected ideas, one collapsible table per message. What every finding shares (what
was searched, the contract's validation) is said once, not per finding. The order,
the bundles and the top come from `evidence.ranking` (through `Audit.entries`): this
module only renders them.
"""

from __future__ import annotations

import re

from pylint_omni.reporters import adoption
from pylint_omni.evidence.ranking import COMPACT_BELOW, Entry
from pylint_omni.reporters.audit import Audit, Finding
from pylint_omni.reporters.reporter import AuditReporter

MAX_LISTED = 3
MAX_NOT_RUN = 12
MAX_IDEA_CHARS = 110
MAX_REJECTED_ROWS = 30
ONLY_VALIDATION = "only validation/support consumers"
# The verdict and evidence tail every pylint-omni message ends with (see checkers/wording.py).
VERDICT_TAIL = re.compile(r"\s(?:Confidence (?:high|medium)[.:]|Rejected:)\s")
EVIDENCE_IN_MESSAGE = re.compile(r"\bEvidence: (?P<evidence>.+?)(?:\. Searched |; searched |$)")


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def code(text: str) -> str:
    return f"`{text}`" if "`" not in text else text


def listed(items: list[str], limit: int = MAX_LISTED) -> str:
    shown = ", ".join(code(i) for i in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def what_of(message: str) -> str:
    """The surface and the fix: the message without its verdict and evidence tail."""
    found = VERDICT_TAIL.search(message)
    return message[: found.start()].strip() if found else message


def evidence_in_message(finding: Finding) -> str:
    found = EVIDENCE_IN_MESSAGE.search(finding.message)
    return found.group("evidence").rstrip(".") if found else ""


def proof_of(finding: Finding) -> str:
    """The checker's own proof (from its record, else from the message), when it is not a consumer count."""
    proof = finding.proof or evidence_in_message(finding)
    return "" if proof.startswith("production ") else proof


def evidence_text(finding: Finding) -> str:
    """Consumers by kind (or that there are none), after the checker's own proof."""
    if finding.evidence is None:  # no record: the message's own words are all there is
        return evidence_in_message(finding) or "not recorded by the checker (see the finding)"
    proof = proof_of(finding)
    consumers = ""
    if any(finding.evidence.values()):
        consumers = "; ".join(f"{kind} {len(found)}" + (f" ({listed(found)})" if found else "")
                              for kind, found in finding.evidence.items())
    elif not proof:
        consumers = "no production, validation or external/dynamic consumer found"
    return ". Consumers: ".join(p for p in (proof, consumers) if p)


def confidence_text(finding: Finding) -> str:
    if finding.confidence == "high":
        shown = finding.reason and finding.reason not in proof_of(finding)
        return f"high: {finding.reason}" if shown else "high"
    # The consumers are listed under Evidence already: name the kind, not the list again.
    unknowns = [ONLY_VALIDATION if u.startswith(ONLY_VALIDATION) else u for u in finding.unknowns or [finding.reason]]
    return f"medium, unresolved: {'; '.join(u for u in unknowns if u) or 'not named by the checker'}"


def header(audit: Audit) -> list[str]:
    base = audit.audit_base
    base_text = f"`{base['commit'][:12]}` ({base['note']})" if base.get("commit") else base.get("note", "unknown")
    tool = audit.tool
    lines = [
        "# pylint-omni audit report", "",
        f"- **Project root**: `{audit.root}`",
        f"- **Audit base**: {base_text}",
        f"- **Tools**: pylint-omni {tool['version']}, pylint {tool['pylint']}, astroid {tool['astroid']}, Python {tool['python']}",
    ]
    scanned = audit.scanned
    if scanned.get("files_by_kind"):
        files = ", ".join(f"{count} {kind}" for kind, count in scanned["files_by_kind"].items())
        lines.append(f"- **Scanned**: {scanned['modules_linted']} modules linted; project index of {files} files "
                     f"({scanned['definitions']} definitions, {scanned['registries']} registries)")
    else:
        lines.append(f"- **Scanned**: {scanned.get('modules_linted', 0)} modules linted")
    active = audit.contracts.get("active", [])
    if active:
        inactive = audit.contracts.get("inactive", [])
        lines.append(f"- **Design contracts**: {len(active)} active ({listed([c['path'] for c in active], 6)})"
                     + (f"; {len(inactive)} archived or deprecated, ignored" if inactive else ""))
    if not audit.not_run:
        lines.append("- **Checks that could not run**: none")
    else:
        lines.append(f"- **Checks that could not run** ({len(audit.not_run)}):")
        lines.extend(f"  - `{item['what']}`: {item['reason']}" for item in audit.not_run[:MAX_NOT_RUN])
        if len(audit.not_run) > MAX_NOT_RUN:
            lines.append(f"  - and {len(audit.not_run) - MAX_NOT_RUN} more (all are in the JSON report)")
    return lines


def summary(audit: Audit) -> list[str]:
    high = sum(f.confidence == "high" for f in audit.candidates)
    lines = ["", "## Summary", "",
             f"{plural(len(audit.candidates), 'candidate')} ({high} high, {len(audit.candidates) - high} medium) "
             f"and {plural(len(audit.rejected), 'rejected idea')}."]
    if audit.scanned.get("searched"):
        lines[-1] += f" Consumers were searched in {audit.scanned['searched']}."
    if audit.other_messages:
        lines[-1] += f" {audit.other_messages} messages of other pylint checkers are not part of the audit."
    if not audit.candidates and not audit.rejected:
        return lines
    lines += ["", "| message | high | medium | rejected |", "|---|---:|---:|---:|"]
    lines += [f"| `{symbol}` | {row['high']} | {row['medium']} | {row['rejected']} |"
              for symbol, row in sorted(audit.counts_by("symbol").items())]
    if audit.candidates:
        lines += ["", "| owner | high | medium |", "|---|---:|---:|"]
        by_group = audit.counts_by("group")
        lines += [f"| {cell(group_title(group, found[0].owner_path))} | {by_group[group]['high']} | {by_group[group]['medium']} |"
                  for group, found in audit.groups()]
    undetailed = sorted({f.symbol for f in audit.candidates if not f.has_details})
    if undetailed:
        lines += ["", f"Checkers that give no structured surface, simplification, benefit and risk yet: {listed(undetailed, 10)}; "
                  "their findings show the message instead."]
    return lines


def benefit_text(finding: Finding) -> str:
    """The benefit in words, then how often the code runs (the ranking's heat)."""
    heat = finding.gain.heat.value + (f": {finding.gain.heat_reason}" if finding.gain.heat_reason else "")
    return f"{finding.benefit} ({heat})" if finding.benefit else heat


def candidate(number: int, finding: Finding, shared_validation: bool) -> list[str]:
    lines = ["", f"#### C{number}. `{finding.symbol}` at `{finding.path}:{finding.line}` ({finding.confidence})", ""]
    lines.append(adoption.identity_line(finding.id, finding.subject, finding.owners, finding.owners_source))
    if finding.has_details:
        lines.append(f"- **Surface**: {listed(finding.surface, 6)}")
    else:
        lines.append(f"- **Finding**: {what_of(finding.message)}")
    lines.append(f"- **Evidence**: {evidence_text(finding)}")
    if finding.has_details:
        lines.append(f"- **Simplification**: {finding.simplification}")
        lines.append(f"- **Benefit**: {benefit_text(finding)}")
    lines += member_lines(finding)
    lines += risk_lines(finding, shared_validation)
    lines.append(f"- **Confidence**: {confidence_text(finding)}")
    return lines


def member_lines(finding: Finding) -> list[str]:
    """A change set's members, each with its own message's words, then the findings it takes in."""
    if not finding.members:
        return []
    own = [m for m in finding.members if not m.get("taken_in")]
    taken = [m for m in finding.members if m.get("taken_in")]
    lines = [f"- **Members** ({len(own)}" + (f", and {plural(len(taken), 'finding')} of other messages in the code it deletes"
                                              if taken else "") + "):"]
    lines += [f"  - `{m['path']}:{m['line']}` `{m['symbol']}`: {cell(what_of(str(m['what'])))}" for m in [*own, *taken]]
    return lines


def risk_lines(finding: Finding, shared_validation: bool) -> list[str]:
    risk = [finding.risk] if finding.risk else []
    if not shared_validation:
        risk.append(f"Validation: {validation_text(finding)}.")
    return [f"- **Risk and validation**: {' '.join(risk)}"] if risk else []


def same_or_by_line(findings: list[Finding], text: list[str]) -> str:
    """One text when every member says the same, else the first member's and "likewise" for the others."""
    if len(set(text)) == 1:
        return text[0]
    others = ", ".join(str(f.line) for f in findings[1:])
    return f"line {findings[0].line}: {text[0].rstrip('.')}; likewise at line{'s' if len(findings) > 2 else ''} {others}."


def bundle(number: int, entry: Entry, findings: list[Finding], shared_validation: bool) -> list[str]:
    """A bundle of micro findings of one kind in one file: one candidate of the audit."""
    lead = findings[0]
    lines = ["", f"#### C{number}. {entry.title} ({entry.confidence})", "",
             f"- **Surface**: {listed([s for f in findings for s in f.surface[:1]] or [f'{f.path}:{f.line}' for f in findings], 6)}",
             f"- **Evidence**: {same_or_by_line(findings, [evidence_text(f) for f in findings])}"]
    if lead.has_details:
        lines.append(f"- **Simplification**: {same_or_by_line(findings, [f.simplification or '' for f in findings])}")
        lines.append(f"- **Benefit**: {len(findings)} × {benefit_text(lead)}; {sum(f.gain.lines for f in findings)} lines in all")
    lines += risk_lines(lead, shared_validation)
    lines.append(f"- **Confidence**: {same_or_by_line(findings, [confidence_text(f) for f in findings])}")
    return lines


def entry_what(audit: Audit, entry: Entry) -> str:
    """A candidate in a few words: a bundle's title, a change set's own first clause (never one member's),
    else its first surface or the message's first clause."""
    if entry.bundled:
        return entry.title
    finding = audit.findings_of(entry)[0]
    idea = what_of(finding.message).split("; ")[0] if finding.members else idea_of(finding)
    return f"`{finding.symbol}` at `{finding.path}:{finding.line}`: {idea}"


def member_count(audit: Audit, entry: Entry) -> int:
    """How many findings one candidate stands for: a bundle's, or a change set's members (at least one)."""
    if entry.bundled:
        return len(entry.members)
    return max(1, len(audit.findings_of(entry)[0].members))


def top_candidates(audit: Audit) -> list[str]:
    """The first section after the summary: at most five candidates, high confidence first, by benefit."""
    chosen = audit.top()
    if not chosen:
        return []
    numbers = audit.number_of()
    lines = ["", "## Top candidates", "",
             "Ranked by benefit, high confidence first (the score weighs the lines that go, the kind, and how "
             "often the code runs); the full entries are below.", "",
             "| # | candidate | members | confidence | runs | benefit | score |", "|---|---|---:|---|---|---|---:|"]
    for entry in chosen:
        lead = audit.findings_of(entry)[0]
        gain = f"{len(entry.members)} × {lead.benefit}" if entry.bundled and lead.benefit else (lead.benefit or "")
        runs = entry.heat.value + (f" ({lead.gain.heat_reason})" if lead.gain.heat_reason and not entry.bundled else "")
        lines.append(f"| C{numbers[entry.lead.key]} | {cell(entry_what(audit, entry))} | {member_count(audit, entry)} | "
                     f"{entry.confidence} | {cell(runs)} | {cell(gain)} | {entry.score:g} |")
    return lines


def compact_table(audit: Audit, entries: list[Entry], numbers: dict[int, int]) -> list[str]:
    """Medium candidates below the benefit threshold: one row each, not a full entry."""
    if not entries:
        return []
    lines = ["", f"Smaller medium candidates (score below {COMPACT_BELOW:g}; full details in the JSON report):", "",
             "| # | candidate | benefit | unresolved |", "|---|---|---|---|"]
    for entry in entries:
        lead = audit.findings_of(entry)[0]
        doubt = confidence_text(lead).removeprefix("medium, unresolved: ")
        lines.append(f"| C{numbers[entry.lead.key]} | {cell(entry_what(audit, entry))} | {cell(lead.benefit or '')} | {cell(doubt)} |")
    return lines


def validation_text(finding: Finding) -> str:
    if not finding.validation:
        return "none known (no contract gives validation paths and no test names the symbol); pick the tests by hand"
    source = "the contract's validation paths" if finding.owner_path else "tests that name the symbol"
    return f"{listed(finding.validation, 5)} ({source})"


def group_title(group: str, owner_path: str | None) -> str:
    if owner_path is not None:
        return f"{group.removesuffix(f' ({owner_path})')} (`{owner_path}`)"
    return f"package `{group.removeprefix('package ')}` (no design contract)" if group.startswith("package ") else group


def candidates(audit: Audit) -> list[str]:
    if not audit.candidates:
        return ["", "## Candidates", "", "None."]
    lines = ["", "## Candidates"]
    numbers = audit.number_of()
    for group, entries in audit.entry_groups():
        findings = [f for e in entries for f in audit.findings_of(e)]
        lines += ["", f"### {group_title(group, findings[0].owner_path)}"]
        full = [e for e in entries if not e.compact]
        shared = len(full) > 1 and len({tuple(f.validation) for e in full for f in audit.findings_of(e)}) == 1
        if shared:
            lines += ["", f"Validation for every finding below: {validation_text(audit.findings_of(full[0])[0])}."]
        for entry in full:
            members = audit.findings_of(entry)
            number = numbers[entry.lead.key]
            lines += bundle(number, entry, members, shared) if entry.bundled else candidate(number, members[0], shared)
        lines += compact_table(audit, [e for e in entries if e.compact], numbers)
    return lines


def rejected(audit: Audit) -> list[str]:
    lines = ["", "## Rejected ideas", ""]
    if not audit.rejected:
        return lines + ["None."]
    lines.append("Findings the evidence pass rejected, with the reason and the consumer that saved them, "
                 "so that nobody investigates them again.")
    by_symbol: dict[str, list[Finding]] = {}
    for finding in audit.rejected:
        by_symbol.setdefault(finding.symbol, []).append(finding)
    for symbol, findings in sorted(by_symbol.items()):
        lines += ["", f"<details><summary><code>{symbol}</code>: {len(findings)} rejected</summary>", "",
                  "| where | idea | why rejected |", "|---|---|---|"]
        for finding in findings[:MAX_REJECTED_ROWS]:
            reason = finding.reason or what_of(finding.message)
            saved = [c for c in finding.saved_by if c not in reason]
            if saved:
                reason += f"; also used by {listed(saved, 2)}"
            lines.append(f"| `{finding.path}:{finding.line}` | {cell(idea_of(finding))} | {cell(reason)} |")
        if len(findings) > MAX_REJECTED_ROWS:
            lines += ["", f"And {len(findings) - MAX_REJECTED_ROWS} more: every rejected idea is in the JSON report."]
        lines += ["", "</details>"]
    return lines


def idea_of(finding: Finding) -> str:
    """What was proposed, in a few words: the first surface, else the message's first clause."""
    if finding.surface:
        return code(finding.surface[0].removeprefix(f"{finding.path}:{finding.line} "))
    what = re.split(r": |; ", what_of(finding.message), maxsplit=1)[0]
    return what if len(what) <= MAX_IDEA_CHARS else what[: MAX_IDEA_CHARS - 1].rstrip() + "…"


def candidates_by_owner(audit: Audit) -> list[str]:
    """`--omni-report-by=owner`: the candidates grouped by the owners each names, most candidates first."""
    if not audit.candidates:
        return ["", "## Candidates by owner", "", "None."]
    grouped: dict[str, list[Finding]] = {}
    for finding in audit.candidates:
        grouped.setdefault(adoption.owner_key(finding.owners), []).append(finding)
    lines = ["", "## Candidates by owner"]
    number = 0
    for owner, findings in sorted(grouped.items(), key=lambda item: (item[0] == adoption.NO_OWNER, -len(item[1]), item[0])):
        lines += ["", f"### {owner} ({plural(len(findings), 'candidate')})"]
        for finding in findings:
            number += 1
            lines += candidate(number, finding, False)
    return lines


def render_markdown(audit: Audit) -> str:
    listing = candidates_by_owner(audit) if audit.adoption.report_by == "owner" else candidates(audit)
    return "\n".join([*header(audit), *adoption.header_lines(audit.adoption), *summary(audit), *top_candidates(audit),
                      *listing, *rejected(audit), *adoption.sections(audit.adoption)]) + "\n"


class MarkdownReporter(AuditReporter):
    """`--output-format=omni-report[:FILE]`: the audit report in Markdown."""

    name = "omni-report"
    extension = "md"

    def render(self, audit: Audit) -> str:
        return render_markdown(audit)
