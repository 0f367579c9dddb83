"""Abstractions and factories with exactly one real implementation each."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

import torch


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


class WarmupStep(ABC):  # [single-implementation-abstraction]
    """One subclass chain; only its leaf is ever created, so the middle is a layer too."""

    @abstractmethod
    def run(self, sizes: list[int]) -> int: ...


class _GraphWarmup(WarmupStep):
    def run(self, sizes: list[int]) -> int:
        return sum(self.capture(size) for size in sizes)

    def capture(self, size: int) -> int:
        return 1 if size else 0


class PiecewiseWarmup(_GraphWarmup):
    def capture(self, size: int) -> int:
        return 2 if size else 0


def warm_up(sizes: list[int]) -> int:
    return PiecewiseWarmup().run(sizes)


class CacheAwareBlock(torch.nn.Module):  # [single-implementation-abstraction]
    """A data-holder base: it only stores attributes for its one subclass."""

    def __init__(self) -> None:
        super().__init__()
        self.cache_enabled = False


class DiTBlock(CacheAwareBlock):
    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        return hidden if self.cache_enabled else hidden * 2


class Detokenizer(Protocol):  # [single-implementation-abstraction]
    """Restates BaseDetokenizer, which every match extends."""

    def decode(self, ids: list[int]) -> str: ...


class BaseDetokenizer:
    def decode(self, ids: list[int]) -> str:
        return " ".join(map(str, ids))


class ByteDetokenizer(BaseDetokenizer):
    def decode(self, ids: list[int]) -> str:
        return bytes(ids).decode("latin-1")


def detokenize(detokenizer: Detokenizer, ids: list[int]) -> str:
    return detokenizer.decode(ids)


class Banner:  # [single-implementation-abstraction]
    @staticmethod
    def render(name: str) -> str:
        return f"serving {name}"


def startup_line(name: str) -> str:
    return Banner.render(name)


class Clock(ABC):  # [single-implementation-abstraction]
    """tests/test_clock.py subclasses it: a test double is not a second implementation (medium)."""

    @abstractmethod
    def now(self) -> float: ...


class SystemClock(Clock):
    def now(self) -> float:
        return 0.0


class FusedLayer(torch.nn.Module):  # [single-implementation-abstraction]
    """A third-party base does not make the project's layer upstream's."""

    def fuse(self) -> None:
        raise NotImplementedError


class FusedNorm(FusedLayer):
    def fuse(self) -> None:
        self.fused = True


class GreedySampler:
    def sample(self, logits: list[float]) -> int:
        return max(range(len(logits)), key=logits.__getitem__)


def make_sampler(kind: str) -> GreedySampler:  # [single-implementation-abstraction]
    if kind == "greedy":
        return GreedySampler()
    raise ValueError(kind)


def default_sampler() -> GreedySampler:
    return make_sampler("greedy")
