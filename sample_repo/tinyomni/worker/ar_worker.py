"""The autoregressive stage worker, named by `worker_cls` in deploy/tiny_omni_two_stage.yaml."""

from __future__ import annotations

from typing import Any

from tinyomni.worker.base import StageWorker


class ARWorker(StageWorker):
    def execute_model(self, batch: list[Any]) -> list[Any]:
        return list(reversed(batch))
