"""Abstractions whose single in-repo implementation is explained: none is reported."""

from __future__ import annotations

import argparse
from abc import ABC, abstractmethod
from typing import Any, Callable, Protocol

from tinyupstream.executor import ExecutorBase


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


def schedulers() -> list[Scheduler]:
    return [FifoScheduler(), PriorityScheduler()]


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
    """Implementations are registered, and the registry is read by key."""

    @abstractmethod
    def block_shape(self) -> tuple[int, int]: ...


@register_layout("paged")
class PagedLayout(KVLayout):
    def block_shape(self) -> tuple[int, int]:
        return (16, 128)


def layout(name: str) -> KVLayout:
    return LAYOUTS[name]()


class Executor(ABC):
    """deploy.yaml names the implementation by import string."""

    @abstractmethod
    def execute(self, batch: list[dict]) -> list[dict]: ...


class InlineExecutor(Executor):
    def execute(self, batch: list[dict]) -> list[dict]:
        return batch


class StageWorker(ABC):
    """deploy.yaml's `worker_cls` key picks the implementation (the same subsystem's key)."""

    @abstractmethod
    def execute_model(self, batch: list[Any]) -> list[Any]: ...


class ARWorker(StageWorker):
    def execute_model(self, batch: list[Any]) -> list[Any]:
        return batch


class ModelLoader(ABC):
    """Configuration picks the loader class; this one is only the default."""

    @abstractmethod
    def load(self, path: str) -> dict: ...


class SafetensorsLoader(ModelLoader):
    def load(self, path: str) -> dict:
        return {"path": path}


def build_loader(stage_config: dict) -> ModelLoader:
    return stage_config.get("loader_cls", SafetensorsLoader)()


class OutputFormatter(ABC):
    """pyproject.toml declares the implementation in an entry-point group."""

    @abstractmethod
    def format(self, output: dict) -> str: ...


class JsonFormatter(OutputFormatter):
    def format(self, output: dict) -> str:
        return str(output)


class ModelRunnerBase(ABC):
    """Its implementation is CUDA code (cuda_runner.py) beside the npu/ backend: hardware in parallel."""

    @abstractmethod
    def dummy_run(self, num_tokens: int) -> int: ...


class OmniExecutorBase(ExecutorBase):
    """Its abstract methods are hooks the upstream engine calls on every executor."""

    def collective_rpc(self, method: str) -> list:
        raise NotImplementedError


class InProcessExecutor(OmniExecutorBase):
    def collective_rpc(self, method: str) -> list:
        return [method]


def make_codec(kind: str) -> ByteCodec | AsciiCodec:
    """A real factory: two choices."""
    if kind == "bytes":
        return ByteCodec()
    if kind == "ascii":
        return AsciiCodec()
    raise ValueError(kind)


class StderrSink:
    def write(self, line: str) -> None:
        print(line)


def make_log_sink(kind: str) -> StderrSink:
    """The kind is a command-line option: the one accepted kind is a user-facing check."""
    if kind == "stderr":
        return StderrSink()
    raise ValueError(kind)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log-sink", default="stderr")
    args = parser.parse_args(argv)
    make_log_sink(args.log_sink).write("started")
