"""Structured findings for the reporters, written beside pylint's own messages.

A pylint message carries one line of text. The audit report needs more: the
surface, consumers by kind, the owning contract, the simplification, the benefit,
the risk and the narrowest validation. When a pylint-omni reporter is active it sets
`PYLINT_OMNI_FINDINGS_DIR` before linting starts; every checker (in the main process
or in a `-j N` worker, which inherits the environment) appends one JSON line per
finding — candidates and rejected ideas alike — to a file of its own process. The
reporter reads them back and joins them with the messages pylint emitted, so a
finding silenced by `# pylint: disable=` stays out of the report.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.contracts import contracts_of
from pylint_omni.evidence.consumers import ConsumerKind, Status, Verdict
from pylint_omni.evidence.identity import fallback_subject
from pylint_omni.evidence.owners import owners_of
from pylint_omni.index.project_index import ProjectIndex

FINDINGS_DIR_ENV = "PYLINT_OMNI_FINDINGS_DIR"
NO_BENEFIT = Benefit(0, BenefitKind.API, "")  # a checker that gave no details


@dataclass(frozen=True)
class MemberRef:
    """One member of a change set (`pylint_omni.changes`): a finding its family would emit alone, as the report
    and the JSON list it under the candidate. `id` is the member's own finding id (the one a per-member run
    emits), so a baseline or keep entry written at either granularity still matches."""

    symbol: str
    kind: str
    subject: str
    id: str
    path: str
    line: int
    lines: int
    confidence: str | None
    what: str  # the member's own message

    def as_json(self) -> dict[str, object]:
        return {"symbol": self.symbol, "kind": self.kind, "subject": self.subject, "id": self.id, "path": self.path,
                "line": self.line, "lines": self.lines, "confidence": self.confidence, "what": self.what}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MemberRef:
        return cls(str(data["symbol"]), str(data["kind"]), str(data["subject"]), str(data["id"]), str(data["path"]),
                   int(data["line"]), int(data["lines"]), data.get("confidence"), str(data["what"]))


@dataclass
class FindingDetails:
    """What a checker knows about a finding beyond its verdict."""

    surface: list[str]
    simplification: str
    benefit: Benefit
    risk: str
    names: list[str] = field(default_factory=list)  # symbols whose tests validate the change
    proof: str = ""  # the checker's own proof, in full (the message keeps one short clause of it)
    # The surface's qualified name (`pkg.mod.Class.field`, `pkg.mod.TABLE['key']`, or `path::what`)
    # and which rule of the message found it: with the symbol they make the finding id (`identity`).
    subject: str = ""
    kind: str = ""
    # A change set (`pylint_omni.changes`): the findings it stands for, and the finding ids a baseline may hold
    # instead of its own; `within`: the id of the change set that takes this finding in (it is not emitted).
    members: tuple[MemberRef, ...] = ()
    within: str = ""


@dataclass
class FindingRecord:
    """One finding as the report shows it (stable keys: the JSON report exposes them)."""

    symbol: str
    path: str
    line: int
    column: int
    status: str
    confidence: str | None
    reason: str
    message: str
    proof: str
    surface: list[str]
    evidence: dict[str, list[str]]
    searched: str
    unknowns: list[str]
    simplification: str
    benefit: dict[str, object]  # `Benefit.as_json()`; empty when the checker gave no details
    risk: str
    validation: list[str]
    owner: str | None
    owner_path: str | None
    root: str
    id: str = ""  # evidence.identity.finding_id: stable across unrelated edits
    subject: str = ""
    kind: str = ""
    owners: list[str] = field(default_factory=list)  # contract `owners`, else CODEOWNERS
    owners_source: str = ""
    kept_because: str | None = None  # status "kept": the keep entry's reason and where it is
    members: list[dict[str, object]] = field(default_factory=list)  # `MemberRef.as_json()` of a change set
    within: str = ""  # status "absorbed": the id of the change set that takes it in


MAX_VALIDATION = 8  # test files and docs rows listed as a change's validation


def _validation_naming(index: ProjectIndex, names: list[str]) -> list[str]:
    """The narrowest validation of a change: the test files that name any of its members, then the docs rows
    (`page:line`) that describe one (a change set's members all count, not only its root)."""
    tests: list[str] = []
    docs: list[str] = []
    for name in dict.fromkeys(names):
        for hit in index.hits(name):
            if hit.path.startswith(("tests/", "test/")) or "/tests/" in hit.path:
                if hit.path not in tests:
                    tests.append(hit.path)
            elif hit.via == "doc" and f"{hit.path}:{hit.line}" not in docs:
                docs.append(f"{hit.path}:{hit.line}")
    return (tests + docs)[:MAX_VALIDATION]


def build_record(
    index: ProjectIndex,
    relpath: str,
    symbol: str,
    line: int,
    column: int,
    verdict: Verdict,
    message: str,
    details: FindingDetails | None,
    searched: str,
    identity: tuple[str, str] = ("", ""),
    held: tuple[str, str | None] | None = None,
) -> FindingRecord:
    """Join a verdict with ownership and validation (the evidence pass, not the reporter).

    Without `details` (a checker that gives none yet) surface, simplification, benefit
    and risk stay empty: the report says so and shows the message instead.
    `identity` is (id, subject); `held` is ("kept", reason) or ("known", None) for a
    candidate the keep list or the baseline holds back.
    """
    details = details or FindingDetails([], "", NO_BENEFIT, "")
    owners, owners_source = owners_of(index, relpath)
    status = held[0] if held is not None else "absorbed" if details.within else verdict.status.value
    owner = contracts_of(index).owner_of(relpath)
    contract = owner[0] if owner else None
    validation = list(contract.validation_paths) if contract and contract.validation_paths else _validation_naming(index, details.names)
    return FindingRecord(
        symbol=symbol,
        path=relpath,
        line=line,
        column=column,
        status=status,
        confidence=verdict.confidence if verdict.status is Status.CANDIDATE else None,
        reason=verdict.reason,
        message=message,
        proof=details.proof,
        surface=details.surface,
        evidence={kind.value: [c.describe() for c in verdict.by_kind(kind)] for kind in ConsumerKind},
        searched=searched,
        unknowns=verdict.unknowns,
        simplification=details.simplification,
        benefit=details.benefit.as_json() if details.benefit is not NO_BENEFIT else {},
        risk=details.risk,
        validation=validation,
        owner=contract.describe() if contract else None,
        owner_path=contract.path if contract else None,
        root=str(index.root),
        id=identity[0],
        subject=identity[1] or fallback_subject(relpath, details.surface, message),
        kind=details.kind,
        owners=owners,
        owners_source=owners_source,
        kept_because=held[1] if held is not None else None,
        members=[member.as_json() for member in details.members],
        within=details.within,
    )


def recording_findings() -> bool:
    """Whether a reporter asked for finding records (the folder variable is set)."""
    return bool(os.environ.get(FINDINGS_DIR_ENV))


_WRITING = [True]  # False in a process whose findings another process replays and records (`evidence.split_run`)


def stop_writing_records() -> None:
    """This process's findings are recorded by the process that replays them."""
    _WRITING[0] = False


def write_record(record: FindingRecord) -> None:
    """Append the record to this process's findings file, when a reporter asked for them."""
    folder = os.environ.get(FINDINGS_DIR_ENV)
    if not folder or not _WRITING[0]:
        return
    try:
        with open(Path(folder) / f"findings-{os.getpid()}.jsonl", "a", encoding="utf-8") as handle:
            handle.write(json.dumps(asdict(record)) + "\n")
    except OSError:
        return  # the report will say the finding has no details; linting goes on


def read_records(folder: Path) -> Iterator[dict[str, Any]]:
    for path in sorted(folder.glob("findings-*.jsonl")):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    yield json.loads(line)
