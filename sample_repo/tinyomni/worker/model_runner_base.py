"""Model runners (trap: the GPU runner lives beside the NPU backend folder; hardware plugs in in parallel)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class ModelRunnerBase(ABC):
    @abstractmethod
    def dummy_run(self, num_tokens: int) -> int:
        """Run the model once on dummy input (memory profiling)."""
