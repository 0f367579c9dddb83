"""The audit's data, shared by the three reporters: findings joined with pylint's messages.

A candidate is a message pylint emitted (so `# pylint: disable=` and `--confidence`
keep a finding out), joined with the record its checker wrote (evidence, owner,
validation, details). A message without a record is still listed, from its text
alone. Rejected ideas are the rejected records (they are not messages by default).
The header facts (root, audit base, versions, what was scanned, what could not run)
come from the warm project index and git. Nothing here decides a verdict: the
evidence pass did; this module only gathers and orders.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from pylint.lint import PyLinter
from pylint.message import Message

from pylint_omni.evidence.wording import (
    missing_submodules, missing_upstreams, searched_summary, shadowed_modules, unlinted_folders, untagged,
)
from pylint_omni.evidence.benefit import Benefit
from pylint_omni.evidence.contracts import contracts_of
from pylint_omni.evidence.consumers import ConsumerKind
from pylint_omni.evidence.findings import read_records
from pylint_omni.evidence.identity import fallback_subject, finding_id
from pylint_omni.evidence.ranking import Entry, Ranked, plan, score, top
from pylint_omni.index.live import get_index
from pylint_omni.index.run_options import RunOptions
from pylint_omni.index.paths import find_project_root
from pylint_omni.reporters.adoption import Adoption, adoption_facts, linted_relpaths, split_held
from pylint_omni.reporters.header import audit_base, tool_versions
from pylint_omni.index.scan.data_scan import InputProblem

OMNI_MSGID_PREFIX = "73"  # checker id of every pylint-omni message (R73xx, I73xx)
CONFIDENCE_OF_PYLINT = {"HIGH": "high", "INFERENCE": "medium"}
CONFIDENCE_RANK = {"high": 0, "medium": 1}
# pylint's own messages that mean a file could not be checked at all.
UNCHECKED_SYMBOLS = frozenset({"fatal", "astroid-error", "parse-error", "syntax-error", "config-parse-error"})
EVIDENCE_KINDS = tuple(kind.value for kind in ConsumerKind)
NO_GAIN = Benefit.from_json({})  # a message without a record


@dataclass
class Finding:
    """One candidate or rejected idea as every reporter shows it (JSON keys: `as_json`)."""

    symbol: str
    msgid: str
    path: str
    line: int
    column: int
    status: str  # candidate | rejected
    confidence: str | None  # high | medium for candidates
    message: str
    reason: str
    surface: list[str]
    evidence: dict[str, list[str]] | None  # None: the checker wrote no record
    unknowns: list[str]
    simplification: str | None  # None: the checker gives no details
    benefit: str | None
    risk: str | None
    gain: Benefit  # lines, kind, heat, micro of the benefit (zero lines when the checker gave none)
    proof: str  # the checker's own proof in full ("" when it gave none)
    validation: list[str]
    owner: str | None
    owner_path: str | None
    group: str
    id: str = ""  # evidence.identity: stable across unrelated edits
    subject: str = ""
    kind: str = ""  # which rule of the message found it (part of the id)
    owners: list[str] = field(default_factory=list)
    owners_source: str = ""
    kept_because: str | None = None
    # A change set's members (`MemberRef.as_json()`), then the findings of other messages it takes in (`taken_in`).
    members: list[dict[str, Any]] = field(default_factory=list)

    @property
    def has_details(self) -> bool:
        return self.simplification is not None

    @property
    def saved_by(self) -> list[str]:
        """For a rejected idea: the consumers that kept it, dynamic ones first."""
        if self.evidence is None:
            return []
        return [*self.evidence.get(ConsumerKind.EXTERNAL.value, []), *self.evidence.get(ConsumerKind.VALIDATION.value, []),
                *self.evidence.get(ConsumerKind.PRODUCTION.value, [])]

    def as_json(self) -> dict[str, Any]:
        return {
            "symbol": self.symbol, "msgid": self.msgid, "path": self.path, "line": self.line, "column": self.column,
            "status": self.status, "confidence": self.confidence, "message": self.message, "reason": self.reason,
            "surface": self.surface, "evidence": self.evidence, "unknowns": self.unknowns,
            "simplification": self.simplification, "benefit": self.benefit, "risk": self.risk,
            "validation": self.validation, "owner": self.owner, "owner_path": self.owner_path, "group": self.group,
            "saved_by": self.saved_by if self.status == "rejected" else [], "details": self.has_details,
            "id": self.id, "subject": self.subject, "kind": self.kind, "owners": self.owners, "owners_source": self.owners_source,
            "kept_because": self.kept_because,
            "proof": self.proof, "benefit_lines": self.gain.lines, "benefit_kind": self.gain.kind.value,
            "heat": self.gain.heat.value, "heat_reason": self.gain.heat_reason, "micro": self.gain.micro,
            "score": score(self.gain), "members": self.members,
        }


@dataclass
class Audit:
    """Everything a report shows."""

    root: str
    tool: dict[str, str]
    audit_base: dict[str, Any]
    scanned: dict[str, Any]
    contracts: dict[str, Any]
    not_run: list[dict[str, str]]
    candidates: list[Finding]
    rejected: list[Finding]
    other_messages: int = 0
    rules: dict[str, dict[str, str]] = field(default_factory=dict)  # symbol -> msgid, description
    adoption: Adoption = field(default_factory=Adoption)  # baseline, keep list, grouping (reporters.adoption)
    entries: list[Entry] = field(default_factory=list)  # the candidates ranked and bundled (`evidence.ranking`)

    def groups(self) -> list[tuple[str, list[Finding]]]:
        """Candidates by owning contract (else package), groups with the most high ones first."""
        grouped: dict[str, list[Finding]] = {}
        for finding in self.candidates:
            grouped.setdefault(finding.group, []).append(finding)
        return sorted(grouped.items(), key=lambda item: (
            -sum(f.confidence == "high" for f in item[1]), -len(item[1]), item[1][0].owner is None, item[0]))

    def findings_of(self, entry: Entry) -> list[Finding]:
        return [self.candidates[member.key] for member in entry.members]

    def entry_groups(self) -> list[tuple[str, list[Entry]]]:
        """The ranked entries by the group of their findings, in the order of `groups()`."""
        by_group: dict[str, list[Entry]] = {}
        for entry in self.entries:
            by_group.setdefault(self.candidates[entry.lead.key].group, []).append(entry)
        return [(group, by_group[group]) for group, _ in self.groups() if group in by_group]

    def top(self) -> list[Entry]:
        return top(self.entries)

    def number_of(self) -> dict[int, int]:
        """`C<n>` of each entry (by its lead finding), as the report shows them: group by group, compact ones last."""
        numbers: dict[int, int] = {}
        for _, entries in self.entry_groups():
            for entry in [e for e in entries if not e.compact] + [e for e in entries if e.compact]:
                numbers[entry.lead.key] = len(numbers) + 1
        return numbers


    def counts_by(self, key: str) -> dict[str, dict[str, int]]:
        """{symbol or group: {high, medium, rejected}} for the summary tables."""
        table: dict[str, dict[str, int]] = {}
        for finding in [*self.candidates, *self.rejected]:
            row = table.setdefault(getattr(finding, key), {"high": 0, "medium": 0, "rejected": 0})
            row[finding.confidence if finding.status == "candidate" and finding.confidence in row else "rejected"] += 1
        return table


def rank(candidates: list[Finding]) -> list[Entry]:
    """The report's entries: the ranking and bundling policy of `evidence.ranking`, applied."""
    return plan(Ranked(i, f.symbol, f.path, f.line, f.confidence or "medium", f.gain) for i, f in enumerate(candidates))


