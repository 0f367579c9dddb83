"""Stage executors (trap: the implementation is named by an import string in deploy YAML)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class Executor(ABC):
    @abstractmethod
    def execute(self, batch: list[dict]) -> list[Any]:
        """Run one batch."""


class InlineExecutor(Executor):
    def execute(self, batch: list[dict]) -> list[Any]:
        return [request.get("prompt") for request in batch]
