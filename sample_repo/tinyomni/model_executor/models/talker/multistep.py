"""Multi-step decoding for the talker: several decode steps per scheduler call."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class StepBudget:
    max_steps: int
    max_tokens: int
    spent: dict[str, int] = field(default_factory=dict)


class MultiStepScheduler:
    """Runs up to `max_steps` decode steps before giving control back to the engine."""

    def __init__(self, budget: StepBudget) -> None:
        self.budget = budget
        self.running: list[str] = []
        self.finished: list[str] = []

    def admit(self, request_id: str) -> bool:
        if len(self.running) >= self.budget.max_tokens:
            return False
        self.running.append(request_id)
        self.budget.spent[request_id] = 0
        return True

    def plan(self) -> dict[str, int]:
        # Give every running request the same number of steps, capped by its budget.
        steps = {}
        for request_id in self.running:
            left = self.budget.max_steps - self.budget.spent[request_id]
            if left > 0:
                steps[request_id] = min(left, self.budget.max_steps)
        return steps

    def record(self, produced: dict[str, int], stopped: set[str]) -> None:
        for request_id, count in produced.items():
            self.budget.spent[request_id] += count
            if request_id in stopped or self.budget.spent[request_id] >= self.budget.max_steps:
                self.running.remove(request_id)
                self.finished.append(request_id)
                del self.budget.spent[request_id]

    def drain(self) -> list[str]:
        done, self.finished = self.finished, []
        return done
