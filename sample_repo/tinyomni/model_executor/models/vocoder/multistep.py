"""Multi-step decoding for the vocoder (started from the talker's scheduler)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class StepBudget:
    max_steps: int
    max_tokens: int
    spent: dict[str, int] = field(default_factory=dict)


class MultiStepScheduler:
    """Schedules vocoder chunks several steps at a time."""

    def __init__(self, budget: StepBudget) -> None:
        self.budget = budget
        self.running: list[str] = []
        self.finished: list[str] = []

    def admit(self, rid: str) -> bool:
        if len(self.running) >= self.budget.max_tokens:
            return False
        self.running.append(rid)
        self.budget.spent[rid] = 0
        return True

    def plan(self) -> dict[str, int]:
        plan = {}
        for rid in self.running:
            remaining = self.budget.max_steps - self.budget.spent[rid]
            if remaining > 0:
                plan[rid] = min(remaining, self.budget.max_steps)
        return plan

    def record(self, produced: dict[str, int], stopped: set[str]) -> None:
        # Requests that stopped or spent their budget leave the running set.
        for rid, n in produced.items():
            self.budget.spent[rid] += n
            if rid in stopped or self.budget.spent[rid] >= self.budget.max_steps:
                self.running.remove(rid)
                self.finished.append(rid)
                del self.budget.spent[rid]

    def drain(self) -> list[str]:
        done, self.finished = self.finished, []
        return done
