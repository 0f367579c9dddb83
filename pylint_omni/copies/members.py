"""The copy groups' raw material: each file's fingerprint decoded once per run, and the units worth comparing.

`FileCopies` decodes one file's cached fingerprint (`fingerprints.FingerprintFact`)
on first use; `Member` is one copy (a unit or a block of statements) as every later
step names it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from pylint_omni.copies.fingerprints import HASH_CHARS, FingerprintFact

STRIDE = 5  # integers per statement in the fact's `pos`


@dataclass(frozen=True, eq=False)
class Member:
    """One copy: a function, method, class, module or block, with its statement range in its file.

    Compared and hashed by identity: each is made once per run, and groups, buckets and
    verdicts are keyed by it millions of times.
    """

    path: str
    kind: str  # function | method | class | module | block
    qual: str  # qualified name (a block: its enclosing unit's)
    line: int
    end: int
    first: int  # index of its first statement in the file's pre-order
    last: int  # index of its last statement (subtree included)
    statements: int  # statements it holds that do something (nested ones counted; a block: all of them)
    exact: str = ""  # hash of its normalised text: equal hashes, identical copies
    uses: tuple[str, ...] = ()  # module-level names of its own file it uses

    @property
    def lines(self) -> int:
        return self.end - self.line + 1

    @property
    def label(self) -> str:
        """`pkg/mod.py:12 Class.method()` (a block: `lines 12-30 of method()`)."""
        if self.kind == "block":
            return f"{self.path}:{self.line}-{self.end} (in {self.qual}())"
        if self.kind == "module":
            return f"{self.path} (whole module)"
        suffix = "()" if self.kind in ("function", "method") else ""
        return f"{self.path}:{self.line} {self.qual}{suffix}"

    @property
    def validation(self) -> bool:
        """A test or benchmark living in a production module (`def test1()`, `class TestCache`)."""
        name = self.qual.rpartition(".")[2] if self.kind != "block" else self.qual.rpartition(".")[2]
        return name.startswith(("test", "Test", "bench", "Bench")) or ".Test" in f".{self.qual}"

    def contains(self, other: "Member") -> bool:
        return self.path == other.path and self.first <= other.first and other.last <= self.last


@dataclass
class FileCopies:
    """One file's fingerprint, decoded lazily."""

    path: str
    fact: FingerprintFact
    units: list[Member] = field(default_factory=list)

    def __post_init__(self) -> None:
        for kind, qual, line, end, first, last, exact, weight, uses in self.fact["units"]:
            member = Member(self.path, str(kind), str(qual), int(line), int(end), int(first), int(last),
                            int(weight), str(exact), tuple(uses))
            self.units.append(member)

    @cached_property
    def positions(self) -> list[int]:
        return [int(value) for value in self.fact["pos"].split(",")] if self.fact["pos"] else []

    @cached_property
    def wholes(self) -> list[str]:
        """Whole-statement hashes, one per statement."""
        text = self.fact["h"]
        return [text[i:i + HASH_CHARS] for i in range(0, len(text), HASH_CHARS)]

    @cached_property
    def sizes(self) -> list[int]:
        """Statements in each statement's subtree (itself included)."""
        return self.positions[2::STRIDE]

    @cached_property
    def list_ids(self) -> list[int]:
        return self.positions[3::STRIDE]

    @cached_property
    def weights(self) -> list[int]:
        """Statements in each statement's subtree that do something (not a log line, an import, `pass`...)."""
        return self.positions[4::STRIDE]

    @property
    def count(self) -> int:
        return len(self.fact["h"]) // HASH_CHARS

    def line(self, index: int) -> int:
        return self.positions[STRIDE * index]

    def end(self, index: int) -> int:
        return self.positions[STRIDE * index + 1]

    def size(self, index: int) -> int:
        return self.positions[STRIDE * index + 2]

    def headers(self, first: int, last: int) -> list[str]:
        """Header hashes of statements `first..last`: the flattened shape of a unit."""
        text = self.fact["hh"]
        return [text[i:i + HASH_CHARS] for i in range(first * HASH_CHARS, (last + 1) * HASH_CHARS, HASH_CHARS)]

    @cached_property
    def functions(self) -> list[Member]:
        """Function and method units, innermost last (to find the one enclosing a statement)."""
        return sorted((u for u in self.units if u.kind in ("function", "method")), key=lambda u: (u.first, -u.last))

    def enclosing(self, index: int) -> Member | None:
        """The innermost function or method unit whose statements include `index`."""
        found = None
        for unit in self.functions:
            if unit.first > index:
                break
            if unit.last >= index:
                found = unit
        return found
