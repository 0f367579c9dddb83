"""Per-stage hooks; installed packages add more through the `tinyomni.stage_hooks` entry-point group."""

from __future__ import annotations

from abc import ABC, abstractmethod


class StageHook(ABC):
    @abstractmethod
    def after_step(self, stage_id: int) -> None:
        """Called after every engine step of a stage."""


class StepTimerHook(StageHook):
    def after_step(self, stage_id: int) -> None:
        print(f"stage {stage_id} stepped")
