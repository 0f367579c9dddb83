"""Time source (trap: tests subclass it, it is a test seam)."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod


class Clock(ABC):
    @abstractmethod
    def now(self) -> float:
        """Seconds, monotonic."""


class SystemClock(Clock):
    def now(self) -> float:
        return time.monotonic()


def deadline(clock: Clock, timeout_s: float) -> float:
    return clock.now() + timeout_s