def package_group(path: str) -> str:
    """The package a path belongs to, two levels deep (`pkg/sub`), for findings no contract owns."""
    parts = path.split("/")
    folder = parts[:2] if len(parts) > 2 else parts[:1] if len(parts) > 1 else ["(project root)"]
    return "package " + "/".join(folder)


def _from_record(record: dict[str, Any], msgid: str, message: str | None = None) -> Finding:
    details = bool(record.get("simplification"))
    return Finding(
        symbol=record["symbol"], msgid=msgid, path=record["path"], line=record["line"], column=record["column"],
        status=record["status"], confidence=record.get("confidence"), message=message or record["message"],
        reason=record.get("reason", ""), surface=list(record.get("surface") or []),
        evidence={kind: list(record.get("evidence", {}).get(kind, [])) for kind in EVIDENCE_KINDS},
        unknowns=list(record.get("unknowns") or []),
        simplification=record["simplification"] if details else None,
        benefit=(record.get("benefit") or {}).get("text") if details else None, risk=record.get("risk") if details else None,
        gain=Benefit.from_json(record.get("benefit") or {}), proof=record.get("proof") or "",
        validation=list(record.get("validation") or []), owner=record.get("owner"), owner_path=record.get("owner_path"),
        group=record.get("owner") or package_group(record["path"]),
        id=record.get("id", ""), subject=record.get("subject", ""), kind=record.get("kind", ""), owners=list(record.get("owners") or []),
        owners_source=record.get("owners_source", ""), kept_because=record.get("kept_because"),
        members=list(record.get("members") or []),
    )


