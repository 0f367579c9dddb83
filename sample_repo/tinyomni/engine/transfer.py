"""Transfer path choice (trap: an active design contract names it as an extension point)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class TransferPolicy(ABC):
    @abstractmethod
    def choose_path(self, nbytes: int) -> str:
        """'shm' or 'inline' for a payload of `nbytes`."""


class ShmTransferPolicy(TransferPolicy):
    def __init__(self, threshold: int = 1 << 20) -> None:
        self.threshold = threshold

    def choose_path(self, nbytes: int) -> str:
        return "shm" if nbytes >= self.threshold else "inline"
