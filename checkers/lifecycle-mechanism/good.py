"""The same client reading its event; a second client whose flag records cleanup after a partial failure."""

import threading


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
