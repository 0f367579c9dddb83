"""A whole-project family's findings, kept between runs while nothing they depend on changed.

A family that judges every file against the whole project (reachability, copy
groups, owners of a field anywhere in the hierarchy) cannot re-judge one file alone:
any file may change any verdict. What it can do is not judge again when the project
is exactly as it was. The memo is keyed by the content of every indexed file (a
digest per file, so an editor buffer equal to the file on disk keeps the key), the
settings, the messages enabled, the plugin's own code and the pylint and astroid
versions; on a hit each checker replays a file's findings instead of visiting it
(`evidence.checker`). A run after any change misses, visits every file again, and
writes what it found once, at the end of the run.

Each planned finding keeps its line and what it is anchored at (the module, or the
node's type and column), its text, verdict and details: everything `emit` needs but
the astroid node, which the checker finds again at replay.
"""

from __future__ import annotations

import hashlib
import platform
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

import astroid
import pylint

from pylint_omni.evidence.benefit import Benefit
from pylint_omni.evidence.consumers import Consumer, ConsumerKind, Status, Verdict
from pylint_omni.evidence.findings import FindingDetails, MemberRef
from pylint_omni.index import cache
from pylint_omni.index.collector import keep_out
from pylint_omni.index.derived import Built
from pylint_omni.index.external import external_indexes
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.settings import OmniSettings
from pylint_omni.index.upstream.locate import locate, names_in_paths

MODULE = "module"
DEFINITION = "def"  # the `def` or `class` statement that starts at the finding's line
ASSIGNMENT = "assignment"  # the first assignment statement at the finding's line
STATEMENT = "stmt"  # the first statement that starts at the finding's line
AT = "at:"  # AT + column: the first key, call or assignment at that line and column
_IN_MEMORY: dict[Path, tuple[str, dict[str, dict[str, list[Any]]]]] = {}  # memo file -> the state and findings last read or written

_MEMO: Built[FindingsMemo] = Built("evidence.findings_memo")


@dataclass(frozen=True)
class Planned:
    """One finding a family will emit in a file: where, what it says, and its evidence."""

    symbol: str
    line: int
    anchor: str  # MODULE, DEFINITION, ASSIGNMENT or "<node type>:<column>": the node found again at `line`
    args: tuple[str, ...]
    verdict: Verdict
    details: FindingDetails | None


@lru_cache(maxsize=1)
def plugin_digest() -> str:
    """The plugin's own code, the interpreter, pylint and astroid: a changed rule never replays old findings."""
    versions = f"{platform.python_version()}|{pylint.__version__}|{astroid.__version__}"
    digest = hashlib.blake2b(versions.encode(), digest_size=16)
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


def outside_state(settings: OmniSettings, project_root: Path) -> list[str]:
    """What the findings read outside the project: each upstream package's version and folder, each external root's
    files (named, or a sibling project of its repository)."""
    listed = dict.fromkeys([*settings.upstream_packages, *names_in_paths(settings.upstream_paths)])
    found = [f"{where.name}={where.version}@{where.folder}" for name in listed
             if (where := locate(name, settings.upstream_paths, settings.upstream_installed)) is not None]
    return found + [f"{root.label}:{project_state(other, [])}" for root, other in external_indexes(settings, project_root)]


def encode_verdict(verdict: Verdict) -> list[Any]:
    """A verdict as JSON (its consumers too): one codec for every cache of verdicts."""
    consumers = [[c.path, c.line, c.via, c.kind.value, c.token] for c in verdict.consumers]
    return [verdict.status.value, verdict.confidence, verdict.reason, consumers, verdict.unknowns]


def decode_verdict(data: list[Any]) -> Verdict:
    status, confidence, reason, consumers, unknowns = data
    return Verdict(Status(status), confidence, reason,
                   [Consumer(p, line, via, ConsumerKind(kind), token) for p, line, via, kind, token in consumers],
                   list(unknowns))


def _encode_details(details: FindingDetails | None) -> dict[str, Any] | None:
    if details is None:
        return None
    return {"surface": details.surface, "simplification": details.simplification,
            "benefit": details.benefit.as_json(), "risk": details.risk, "names": details.names,
            "proof": details.proof, "subject": details.subject, "kind": details.kind,
            "members": [member.as_json() for member in details.members], "within": details.within}


