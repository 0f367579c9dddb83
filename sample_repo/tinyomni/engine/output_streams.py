"""Streams of step outputs from the engine thread to a request's consumer."""

from __future__ import annotations

import queue
from typing import Any, Iterator

_END = object()


class StepStream:
    """`_closed` says what `_END` on the queue says: both set in close(), both checked in __iter__ (planted, medium)."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Any] = queue.Queue()
        self._closed = False

    def push(self, item: Any) -> None:
        self._queue.put(item)

    def close(self) -> None:
        self._closed = True
        self._queue.put(_END)

    def __iter__(self) -> Iterator[Any]:
        while True:
            item = self._queue.get()
            if item is _END or self._closed:
                return
            yield item


class RequestInbox:
    """Trap: submit() refuses after shutdown by reading `_shut`; a `None` inside the queue cannot say that."""

    def __init__(self, capacity: int) -> None:
        self._inbox: queue.Queue[Any] = queue.Queue(maxsize=capacity)
        self._shut = False

    def submit(self, request: Any) -> None:
        if self._shut:
            raise RuntimeError("inbox shut down")
        self._inbox.put_nowait(request)

    def shutdown(self) -> None:
        self._shut = True
        self._inbox.put(None)

    def next_request(self) -> Any | None:
        request = self._inbox.get()
        if request is None or self._shut:
            return None
        return request
