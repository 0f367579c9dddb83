"""Statistics collectors (trap: subclasses are enumerated with __subclasses__())."""

from __future__ import annotations

from abc import ABC, abstractmethod


class StatsCollector(ABC):
    @abstractmethod
    def collect(self) -> dict[str, float]:
        """Current values."""


class LatencyCollector(StatsCollector):
    def __init__(self) -> None:
        self.samples: list[float] = []

    def collect(self) -> dict[str, float]:
        return {"latency_avg": sum(self.samples) / len(self.samples)} if self.samples else {}


def collectors() -> dict[str, type[StatsCollector]]:
    return {cls.__name__: cls for cls in StatsCollector.__subclasses__()}
