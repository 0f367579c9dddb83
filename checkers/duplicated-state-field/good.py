"""Look-alikes that are not duplicated state: each has an owner-specific reason to exist."""

import copy
import threading
from dataclasses import dataclass, fields
from typing import NamedTuple


class ClientRequest:
    def __init__(self, request_id: str, prompt: str, max_tokens: int) -> None:
        self.request_id = request_id
        self.prompt = prompt
        self.max_tokens = max_tokens


class WireRequest(NamedTuple):
    """A message to another process: the copy is the boundary."""

    request_id: str
    prompt: str
    max_tokens: int


def to_wire(request: ClientRequest) -> WireRequest:
    return WireRequest(request_id=request.request_id, prompt=request.prompt, max_tokens=request.max_tokens)


@dataclass(frozen=True)
class RequestSnapshot:
    """A deliberate frozen copy for the metrics thread."""

    request_id: str
    prompt: str
    max_tokens: int


def snapshot(request: ClientRequest) -> RequestSnapshot:
    return RequestSnapshot(request_id=request.request_id, prompt=request.prompt, max_tokens=request.max_tokens)


class HandoffPayload:
    """Sent through a queue to the output thread."""

    def __init__(self, request: ClientRequest) -> None:
        self.request_id = request.request_id
        self.prompt = request.prompt
        self.max_tokens = request.max_tokens


def hand_off(request: ClientRequest, outbox) -> None:
    outbox.put(HandoffPayload(request))


class EngineState:
    """Same names, different owners: the engine re-keys the request id."""

    def __init__(self, request: ClientRequest) -> None:
        self.request_id = request.request_id
        self.prompt = copy.deepcopy(request.prompt)
        self.max_tokens = request.max_tokens

    def rekey(self, suffix: str) -> None:
        self.request_id = f"{self.request_id}-{suffix}"


@dataclass
class StepTimes:
    """Read by reflection: every field is a column."""

    queue_ms: float
    run_ms: float

    def __post_init__(self) -> None:
        self.total_ms = self.queue_ms + self.run_ms


def columns() -> list[str]:
    return [f.name for f in fields(StepTimes)]


class Poller(threading.Thread):
    """`daemon` is a field of threading.Thread."""

    def __init__(self) -> None:
        super().__init__()
        self.daemon = True


class LegacyView:
    def __init__(self, request_id: str) -> None:
        self.request_id = request_id
        self.req_id = self.request_id  # compatibility alias for plugins written against 0.1

    def rename(self, request_id: str) -> None:
        self.request_id = request_id
        self.req_id = self.request_id  # compatibility alias


class ModelShape:
    """Copies of configuration values: constants once loaded, not state."""

    def __init__(self, config: "ModelShape") -> None:
        self.hidden_size = config.hidden_size
        self.num_heads = config.num_heads
        self.head_dim = config.head_dim


def describe(state: EngineState, view: LegacyView, shape: ModelShape) -> str:
    return f"{state.request_id} {state.prompt} {state.max_tokens} {view.req_id} {shape.hidden_size}{shape.num_heads}{shape.head_dim}"