def _from_message(msg: Message, relpath: str) -> Finding:
    confidence = CONFIDENCE_OF_PYLINT.get(msg.confidence.name)
    text = untagged(msg.msg)
    subject = fallback_subject(relpath, [], text)
    return Finding(
        symbol=msg.symbol, msgid=msg.msg_id, path=relpath, line=msg.line, column=msg.column,
        status="candidate" if confidence else "rejected", confidence=confidence, message=text,
        reason="" if confidence else text, surface=[], evidence=None, unknowns=[], simplification=None,
        benefit=None, risk=None, gain=NO_GAIN, proof="", validation=[], owner=None, owner_path=None, group=package_group(relpath),
        id=finding_id(msg.symbol, subject, ""), subject=subject,
    )


def _taken_in(record: dict[str, Any]) -> dict[str, Any]:
    """A finding of another message inside code a change deletes, as that change lists it."""
    span = record.get("benefit", {}).get("lines") or 1
    return {"symbol": record["symbol"], "kind": record.get("kind", ""), "subject": record.get("subject", ""),
            "id": record.get("id", ""), "path": record["path"], "line": record["line"], "lines": span,
            "confidence": record.get("confidence"), "what": record["message"], "taken_in": True}


def _relpath(path: str, root: Path) -> str:
    try:
        return Path(os.path.realpath(path)).relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        return Path(path).as_posix()


def join_findings(
    messages: Iterable[Message], records: Iterable[dict[str, Any]], root: Path, msgids: dict[str, str],
) -> tuple[list[Finding], list[Finding]]:
    """(candidates, rejected ideas): each omni message joined with its record, plus rejected records."""
    unused: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    taken_in: dict[str, list[dict[str, Any]]] = {}  # change set id -> the findings it takes in
    seen: set[tuple[Any, ...]] = set()
    for record in records:
        identity = (record["root"], record["path"], record["line"], record["column"], record["symbol"], record["message"], record["status"])
        if identity in seen:  # a file linted twice writes its records twice
            continue
        seen.add(identity)
        if record["status"] == "absorbed":
            taken_in.setdefault(record.get("within", ""), []).append(_taken_in(record))
            continue
        abspath = os.path.realpath(Path(record["root"]) / record["path"])
        unused.setdefault((abspath, record["line"], record["symbol"]), []).append(record)
    candidates: list[Finding] = []
    rejected: list[Finding] = []
    for msg in messages:
        relpath = _relpath(msg.abspath, root)
        pending = unused.get((os.path.realpath(msg.abspath), msg.line, msg.symbol), [])
        text = untagged(msg.msg)  # the record holds the text without the confidence tag pylint prints
        match = next((r for r in pending if r["message"] == text), None) or next(
            (r for r in pending if r["column"] == msg.column), None) or (pending[0] if pending else None)
        if match is not None:
            pending.remove(match)
            finding = _from_record(match, msg.msg_id, text)
        else:
            finding = _from_message(msg, relpath)
        (candidates if finding.status == "candidate" else rejected).append(finding)
    # Candidate records left over were silenced (pragma, --confidence); rejected ones are ideas.
    for pending in unused.values():
        rejected.extend(_from_record(r, msgids.get(r["symbol"], "")) for r in pending if r["status"] == "rejected")
    for finding in candidates:
        finding.members += taken_in.get(finding.id, [])
    candidates.sort(key=lambda f: (CONFIDENCE_RANK.get(f.confidence or "", 2), f.path, f.line, f.symbol))
    rejected.sort(key=lambda f: (f.symbol, f.path, f.line))
    return candidates, rejected


