"""Builders of stage topologies and request tables from a deployment config."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from tinyomni.engine.state_request import ClientRequest, RequestTable, StageRequestState
from tinyomni.engine.state_topology import StageTopology


@dataclass
class DeployConfig:
    num_stages: int
    world_size: int


def build_topology(config: DeployConfig) -> StageTopology:
    topology = StageTopology(config.num_stages)
    topology.world_size = config.world_size
    return topology


def build_replica_topology(replica_config: DeployConfig) -> StageTopology:
    replica = StageTopology(replica_config.num_stages, world_size=2)
    replica.world_size = replica_config.world_size
    return replica


def admit(table: RequestTable, raw: dict) -> StageRequestState:
    state = StageRequestState(ClientRequest(raw["id"], raw["prompt"], raw.get("sampling", {})))
    table.add(state)
    return state


@dataclass
class StageStats:
    """Trap (reflection): a table builder lists every field of StageStats."""

    queue_ms: float
    run_ms: float

    def __post_init__(self) -> None:
        self.total_ms = self.queue_ms + self.run_ms


def stats_table(rows: list[StageStats]) -> list[list[str]]:
    columns = [f.name for f in dataclasses.fields(StageStats)]
    return [columns, *[[str(getattr(row, c)) for c in columns] for row in rows]]
