"""Retry delays (planted: one implementation; only an archived design page called it an extension point)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class RetryPolicy(ABC):
    @abstractmethod
    def next_delay(self, attempt: int) -> float:
        """Seconds to wait before retry number `attempt`."""


class ExponentialBackoff(RetryPolicy):
    def __init__(self, base_s: float = 0.1, cap_s: float = 5.0) -> None:
        self.base_s = base_s
        self.cap_s = cap_s

    def next_delay(self, attempt: int) -> float:
        return min(self.cap_s, self.base_s * (2 ** attempt))
