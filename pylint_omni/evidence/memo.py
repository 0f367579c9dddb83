"""A whole-project family's findings, kept between runs while nothing they depend on changed.

A family that judges every file against the whole project (reachability, copy
groups) cannot re-judge one file alone: any file may change any verdict. What it can
do is not judge again when the project is exactly as it was. The memo is keyed by
the content of every indexed file (a digest per file, so an editor buffer equal to
the file on disk keeps the key), the settings, the messages enabled and the plugin's
own code; on a hit the family replays each file's planned findings instead of
building its analysis. The first run after any change misses and plans every
audited file again, then writes the memo once.

Each planned finding keeps its line and what it is anchored at (the module, a
definition, an assignment), its text, verdict and details: everything `emit` needs
but the astroid node, which the checker finds again at replay.
"""

from __future__ import annotations

import hashlib
import platform
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from pylint_omni.evidence.benefit import Benefit
from pylint_omni.evidence.consumers import Consumer, ConsumerKind, Status, Verdict
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.index import cache
from pylint_omni.index.project_index import ProjectIndex

MODULE, DEFINITION, ASSIGNMENT = "module", "definition", "assignment"


@dataclass(frozen=True)
class Planned:
    """One finding a family will emit in a file: where, what it says, and its evidence."""

    symbol: str
    line: int
    anchor: str  # MODULE | DEFINITION | ASSIGNMENT: the node found again at `line`
    args: tuple[str, ...]
    verdict: Verdict
    details: FindingDetails | None


@lru_cache(maxsize=1)
def plugin_digest() -> str:
    """The plugin's own code (and the interpreter): a changed rule never replays old findings."""
    digest = hashlib.blake2b(platform.python_version().encode(), digest_size=16)
    package = Path(__file__).resolve().parent.parent
    for source in sorted(package.rglob("*.py")):
        digest.update(source.relative_to(package).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def project_state(index: ProjectIndex, context: Iterable[str]) -> str:
    """Digest of every indexed file's content (its stat when no digest was kept), plus `context`."""
    digest = hashlib.blake2b(plugin_digest().encode(), digest_size=16)
    for part in context:
        digest.update(part.encode("utf-8", "surrogatepass") + b"\x00")
    for rel, entry in sorted(index.entries.items()):
        same = entry.get("digest") or f"{entry.get('size')}:{entry.get('mtime')}"
        digest.update(f"{rel}\x00{same}\x01".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _encode_verdict(verdict: Verdict) -> list[Any]:
    consumers = [[c.path, c.line, c.via, c.kind.value, c.token] for c in verdict.consumers]
    return [verdict.status.value, verdict.confidence, verdict.reason, consumers, verdict.unknowns]


def _decode_verdict(data: list[Any]) -> Verdict:
    status, confidence, reason, consumers, unknowns = data
    return Verdict(Status(status), confidence, reason,
                   [Consumer(p, line, via, ConsumerKind(kind), token) for p, line, via, kind, token in consumers],
                   list(unknowns))


def _encode_details(details: FindingDetails | None) -> dict[str, Any] | None:
    if details is None:
        return None
    return {"surface": details.surface, "simplification": details.simplification,
            "benefit": details.benefit.as_json(), "risk": details.risk, "names": details.names,
            "proof": details.proof, "subject": details.subject, "kind": details.kind}


def _decode_details(data: dict[str, Any] | None) -> FindingDetails | None:
    if data is None:
        return None
    return FindingDetails(list(data["surface"]), data["simplification"], Benefit.from_json(data["benefit"]),
                          data["risk"], list(data["names"]), data["proof"], data["subject"], data["kind"])


def encode(planned: Planned) -> list[Any]:
    return [planned.symbol, planned.line, planned.anchor, list(planned.args), _encode_verdict(planned.verdict),
            _encode_details(planned.details)]


def decode(data: list[Any]) -> Planned:
    symbol, line, anchor, args, verdict, details = data
    return Planned(symbol, line, anchor, tuple(args), _decode_verdict(verdict), _decode_details(details))


class FindingsMemo:
    """The planned findings of one family for one project state (empty when the state is new)."""

    def __init__(self, index: ProjectIndex, family: str, state: str) -> None:
        self.path = index.derived_cache(f"{family}-findings", "")
        self.state = state
        document = cache.load_document(self.path) if self.path is not None else None
        self.hit = bool(document) and document.get("state") == state and isinstance(document.get("files"), dict)
        self._files: dict[str, list[Any]] = document["files"] if self.hit and document else {}

    def planned(self, relpath: str) -> list[Planned]:
        """The file's findings (a hit: decoded from the memo)."""
        try:
            return [decode(item) for item in self._files.get(relpath, [])]
        except (KeyError, TypeError, ValueError):  # a memo of another shape: nothing to replay
            return []

    def save(self, by_file: dict[str, list[Planned]]) -> None:
        """Keep every file's findings for this state (best effort: a memo not written is planned again)."""
        if self.path is None:
            return
        self._files = {rel: [encode(p) for p in found] for rel, found in by_file.items() if found}
        self.hit = True
        cache.save_document(self.path, {"state": self.state, "files": self._files})
