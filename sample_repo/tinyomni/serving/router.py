"""Spread requests over the replicas of a stage."""

import threading

from tinyomni.serving import RouterStats
from tinyomni.serving.errors import AdmissionRejected


class RequestRouter:
    def __init__(self, replicas) -> None:
        self.replicas = list(replicas)
        self.stats = RouterStats()
        self._drained = threading.Event()  # [unused-surface] set in drain(), nothing waits on it
        self._cursor = 0

    def __len__(self) -> int:
        return len(self.replicas)

    @property
    def depth(self) -> int:
        return len(self.replicas)

    def route(self, request: dict) -> str:
        if not self.replicas:
            raise AdmissionRejected("no replica")
        self.stats.record()
        pick = getattr(self, f"_pick_{request.get('policy', 'round_robin')}")
        return pick()

    def _pick_round_robin(self) -> str:
        self._cursor = (self._cursor + 1) % len(self.replicas)
        return self.replicas[self._cursor]

    def _pick_first(self) -> str:
        return self.replicas[0]

    def drain(self) -> None:  # [unused-surface] replaced by the definition below
        self.replicas = []

    def drain(self) -> None:
        self.replicas.clear()
        self._drained.set()

    def rebalance(self, weights: dict) -> list:  # [unused-surface] no caller; _legacy_pick goes with it
        order = sorted(self.replicas, key=lambda r: weights.get(r, 0))
        return [self._legacy_pick(order, i) for i in range(len(order))]

    def _legacy_pick(self, order: list, index: int) -> str:
        return order[-1 - index]
