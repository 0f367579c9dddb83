"""Metrics sinks (trap: the second implementation is a null object)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class MetricsSink(ABC):
    @abstractmethod
    def record(self, name: str, value: float) -> None:
        """Record one sample."""


class PrometheusSink(MetricsSink):
    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = {}

    def record(self, name: str, value: float) -> None:
        self.samples.setdefault(name, []).append(value)


class _NullMetricsSink(MetricsSink):
    """Used when metrics are disabled."""

    def record(self, name: str, value: float) -> None:
        pass


def metrics_sink(enabled: bool) -> MetricsSink:
    return PrometheusSink() if enabled else _NullMetricsSink()
