"""Background loops of a stage: each owns a task, thread or process and says whether it runs."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading


class StageLoop:
    """`_running` says what `_task is not None` says (planted)."""

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None
        self._running = False

    async def _serve(self) -> None:
        while True:
            await asyncio.sleep(0.01)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._serve())
        self._running = True

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._task = None
        self._running = False

    def is_running(self) -> bool:
        return self._running


class OutputPump:
    """Trap: stop() clears `_running` and keeps `_thread`, which join() waits for later."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._running = False

    def _pump(self) -> None:
        while self._running:
            pass

    def start(self) -> None:
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._running = True
        self._thread.start()

    def stop(self) -> None:
        self._running = False

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None


class StageLauncher:
    """Trap: `_launched` is published before the process exists and rolled back when spawning fails."""

    def __init__(self) -> None:
        self._proc: multiprocessing.Process | None = None
        self._launched = False

    def launch(self) -> None:
        self._launched = True
        try:
            self._proc = multiprocessing.Process(target=print, daemon=True)
            self._proc.start()
        except OSError:
            self._launched = False
            raise

    def shutdown(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
        self._proc = None
        self._launched = False

    def launched(self) -> bool:
        return self._launched


class DetokenizerLoop:
    """`_active` says what `_thread is not None` says; the thread is made in a helper (planted, medium)."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._active = False

    def _spawn(self) -> None:
        self._thread = threading.Thread(target=print, daemon=True)
        self._thread.start()

    def start(self) -> None:
        self._spawn()
        self._active = True

    def stop(self) -> None:
        self._thread = None
        self._active = False

    def active(self) -> bool:
        return self._active


class StageMonitor:
    """`_stopping` is an Event nothing waits on (planted); `_idle` is one a caller waits on (trap)."""

    def __init__(self) -> None:
        self._stopping = asyncio.Event()
        self._idle = asyncio.Event()
        self._ticks = 0

    async def run(self) -> None:
        while not self._stopping.is_set():
            self._idle.clear()
            self._ticks += 1
            self._idle.set()
            await asyncio.sleep(0.01)

    def stop(self) -> None:
        self._stopping.set()

    async def wait_idle(self) -> None:
        await self._idle.wait()

    @property
    def ticks(self) -> int:
        return self._ticks
