"""The sink a stage actually uses: batches go into a queue."""

from __future__ import annotations

import queue
from typing import Any

from tinyomni.engine.output_sinks import _BufferedSink


class QueueSink(_BufferedSink):
    """Puts each batch of outputs into a queue read by the next stage."""

    def __init__(self, target: queue.Queue, batch_size: int = 8) -> None:
        super().__init__(batch_size)
        self.target = target

    def flush_batch(self, batch: list[Any]) -> None:
        self.target.put(list(batch))

    def close(self) -> None:
        if self.pending:
            self.flush_batch(self.pending)
        self.target.put(None)


def sink_for(target: queue.Queue) -> QueueSink:
    return QueueSink(target)
