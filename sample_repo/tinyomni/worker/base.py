"""The stage worker interface (trap: the deploy YAML's `worker_cls` key picks the class)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class StageWorker(ABC):
    @abstractmethod
    def execute_model(self, batch: list[Any]) -> list[Any]:
        """Outputs of one scheduled batch."""
