"""Lifecycle mechanisms that hold one state twice: a flag beside an Event, a handle or a field; two locks; a flag beside a sentinel."""

import asyncio
import queue
import threading

_END = object()
_tally_lock = asyncio.Lock()  # [lifecycle-mechanism]
_tallies: dict[str, int] = {}


async def tally(stage: str) -> None:
    async with _tally_lock:
        _tallies[stage] = _tallies.get(stage, 0) + 1


class EngineClient:
    """Starts a background loop and says when it is ready."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._started = False  # [lifecycle-mechanism]

    def start(self) -> None:
        self._ready.set()
        self._started = True

    def stop(self) -> None:
        self._ready.clear()
        self._started = False

    def is_running(self) -> bool:
        return self._started


class SleepGate:
    """`_sleeping` is `not _resume.is_set()`, from `__init__` on."""

    def __init__(self) -> None:
        self._sleeping = False  # [lifecycle-mechanism]
        self._resume = threading.Event()
        self._resume.set()

    def sleep(self) -> None:
        self._sleeping = True
        self._resume.clear()

    def wake(self) -> None:
        self._sleeping = False
        self._resume.set()


class StageLoop:
    """`_running` says what `_task is not None` says."""

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None
        self._running = False  # [lifecycle-mechanism]

    async def _serve(self) -> None:
        await asyncio.sleep(0)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._serve())
        self._running = True

    def stop(self) -> None:
        self._task = None
        self._running = False

    def is_running(self) -> bool:
        return self._running


class ModelSlot:
    """`ready` says what `model is not None` says."""

    def __init__(self) -> None:
        self.model: object | None = None
        self.ready = False  # [lifecycle-mechanism]

    def load(self) -> None:
        self.model = object()
        self.ready = True

    def unload(self) -> None:
        self.model = None
        self.ready = False

    def is_ready(self) -> bool:
        return self.ready


class BlockLedger:
    """Two locks, each guarding the same two fields, never taken together."""

    def __init__(self) -> None:
        self._alloc_lock = threading.Lock()
        self._free_lock = threading.Lock()  # [lifecycle-mechanism]
        self._free: list[int] = []
        self._owner: dict[int, str] = {}

    def allocate(self, request_id: str) -> int:
        with self._alloc_lock:
            block = self._free.pop()
            self._owner[block] = request_id
        return block

    def release(self, block: int) -> None:
        with self._free_lock:
            self._free.append(block)
            self._owner.pop(block, None)


class StepStream:
    """`_closed` is set where `_END` is put, and the consumer checks both."""

    def __init__(self) -> None:
        self._queue: queue.Queue[object] = queue.Queue()
        self._closed = False  # [lifecycle-mechanism]

    def close(self) -> None:
        self._closed = True
        self._queue.put(_END)

    def drain(self) -> list[object]:
        items = []
        while True:
            item = self._queue.get()
            if item is _END or self._closed:
                return items
            items.append(item)


class StageMonitor:
    def __init__(self) -> None:
        self._stopping = asyncio.Event()  # [lifecycle-mechanism]

    async def run(self) -> None:
        while not self._stopping.is_set():
            await asyncio.sleep(0.01)

    def stop(self) -> None:
        self._stopping.set()


class StepCounters:
    def __init__(self) -> None:
        self._counts_lock = asyncio.Lock()  # [lifecycle-mechanism]
        self._counts: dict[str, int] = {}

    async def bump(self, stage: str) -> None:
        async with self._counts_lock:
            self._counts[stage] = self._counts.get(stage, 0) + 1


class EventBus:
    """`_listen_task` was the listener of an older design; nothing starts it now, yet `stop()` still cancels it."""

    def __init__(self) -> None:
        self._listen_task: asyncio.Task[None] | None = None  # [lifecycle-mechanism]

    async def stop(self) -> None:
        if self._listen_task is not None:
            self._listen_task.cancel()
            self._listen_task = None
