"""One mechanism per state; and the pairs the audit keeps apart, each for its reason."""

import asyncio
import threading

_tallies: dict[str, int] = {}


async def tally(stage: str) -> None:
    """One event loop runs this to its end: no lock needed."""
    _tallies[stage] = _tallies.get(stage, 0) + 1


class EngineClient:
    """Starts a background loop and says when it is ready: one mechanism, the event."""

    def __init__(self) -> None:
        self._ready = threading.Event()

    def start(self) -> None:
        self._ready.set()

    def stop(self) -> None:
        self._ready.clear()

    def is_running(self) -> bool:
        return self._ready.is_set()

    def wait_ready(self, timeout: float) -> bool:
        return self._ready.wait(timeout)


class Worker:
    """`_started` is also cleared when start fails half-way: the event never knew it was set."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._started = False

    def start(self) -> None:
        try:
            self._ready.set()
            self._started = True
        except RuntimeError:
            self._started = False
            raise

    def stop(self) -> None:
        self._ready.clear()
        self._started = False

    def is_running(self) -> bool:
        return self._started


class StageLoop:
    """The handle alone says whether the loop runs."""

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    async def _serve(self) -> None:
        await asyncio.sleep(0)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._serve())

    def stop(self) -> None:
        self._task = None

    def is_running(self) -> bool:
        return self._task is not None


class OutputPump:
    """stop() clears `_running` and keeps `_thread` for join(): two states, kept apart."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._running = False

    def start(self) -> None:
        self._thread = threading.Thread(target=print, daemon=True)
        self._running = True

    def stop(self) -> None:
        self._running = False

    def join(self) -> None:
        if self._thread is not None and not self._running:
            self._thread.join()
            self._thread = None


class SwapLedger:
    """`_swap_lock` is taken inside `_table_lock`: the order is the protocol."""

    def __init__(self) -> None:
        self._table_lock = threading.Lock()
        self._swap_lock = threading.Lock()
        self._swapped: dict[int, int] = {}

    def swap_out(self, block: int, slot: int) -> None:
        with self._table_lock:
            self._swapped[block] = slot
            with self._swap_lock:
                self._swapped[-block] = slot


class StageMonitor:
    """A bool says whether to stop; the Event left is one a caller waits on."""

    def __init__(self) -> None:
        self._stopping = False
        self._idle = asyncio.Event()

    async def run(self) -> None:
        while not self._stopping:
            self._idle.set()
            await asyncio.sleep(0.01)

    def stop(self) -> None:
        self._stopping = True

    async def wait_idle(self) -> None:
        await self._idle.wait()


class EventBus:
    """The listener task `start()` creates is the one `stop()` cancels."""

    def __init__(self) -> None:
        self._listen_task: asyncio.Task[None] | None = None

    async def _listen(self) -> None:
        await asyncio.sleep(0)

    def start(self) -> None:
        self._listen_task = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        if self._listen_task is not None:
            self._listen_task.cancel()
            self._listen_task = None
