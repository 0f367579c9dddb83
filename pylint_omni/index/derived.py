"""Typed facts derived from one index state, computed once and forgotten when the state changes.

A phase that derives a fact from the index declares it once as a module constant and asks
the declaration, never the store: the value's type is written at the declaration, it is
memoised in the index's per-state store (`DerivedStore`) and dropped with it when a file
or an editor buffer changes (`ProjectIndex._invalidate`). Three shapes cover every phase:

- `Derived("changes.plans", compute)`: a fact computed from the index alone, `PLAN.of(index)`;
- `Built("surfaces.table")`: a fact built from inputs the caller already holds (the graph,
  a table), `TABLE.of(index, lambda: build(...))`;
- `Table("surfaces.prose")`: one value per key (per file, per class), `PROSE.of(index, rel, compute)`.

Every key is declared once in the whole process (`_declare` refuses a second home).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Hashable, Protocol, TypeVar, cast

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_DECLARED: set[str] = set()  # every key of every declaration: one fact, one home


def _declare(key: str) -> None:
    if key in _DECLARED:
        raise ValueError(f"derived fact {key!r} is declared twice")
    _DECLARED.add(key)


class DerivedStore:
    """The derived facts of one index state; only the declarations below read or write it."""

    def __init__(self) -> None:
        self.facts: dict[str, object] = {}


class HasDerived(Protocol):
    """An index: what holds a state's store (`ProjectIndex`; named so here to keep this room below it)."""

    @property
    def derived(self) -> DerivedStore: ...


@dataclass(frozen=True)
class Derived(Generic[T]):
    """One fact computed from the index alone."""

    key: str
    compute: Callable[[Any], T]

    def __post_init__(self) -> None:
        _declare(self.key)

    def of(self, index: HasDerived) -> T:
        """The fact for the index's current state (computed on the first question)."""
        values = index.derived.facts
        if self.key not in values:
            values[self.key] = self.compute(index)
        return cast(T, values[self.key])


@dataclass(frozen=True)
class Built(Generic[T]):
    """One fact built from inputs the caller holds (derived from the same index state)."""

    key: str

    def __post_init__(self) -> None:
        _declare(self.key)

    def of(self, index: HasDerived, build: Callable[[], T]) -> T:
        """The fact for the index's current state (`build` runs on the first question only)."""
        values = index.derived.facts
        if self.key not in values:
            values[self.key] = build()
        return cast(T, values[self.key])


@dataclass(frozen=True)
class Table(Generic[K, V]):
    """One value per key (a file, a class, a registry), each computed on its first question."""

    key: str

    def __post_init__(self) -> None:
        _declare(self.key)

    def values(self, index: HasDerived) -> dict[K, V]:
        """The values computed so far for the index's current state."""
        values = index.derived.facts
        return cast("dict[K, V]", values.setdefault(self.key, {}))

    def of(self, index: HasDerived, key: K, compute: Callable[[], V]) -> V:
        """The value of `key` for the index's current state."""
        memo = self.values(index)
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def forget(self, index: HasDerived) -> None:
        """Drop every value: the phase that needed them is over (they are large)."""
        index.derived.facts.pop(self.key, None)
