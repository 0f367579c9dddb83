"""Abstractions and a factory with exactly one real implementation each."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol


class OutputSink(ABC):  # [single-implementation-abstraction]
    @abstractmethod
    def emit(self, output: dict) -> None:
        """Hand one output over."""


class _BufferedSink(OutputSink):
    """A middle layer: still abstract, it adds a hook (reported once, at the top)."""

    def __init__(self) -> None:
        self.pending: list[dict] = []

    def emit(self, output: dict) -> None:
        self.pending.append(output)
        self.flush(self.pending)

    @abstractmethod
    def flush(self, batch: list[dict]) -> None:
        """Hand a batch over."""


class ListSink(_BufferedSink):
    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[dict]] = []

    def flush(self, batch: list[dict]) -> None:
        self.batches.append(list(batch))


class WeightFilter:  # [single-implementation-abstraction]
    def keep(self, name: str) -> bool:
        raise NotImplementedError


class PrefixWeightFilter(WeightFilter):
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def keep(self, name: str) -> bool:
        return name.startswith(self.prefix)


class AdmissionPolicy(Protocol):  # [single-implementation-abstraction]
    def admit(self, request: dict) -> bool: ...


class TokenBudget:
    """Matches AdmissionPolicy by its methods, without inheriting from it."""

    def __init__(self, budget: int) -> None:
        self.budget = budget

    def admit(self, request: dict) -> bool:
        return len(request.get("prompt", "")) <= self.budget


class GreedySampler:
    def sample(self, logits: list[float]) -> int:
        return max(range(len(logits)), key=logits.__getitem__)


def make_sampler(kind: str) -> GreedySampler:  # [single-implementation-abstraction]
    if kind == "greedy":
        return GreedySampler()
    raise ValueError(kind)
