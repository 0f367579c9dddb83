"""Request state of one stage: what a client asked for, and what the stage tracks."""

from __future__ import annotations

import copy
import dataclasses
import threading
import time
from dataclasses import dataclass
from typing import NamedTuple

import msgspec


class ClientRequest:
    """A request as the client sent it (the external request id lives here)."""

    def __init__(self, request_id: str, prompt: str, sampling: dict, priority: int = 0) -> None:
        self.request_id = request_id
        self.prompt = prompt
        self.sampling = sampling
        self.priority = priority


class StageRequestState:
    """What one stage tracks for a request."""

    def __init__(self, request: ClientRequest) -> None:
        # candidate (mirror copies): four fields copied from the client request
        self.request_id = request.request_id
        self.prompt = request.prompt
        self.sampling = request.sampling
        self.priority = request.priority
        self.pending: list[int] = []
        self.num_pending = len(self.pending)
        self._last_poll_ms = 0.0
        self.trace_label = f"stage:{request.request_id}"  # trap: a constant written once, unread: lint

    def push(self, token: int) -> None:
        self.pending.append(token)
        self.num_pending = len(self.pending)  # candidate (derivable): kept in sync by hand

    def pop(self) -> int:
        token = self.pending.pop(0)
        self.num_pending = len(self.pending)
        return token

    def poll(self) -> None:
        self._last_poll_ms = time.monotonic() * 1000  # candidate (written, never read)


class InternalRequest:
    """Trap (same name, different owner): the internal id is derived, not copied."""

    def __init__(self, client: ClientRequest, seq: int) -> None:
        self.request_id = client.request_id
        self.prompt = client.prompt
        self.sampling = client.sampling

    def rekey(self, seq: int) -> None:
        # the stage's own id: independent state from here on
        self.request_id = f"{self.request_id}-{seq}"


class RequestTable:
    """Live requests of a stage, by request id."""

    def __init__(self) -> None:
        self._states: dict[str, StageRequestState] = {}
        # Trap: same keys and lifecycle as `_states`, but another fact (when it arrived).
        self._arrival: dict[str, float] = {}
        self._live_ids: set[str] = set()  # candidate: always the key set of `_states`

    def add(self, state: StageRequestState) -> None:
        self._states[state.request_id] = state
        self._arrival[state.request_id] = time.monotonic()
        self._live_ids.add(state.request_id)

    def finish(self, request_id: str) -> float:
        self._states.pop(request_id, None)
        self._live_ids.discard(request_id)
        started = self._arrival.pop(request_id)
        return time.monotonic() - started

    def is_live(self, request_id: str) -> bool:
        return request_id in self._live_ids

    def __len__(self) -> int:
        return len(self._states)


class StageMessage(NamedTuple):
    """Trap (IPC message): a NamedTuple sent to the next stage."""

    request_id: str
    prompt: str
    sampling: dict


def to_message(state: StageRequestState) -> StageMessage:
    return StageMessage(request_id=state.request_id, prompt=state.prompt, sampling=state.sampling)


class WireRequest(msgspec.Struct):
    """Trap (IPC message): the msgspec request the engine core receives."""

    request_id: str
    prompt: str
    sampling: dict


class CoreRequestState:
    """Trap (IPC boundary): copies out of a msgspec message into in-process state."""

    def __init__(self, wire: WireRequest) -> None:
        self.request_id = wire.request_id
        self.prompt = wire.prompt
        self.sampling = wire.sampling


class HandoffPayload:
    """Trap (sent through a queue): the copy is what crosses the thread boundary."""

    def __init__(self, state: StageRequestState) -> None:
        self.request_id = state.request_id
        self.prompt = state.prompt
        self.priority = state.priority


def hand_off(state: StageRequestState, outbox) -> None:
    outbox.put(HandoffPayload(state))


@dataclass(frozen=True)
class RequestSnapshot:
    """Trap (frozen copy): a deliberate snapshot for the metrics thread."""

    request_id: str
    prompt: str
    priority: int


def snapshot_of(state: StageRequestState) -> RequestSnapshot:
    return RequestSnapshot(request_id=state.request_id, prompt=state.prompt, priority=state.priority)


class DeepCopiedState:
    """Trap (deliberate snapshot): deep copies, not mirrors."""

    def __init__(self, state: StageRequestState) -> None:
        self.sampling = copy.deepcopy(state.sampling)
        self.pending = copy.copy(state.pending)
        self.origin = dataclasses.replace(snapshot_of(state), prompt="")

    def describe(self) -> str:
        return f"{self.origin.request_id}: {len(self.pending)} pending, {self.sampling}"


class StagePoller(threading.Thread):
    """Trap (third-party base): `daemon` is a field threading.Thread reads."""

    def __init__(self, table: RequestTable) -> None:
        super().__init__()
        self.daemon = True
        self.table = table

    def run(self) -> None:
        while len(self.table):
            time.sleep(0.01)


class LegacyRequestView:
    """Trap (documented compatibility alias): `req_id` is kept for old plugins."""

    def __init__(self, request_id: str) -> None:
        self.request_id = request_id
        self.req_id = self.request_id  # backward-compat alias for plugins written against 0.1

    def rekey(self, request_id: str) -> None:
        self.request_id = request_id
        self.req_id = self.request_id  # backward-compat alias


class StageTiming:
    """Trap (reflection): every field is a column of `vars(self)`."""

    def __init__(self) -> None:
        self.queue_ms = 0.0
        self.run_ms = 0.0
        self.transfer_ms = 0.0

    def as_row(self) -> dict:
        return dict(vars(self))
