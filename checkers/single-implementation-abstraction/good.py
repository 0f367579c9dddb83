"""Abstractions whose single in-repo implementation is explained: none is reported."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable, Protocol

import torch


class Scheduler(ABC):
    """Two implementations: FifoScheduler and, through it, PriorityScheduler."""

    @abstractmethod
    def pick(self, waiting: list[dict]) -> dict | None: ...


class FifoScheduler(Scheduler):
    def pick(self, waiting: list[dict]) -> dict | None:
        return waiting[0] if waiting else None


class PriorityScheduler(FifoScheduler):
    def pick(self, waiting: list[dict]) -> dict | None:
        return max(waiting, key=lambda r: r.get("priority", 0)) if waiting else None


class TextCodec(Protocol):
    """Two structural implementations."""

    def encode(self, text: str) -> list[int]: ...

    def decode(self, ids: list[int]) -> str: ...


class ByteCodec:
    def encode(self, text: str) -> list[int]:
        return list(text.encode())

    def decode(self, ids: list[int]) -> str:
        return bytes(ids).decode()


class AsciiCodec:
    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def decode(self, ids: list[int]) -> str:
        return "".join(map(chr, ids))


class StageHandle:
    """Instantiated below: not abstract in practice."""

    def drain(self) -> list[dict]:
        raise NotImplementedError


class RemoteStageHandle(StageHandle):
    def drain(self) -> list[dict]:
        return []


LOCAL_HANDLE = StageHandle()


class MetricsSink(ABC):
    """The other implementation is a null object."""

    @abstractmethod
    def record(self, name: str, value: float) -> None: ...


class PrometheusSink(MetricsSink):
    def __init__(self) -> None:
        self.samples: list[tuple[str, float]] = []

    def record(self, name: str, value: float) -> None:
        self.samples.append((name, value))


class NullMetricsSink(MetricsSink):
    def record(self, name: str, value: float) -> None:
        pass


class RequestFilter:
    """The base works on its own; subclasses refine one hook."""

    def normalize(self, request: dict) -> dict:
        return {**request, "prompt": request.get("prompt", "").strip()}

    def describe(self) -> str:
        return type(self).__name__

    def accept(self, request: dict) -> bool:
        raise NotImplementedError


class LengthFilter(RequestFilter):
    def accept(self, request: dict) -> bool:
        return bool(request.get("prompt"))


class Clock(ABC):
    """tests/test_clock.py subclasses it: a test seam."""

    @abstractmethod
    def now(self) -> float: ...


class SystemClock(Clock):
    def now(self) -> float:
        return 0.0


class StatsCollector(ABC):
    """Enumerated with __subclasses__()."""

    @abstractmethod
    def collect(self) -> dict[str, float]: ...


class LatencyCollector(StatsCollector):
    def collect(self) -> dict[str, float]:
        return {}


def collectors() -> list[type[StatsCollector]]:
    return list(StatsCollector.__subclasses__())


LAYOUTS: dict[str, type] = {}


def register_layout(name: str) -> Callable[[type], type]:
    def wrap(cls: type) -> type:
        LAYOUTS[name] = cls
        return cls

    return wrap


class KVLayout(ABC):
    """Implementations are registered."""

    @abstractmethod
    def block_shape(self) -> tuple[int, int]: ...


@register_layout("paged")
class PagedLayout(KVLayout):
    def block_shape(self) -> tuple[int, int]:
        return (16, 128)


DEFAULT_LAYOUT = LAYOUTS["paged"]


class FusedLayer(torch.nn.Module):
    """Extends a third-party base: the abstraction belongs upstream."""

    def fuse(self) -> None:
        raise NotImplementedError


class FusedNorm(FusedLayer):
    def fuse(self) -> None:
        self.fused = True


class Executor(ABC):
    """deploy.yaml names the implementation by import string."""

    @abstractmethod
    def execute(self, batch: list[dict]) -> list[dict]: ...


class InlineExecutor(Executor):
    def execute(self, batch: list[dict]) -> list[dict]:
        return batch


class OutputFormatter(ABC):
    """pyproject.toml declares the implementation in an entry-point group."""

    @abstractmethod
    def format(self, output: dict) -> str: ...


class JsonFormatter(OutputFormatter):
    def format(self, output: dict) -> str:
        return str(output)


def make_codec(kind: str) -> ByteCodec | AsciiCodec:
    """A real factory: two choices."""
    if kind == "bytes":
        return ByteCodec()
    if kind == "ascii":
        return AsciiCodec()
    raise ValueError(kind)
