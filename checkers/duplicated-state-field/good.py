"""Look-alikes that are not duplicated state: each has an owner-specific reason to exist."""

import copy
import ctypes
import threading
from dataclasses import dataclass, fields
from typing import NamedTuple

from torch import nn


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


class SlotPool:
    """A subclass assigns the same field: a property here would break it."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.bytes_per_slot = self.width * 2

    def grow(self, width: int) -> None:
        self.width = width
        self.bytes_per_slot = self.width * 2


class PackedSlotPool(SlotPool):
    def grow(self, width: int) -> None:
        self.width = width
        self.bytes_per_slot = self.width + 1


class MarkerExpander:
    """The base reads `marker`, `marker_count` and `marker_id` as slots its subclasses fill."""

    def expand(self, prompt: str) -> str:
        return prompt.replace("<m>", self.marker * self.marker_count) + str(self.marker_id)


class GridMarkerExpander(MarkerExpander):
    def attach(self, layout) -> None:
        self.layout = layout
        self.marker = self.layout.marker
        self.marker_count = self.layout.marker_count
        self.marker_id = self.layout.marker_id


class LoadedRunner:
    """Values read from a loaded config dict, the CLI args or a processor: constants once loaded."""

    def __init__(self, args, config: dict, processor) -> None:
        self.args = args
        self.config = config
        self.processor = processor

    def reload(self, args, config: dict, processor) -> None:
        self.args = args
        self.config = config
        self.processor = processor
        self.vocab_size = self.config["vocab_size"]
        self.is_decode = self.args.mode == "decode"
        self.image_span = self.processor.image_seq_length * 2


class TiedHead:
    """Aliases of the same object, or two facts that coincide: nothing to keep in sync."""

    def __init__(self) -> None:
        self.embedding: list[float] = []
        self.k_heads = 0

    def load(self, weights: dict, k_heads: int) -> None:
        self.embedding = weights["embedding"]
        self.lm_head = self.embedding
        self.k_heads = k_heads
        self.v_heads = self.k_heads


class ProjectionShim(nn.Module):
    """Takes the submodules it needs from a wrapped module: holding it would register it as a child."""

    def __init__(self, inner) -> None:
        super().__init__()
        self.num_heads = inner.num_heads
        self.proj = inner.proj
        self.norm = inner.norm


class ShardLayout:
    """Derived once in a private helper only the constructor calls: a constant, not state kept in sync."""

    def __init__(self, ranks: int, heads: int) -> None:
        self._setup(ranks, heads)

    def _setup(self, ranks: int, heads: int) -> None:
        self.ranks = ranks
        self.heads = heads
        self.heads_per_rank = self.heads // self.ranks


def describe_more(pool: SlotPool, runner: LoadedRunner, head: TiedHead, shim: ProjectionShim, layout: ShardLayout) -> tuple:
    return (pool.bytes_per_slot, runner.vocab_size, runner.is_decode, runner.image_span,
            head.lm_head, head.v_heads, shim.num_heads, shim.proj, shim.norm, layout.heads_per_rank)


class PackedKernelInput:
    """Built every step from the step context: a per-call argument bundle, not a second owner."""

    def __init__(self, q_lens: list[int], kv_lens: list[int], decoding: bool) -> None:
        self.q_lens = q_lens
        self.kv_lens = kv_lens
        self.decoding = decoding


def pack_inputs(step_context) -> PackedKernelInput:
    return PackedKernelInput(q_lens=step_context.q_lens, kv_lens=step_context.kv_lens, decoding=step_context.decoding)


@dataclass
class WarpParameters:
    low: float = 1.0
    high: float = 32.0
    floor: int = 0


class WarpedRotary:
    """Copies a parameter bundle's values to precompute tables: constants, not state."""

    def __init__(self, warp: WarpParameters) -> None:
        self.low = warp.low
        self.high = warp.high
        self.floor = warp.floor


def use_packed(inputs: PackedKernelInput, rotary: WarpedRotary) -> tuple:
    return (inputs.q_lens, inputs.kv_lens, inputs.decoding, rotary.low, rotary.high, rotary.floor)


class ChunkIndex:
    """Recomputed in the one method that changes its source: a consistent cache."""

    def __init__(self) -> None:
        self.chunks: list[int] = []

    def register(self, chunks: list[int]) -> None:
        self.chunks = list(chunks)
        self.total_bytes = sum(self.chunks)


class SharedSlot(ctypes.Structure):
    """A shared-memory layout: its fields are slots of the structure, not Python state."""

    _fields_ = [("input_len", ctypes.c_int), ("budget", ctypes.c_int), ("capacity", ctypes.c_int)]

    def init(self, input_len: int, budget: int) -> None:
        self.input_len = input_len
        self.budget = budget
        self.capacity = self.input_len + self.budget + 16

    def shrink(self) -> None:
        self.budget -= 1


def use_more(index: ChunkIndex, slot: SharedSlot) -> tuple:
    return (index.total_bytes, slot.capacity)


class _BlockAllocator:
    def free(self, block: int) -> None:
        del block


class _PrefixTrie:
    def match(self, tokens: list[int]) -> int:
        return len(tokens)


class _StateStore:
    def drop(self, key: str) -> None:
        del key


class Scheduler:
    def __init__(self) -> None:
        self.allocator = _BlockAllocator()
        self.prefix_trie = _PrefixTrie()
        self.state_store = _StateStore()


class EvictionHelper:
    """Shortcuts to the scheduler's collaborators: the scheduler builds each once, so the
    copies are the same objects and can never disagree (not a second owner of a fact)."""

    def __init__(self, scheduler: Scheduler) -> None:
        self.allocator = scheduler.allocator
        self.prefix_trie = scheduler.prefix_trie
        self.state_store = scheduler.state_store

    def evict(self, block: int, tokens: list[int], key: str) -> int:
        self.allocator.free(block)
        self.state_store.drop(key)
        return self.prefix_trie.match(tokens)


class TransferTable:
    """Same keys and lifecycle, two facts: where a payload went, and the event that says it arrived."""

    def __init__(self) -> None:
        self.addresses: dict[str, str] = {}
        self.arrived: dict[str, threading.Event] = {}

    def start(self, request_id: str, address: str) -> None:
        self.addresses[request_id] = address
        self.arrived[request_id] = threading.Event()

    def finish(self, request_id: str) -> str:
        self.arrived.pop(request_id).wait()
        return self.addresses.pop(request_id)
