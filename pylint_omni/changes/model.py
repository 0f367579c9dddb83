"""The facts that cross into the change-set stage: members the families hand over, and the sets made of them.

A family that can judge the whole project from the index alone (no astroid) registers
a *source* (`register_source`): a function from the index to the `Member`s it would
emit, each with the finding it would emit alone (`Planned`) and where it sits. The
stage (`changes.plan`) folds them into `ChangeSet`s; the family's checker emits what
the stage planned for its file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.findings import FindingDetails, MemberRef
from pylint_omni.evidence.identity import finding_id
from pylint_omni.evidence.memo import Planned
from pylint_omni.index.project_index import ProjectIndex

Span = tuple[str, int, int]  # (relpath, first line, last line) of code a change deletes
UNUSED, UNREAD, ENTRY = "unused-surface", "unread-config-option", "unused-registry-entry"
TEST_ONLY = "test-only-surface"
HIGH = "high"
NEVER = {"dead": "never: no production path reaches it", "test-only": "never in production: only validation code runs it"}


@dataclass(frozen=True)
class Member:
    """One verdict of a family, as the change-set stage folds it.

    `unit` says what it is (`method`, `function`, `class`, `module`, `field`, `cli`,
    `env`, `yaml-key`, `entry`, `route`, `event`, ...); `container` the dotted name of
    what holds it (a class, a module, a registry, a config class); `status` what the
    family found (`dead`, `test-only`, `unread`, `unused-entry`, ...).
    """

    planned: Planned
    path: str
    end: int
    unit: str
    dotted: str
    container: str
    status: str
    deletes: tuple[Span, ...] = ()  # the code deleting it removes (the member's own span when empty)
    needs: tuple[str, ...] = ()  # dotted names of members it is dead only through (it goes when they do)
    siblings: int = 0  # how many members of its kind its container holds (0: unknown), to tell "every entry"
    parts: tuple[tuple[str, Span], ...] = ()  # what else goes when every sibling goes (a table's `__getattr__`)
    container_at: tuple[int, str] | None = None  # (line, anchor) of a table's own statement (a whole table goes there)
    names: tuple[str, ...] = ()  # short names of every definition it deletes, its own first (default: its own)
    leftovers: tuple[str, ...] = ()  # `path:line` of other modules' imports of it that nothing else uses: they go too

    @property
    def symbol(self) -> str:
        return self.planned.symbol

    @property
    def line(self) -> int:
        return self.planned.line

    @property
    def confidence(self) -> str | None:
        return self.planned.verdict.confidence

    @property
    def details(self) -> FindingDetails | None:
        return self.planned.details

    @property
    def lines(self) -> int:
        details = self.planned.details
        return details.benefit.lines if details is not None and details.benefit.lines else self.end - self.line + 1

    @property
    def named(self) -> tuple[str, ...]:
        return self.names or (self.dotted.rpartition(".")[2].partition("@")[0],)

    @property
    def spans(self) -> tuple[Span, ...]:
        return self.deletes or ((self.path, self.line, self.end),)

    @property
    def subject(self) -> str:
        details = self.planned.details
        return details.subject if details is not None and details.subject else self.dotted

    @property
    def kind(self) -> str:
        details = self.planned.details
        return details.kind if details is not None else ""

    def ref(self) -> MemberRef:
        """The member as its change set lists it; its id is the one a per-member run emits."""
        return MemberRef(self.symbol, self.kind, self.subject, finding_id(self.symbol, self.subject, self.kind), self.path,
                         self.line, self.lines, self.confidence, self.planned.args[-1] if self.planned.args else "")


@dataclass(frozen=True)
class ChangeSet:
    """One candidate: the change a maintainer would make in one pull request.

    `planned` is the one message at the root (its details list the members); `kind`
    the rule that made it (`single`, `class-cluster`, `config-class`, `table`,
    `module-helpers`, `lost-feature`); `spans` the code the change deletes: any other
    finding inside a high-confidence set is taken in (`within`), not emitted.
    """

    planned: Planned
    path: str
    kind: str
    members: tuple[Member, ...]
    spans: tuple[Span, ...]

    @property
    def id(self) -> str:
        details = self.planned.details
        subject = details.subject if details is not None else ""
        return finding_id(self.planned.symbol, subject, details.kind if details is not None else "")


@dataclass(frozen=True)
class Feed:
    """Something the project still produces (a config key shipped in deploy YAML, a command-line option, a
    documented setting) and the production code that reads it: if every reader dies, the feature is lost."""

    what: str  # "config key `runtime.env`"
    how: str  # how it is still produced: "set", "offered", "documented"
    produced: tuple[str, ...]  # where: `deploy/a.yaml:12 (yaml-key)`, the flag, a docs line
    readers: tuple[tuple[str, int], ...]  # (relpath, line) of each production read
    declared: tuple[str, int]  # where the option is declared


Source = Callable[[ProjectIndex], Iterable[Member]]
Feeds = Callable[[ProjectIndex], Iterable[Feed]]


@dataclass(frozen=True)
class RegisteredSource:
    symbols: frozenset[str]
    members: Source


_SOURCES: dict[str, RegisteredSource] = {}
_FEEDS: dict[str, tuple[frozenset[str], Feeds]] = {}


def register_source(name: str, symbols: frozenset[str], members: Source) -> None:
    """A family's whole-project verdicts, for the messages `symbols` (the plugin registers each family's)."""
    _SOURCES[name] = RegisteredSource(symbols, members)


def sources() -> list[tuple[str, RegisteredSource]]:
    return sorted(_SOURCES.items())


def register_feeds(name: str, symbols: frozenset[str], feeds: Feeds) -> None:
    """A family's options that production reads and something still sets (for lost features)."""
    _FEEDS[name] = (symbols, feeds)


def feed_sources() -> list[tuple[str, frozenset[str], Feeds]]:
    return [(name, symbols, feeds) for name, (symbols, feeds) in sorted(_FEEDS.items())]


def merged_verdict(members: list[Member], confidence: str) -> Verdict:
    """One verdict for members of one confidence: the first reason when high, every doubt when medium."""
    if confidence == HIGH:
        return Verdict(Status.CANDIDATE, HIGH, members[0].planned.verdict.reason, [])
    doubts = list(dict.fromkeys(d for m in members for d in m.planned.verdict.unknowns))
    return Verdict(Status.CANDIDATE, "medium", doubts[0] if doubts else members[0].planned.verdict.reason, [], doubts)


def dead_code_verdict(members: list[Member], confidence: str) -> Verdict:
    """The verdict of a change that deletes code nothing reaches: "no consumer found" when high, else every doubt."""
    return Verdict(Status.CANDIDATE, HIGH, "no consumer found", []) if confidence == HIGH else merged_verdict(members, confidence)
