"""Request admission (planted: a Protocol with one structural implementation)."""

from __future__ import annotations

from typing import Protocol


class AdmissionPolicy(Protocol):
    """Decides whether a request may start now."""

    def admit(self, request: dict) -> bool: ...

    def release(self, request: dict) -> None: ...


class TokenBudgetAdmission:
    """Admits requests while their prompt tokens fit a budget (matches AdmissionPolicy by its methods)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0

    def admit(self, request: dict) -> bool:
        tokens = len(request.get("prompt_token_ids", []))
        if self.used + tokens > self.budget:
            return False
        self.used += tokens
        return True

    def release(self, request: dict) -> None:
        self.used -= len(request.get("prompt_token_ids", []))


def gate(policy: AdmissionPolicy, request: dict) -> bool:
    return policy.admit(request)