def _project_facts(root: Path, linter: PyLinter, linted: set[str]) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, str]]]:
    """(scanned counts, contracts summary, checks that could not run) from the warm index; `linted`: the
    relative paths of the modules this run linted."""
    try:
        index = get_index(root, RunOptions.of(linter.config).for_root(root))
    except (InputProblem, OSError) as exc:
        return {}, {}, [{"what": str(root), "reason": f"the project index could not be built: {exc}"}]
    counts = index.counts()
    scanned = {"files_by_kind": counts["files_by_kind"], "definitions": counts["definitions"],
               "registries": counts["registries"], "searched": searched_summary(index)}
    # A missing upstream weakens whole messages: listed first, before any one file the index could not read.
    not_run = [{"what": f"upstream {name}", "reason": f"imported by the project, but not installed where pylint ran nor in "
                f"omni-upstream-paths: {weakens} (install it, or point omni-upstream-paths at its source)"}
               for name, weakens in missing_upstreams(index)]
    not_run += [{"what": f"git submodule {path}", "reason": f"not checked out: {weakens}"} for path, weakens in missing_submodules(index)]
    not_run += [{"what": folder, "reason": f"not linted: {weakens}"} for folder, weakens in unlinted_folders(index, linted)]
    if not linter.config.recursive:
        not_run += [{"what": path, "reason": f"shadowed: {why}"} for path, why in shadowed_modules(index)]
    not_run += [{"what": path, "reason": reason} for path, reason in counts["problems"].items()]
    if index.cache_note:
        not_run.append({"what": "index cache", "reason": index.cache_note})
    templated = counts["templated"]
    if templated:
        not_run.append({"what": f"{len(templated)} templated YAML files (Helm/Jinja), e.g. {templated[0]}",
                        "reason": "read as text (words only) until rendered; keys and values are not structured"})
    contract_set = contracts_of(index)
    not_run.extend({"what": path, "reason": f"design contract front matter: {reason}"} for path, reason in contract_set.problems.items())
    active = [c for c in contract_set.active if c.primary or c.related]
    if not contract_set.has_design_folder:
        not_run.append({"what": "docs/design/", "reason": "no design pages: no contract owns code, findings are grouped by package"})
    elif not active:
        not_run.append({"what": "docs/design/", "reason": "no active page names code paths in its front matter: findings are grouped by package"})
    contracts = {
        "active": [{"title": c.title, "path": c.path, "validation_paths": list(c.validation_paths)} for c in active],
        "inactive": [c.path for c in contract_set.contracts if not c.active],
    }
    return scanned, contracts, not_run


def build_audit(linter: PyLinter, messages: list[Message], linted_files: list[str], folder: Path | None) -> Audit:
    """The audit of one pylint run: its messages, the records in `folder`, the project facts."""
    settings = RunOptions.of(linter.config).base()
    records = list(read_records(folder)) if folder is not None and folder.is_dir() else []
    if settings.root is not None:
        root = settings.root
    elif records:
        root = Path(records[0]["root"])
    else:
        root = find_project_root(linted_files[0]) if linted_files else Path.cwd()
    rules = {
        definition.symbol: {"msgid": definition.msgid, "description": definition.description}
        for definition in linter.msgs_store.messages
        if definition.msgid[1:3] == OMNI_MSGID_PREFIX and definition.msgid[0] == "R"
    }
    omni = [m for m in messages if m.msg_id[1:3] == OMNI_MSGID_PREFIX and not m.msg_id.startswith("I")]
    records, kept, known = split_held(records)
    candidates, rejected = join_findings(omni, records, root, {symbol: rule["msgid"] for symbol, rule in rules.items()})
    scanned, contracts, not_run = _project_facts(root, linter, linted_relpaths(linted_files, root)) if linted_files or records else ({}, {}, [])
    scanned["modules_linted"] = len(linted_files)
    listed = {item["what"] for item in not_run}
    for m in messages:  # a file the index could not read either is listed once, with the index's reason
        what = _relpath(m.abspath, root)
        if m.symbol in UNCHECKED_SYMBOLS and what not in listed:
            listed.add(what)
            not_run.append({"what": what, "reason": f"pylint could not check it ({m.symbol}): {m.msg}"})
    adoption = adoption_facts(RunOptions.of(linter.config).for_root(root), kept, known,
                              {f.id for f in [*candidates, *rejected]}, linted_relpaths(linted_files, root))
    return Audit(
        root=str(root), tool=tool_versions(), audit_base=audit_base(root), scanned=scanned, contracts=contracts,
        not_run=not_run, candidates=candidates, rejected=rejected,
        other_messages=sum(1 for m in messages if m.msg_id[1:3] != OMNI_MSGID_PREFIX), rules=rules, adoption=adoption,
        entries=rank(candidates),
    )
