"""The engine client: starts the engine loop, waits until it is ready, stops it."""

from __future__ import annotations

import threading


class EngineClient:
    """`_started` mirrors `_ready` (planted); `_loaded` records a half-failed start (trap)."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._started = False
        self._loaded = False
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, daemon=True)
        try:
            self._thread.start()
            self._ready.set()
            self._started = True
            self._loaded = True
        finally:
            if self._thread is None:
                self._loaded = False

    def _loop(self) -> None:
        self._ready.wait()

    def stop(self) -> None:
        self._ready.clear()
        self._started = False
        self._loaded = False
        self._thread = None

    def running(self) -> bool:
        return self._started and self._loaded


class RequestTracker:
    """First terminal outcome wins (trap): `_finished` is set by done() and abort(), the event by done() only."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._finished = False

    def done(self) -> None:
        if self._finished:
            return
        self._finished = True
        self._done.set()

    def abort(self) -> None:
        if self._finished:
            return
        self._finished = True

    def wait(self) -> bool:
        self._done.wait()
        return self._finished


class SleepGate:
    """`_sleeping` is `not _resume.is_set()` from the start (planted): set where the event is cleared and back."""

    def __init__(self) -> None:
        self._sleeping = False
        self._resume = threading.Event()
        self._resume.set()

    def sleep(self) -> None:
        self._sleeping = True
        self._resume.clear()

    def wake(self) -> None:
        self._sleeping = False
        self._resume.set()

    def step(self) -> None:
        if self._sleeping:
            self._resume.wait()


class DrainGate:
    """Trap: `_draining` starts False while the event starts clear: before the first open() they disagree."""

    def __init__(self) -> None:
        self._draining = False
        self._open = threading.Event()

    def close(self) -> None:
        self._draining = True
        self._open.clear()

    def open(self) -> None:
        self._draining = False
        self._open.set()

    def step(self) -> None:
        if self._draining:
            self._open.wait()
