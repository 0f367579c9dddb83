"""The formatter interface (trap: its package loads implementations through entry points)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class OutputFormatter(ABC):
    @abstractmethod
    def format(self, output: Any) -> str:
        """Text sent to the client."""
