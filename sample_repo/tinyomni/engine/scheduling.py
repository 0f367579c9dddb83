"""Request scheduling (trap: the only direct subclass has a subclass of its own elsewhere)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class Scheduler(ABC):
    """Chooses the next request to run."""

    @abstractmethod
    def pick(self, waiting: list[dict]) -> dict | None:
        """The request to run next, or None."""


class FifoScheduler(Scheduler):
    """First come, first served."""

    def pick(self, waiting: list[dict]) -> dict | None:
        return waiting[0] if waiting else None
