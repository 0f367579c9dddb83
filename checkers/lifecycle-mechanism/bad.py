"""An engine client whose `_started` flag mirrors its `_ready` event."""

import threading


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
