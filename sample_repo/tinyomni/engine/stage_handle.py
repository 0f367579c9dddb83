"""Handles on stages (trap: the base is instantiated, so it is not abstract in practice)."""

from __future__ import annotations


class StageHandle:
    """A handle on a stage that runs in this process."""

    def __init__(self, stage_id: int) -> None:
        self.stage_id = stage_id

    def drain(self) -> list[dict]:
        raise NotImplementedError


class RemoteStageHandle(StageHandle):
    """A handle on a stage in another process."""

    def __init__(self, stage_id: int, address: str) -> None:
        super().__init__(stage_id)
        self.address = address

    def drain(self) -> list[dict]:
        return []


def handles(stage_ids: list[int]) -> list[StageHandle]:
    return [StageHandle(stage_id) for stage_id in stage_ids]
