"""Where a stage's finished outputs go (planted: single-implementation-abstraction, chain)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class OutputSink(ABC):
    """Receives every finished output of a stage."""

    @abstractmethod
    def emit(self, output: Any) -> None:
        """Hand one output over."""

    @abstractmethod
    def close(self) -> None:
        """No more outputs will come."""


class _BufferedSink(OutputSink):
    """Buffers outputs and hands them over in batches."""

    def __init__(self, batch_size: int = 8) -> None:
        self.batch_size = batch_size
        self.pending: list[Any] = []

    def emit(self, output: Any) -> None:
        self.pending.append(output)
        if len(self.pending) >= self.batch_size:
            self.flush_batch(self.pending)
            self.pending = []

    @abstractmethod
    def flush_batch(self, batch: list[Any]) -> None:
        """Hand a full batch over."""
