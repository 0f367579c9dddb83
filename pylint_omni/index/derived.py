"""Typed facts derived from one index state, computed once and forgotten when the state changes.

A phase that derives a fact from the whole index (an analysis, a plan) declares it once
as a module constant, `PLAN = Derived("changes.plans", compute)`, and asks `PLAN.of(index)`:
the value is typed at the declaration, memoised in the index's per-state store, and
dropped with it when a file or an editor buffer changes (`ProjectIndex._invalidate`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Generic, TypeVar, cast

if TYPE_CHECKING:
    from pylint_omni.index.project_index import ProjectIndex

T = TypeVar("T")


@dataclass(frozen=True)
class Derived(Generic[T]):
    """One derived fact: its key in the index's per-state store and how to compute it."""

    key: str
    compute: Callable[[ProjectIndex], T]

    def of(self, index: ProjectIndex) -> T:
        """The fact for the index's current state (computed on the first question)."""
        if self.key in index.derived:
            return cast(T, index.derived[self.key])
        value = index.derived[self.key] = self.compute(index)
        return value