def _decode_details(data: dict[str, Any] | None) -> FindingDetails | None:
    if data is None:
        return None
    return FindingDetails(list(data["surface"]), data["simplification"], Benefit.from_json(data["benefit"]),
                          data["risk"], list(data["names"]), data["proof"], data["subject"], data["kind"],
                          tuple(MemberRef.from_json(m) for m in data.get("members", ())), data.get("within", ""))


def encode(planned: Planned) -> list[Any]:
    return [planned.symbol, planned.line, planned.anchor, list(planned.args), encode_verdict(planned.verdict),
            _encode_details(planned.details)]


def decode(data: list[Any]) -> Planned:
    symbol, line, anchor, args, verdict, details = data
    return Planned(symbol, line, anchor, tuple(args), decode_verdict(verdict), _decode_details(details))


class FindingsMemo:
    """The planned findings of each checker for one project state, by file (empty when the state is new).

    A file a checker visited with no finding is kept as an empty list: "nothing to
    say" is a result too; a file it never visited is not memoised (None).
    """

    def __init__(self, index: ProjectIndex, state: str) -> None:
        self.path = index.derived_cache("findings", "")
        self.state = state
        self._sections: dict[str, dict[str, list[Any]]] = {}
        self._captured: dict[str, dict[str, list[Planned]]] = {}
        if self.path is None:
            return
        kept = _IN_MEMORY.get(self.path)
        if kept is not None and kept[0] == state:  # a long-lived process (an editor's): no read from disk
            self._sections = kept[1]
            return
        document = cache.load_document(self.path)
        sections = document.get("checkers") if document and document.get("state") == state else None
        if isinstance(sections, dict):
            self._sections = sections
            _IN_MEMORY[self.path] = (state, sections)
        keep_out()  # lives for the run: out of the cyclic collector's walks (`index.collector`)

    def planned(self, checker: str, relpath: str) -> list[Planned] | None:
        """The file's findings from an earlier run of this state, or None when that run did not visit it."""
        found = self._sections.get(checker, {}).get(relpath)
        if found is None:
            return None
        try:
            return [decode(item) for item in found]
        except (KeyError, TypeError, ValueError):  # a memo of another shape: visit again
            return None

    def adopt(self, relpath: str, sections: dict[str, list[Any]]) -> None:
        """A file's encoded findings from another process that visited it in this state (`evidence.split_run`)."""
        for checker, found in sections.items():
            self._sections.setdefault(checker, {})[relpath] = found

    def captured_in(self, relpath: str) -> dict[str, list[Any]]:
        """What this process captured in one file, encoded, by checker."""
        return {checker: [encode(p) for p in files[relpath]] for checker, files in self._captured.items() if relpath in files}

    def capture(self, checker: str, relpath: str) -> list[Planned]:
        """The list a visit appends its findings to, kept when the memo is saved."""
        return self._captured.setdefault(checker, {}).setdefault(relpath, [])

    def save(self) -> None:
        """Keep what this run captured with what it replayed (best effort: a memo not written is visited again)."""
        if self.path is None or not self._captured:
            return
        for checker, files in self._captured.items():
            section = self._sections.setdefault(checker, {})
            for relpath, found in files.items():
                section[relpath] = [encode(p) for p in found]
        self._captured = {}
        cache.save_document(self.path, {"state": self.state, "checkers": self._sections})
        _IN_MEMORY[self.path] = (self.state, self._sections)


_OPEN: list[FindingsMemo] = []  # memos of this process with captured findings not saved yet


def memo_of(index: ProjectIndex, context: Callable[[], Iterable[str]]) -> FindingsMemo:
    """The findings memo of the index's current state (one per state; a new buffer is a new state)."""
    def start() -> FindingsMemo:
        memo = FindingsMemo(index, project_state(index, context()))
        _OPEN.append(memo)
        return memo

    return _MEMO.of(index, start)


def save_memos() -> None:
    """Write every memo of this process that captured findings."""
    while _OPEN:
        _OPEN.pop().save()
