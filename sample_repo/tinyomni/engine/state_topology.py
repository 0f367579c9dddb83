"""Topology of a stage: how many ranks it spans."""

from __future__ import annotations


class StageTopology:
    """Ranks of one stage."""

    def __init__(self, num_stages: int, world_size: int = 1) -> None:
        self.num_stages = num_stages
        self.world_size = world_size  # candidate (overwritten provisional value)

    def ranks(self) -> list[int]:
        return list(range(self.world_size * self.num_stages))
