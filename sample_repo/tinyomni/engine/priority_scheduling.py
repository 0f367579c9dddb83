"""Priority scheduling: a second implementation of `Scheduler`, through `FifoScheduler`."""

from __future__ import annotations

from tinyomni.engine.scheduling import FifoScheduler


class PriorityScheduler(FifoScheduler):
    """Highest priority first; ties in arrival order."""

    def pick(self, waiting: list[dict]) -> dict | None:
        if not waiting:
            return None
        return max(waiting, key=lambda request: request.get("priority", 0))


def scheduler_for(policy: str) -> FifoScheduler:
    return PriorityScheduler() if policy == "priority" else FifoScheduler()
