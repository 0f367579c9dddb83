"""A byte budget: the same budgeter holding another counter (duck-typed, no common base)."""

from tinyomni.serving.budget import TokenBudgeter


class ByteCounter:
    def count(self, text: str) -> int:  # trap: TokenBudgeter.admit calls it through self.counter
        return len(text.encode())

    def histogram(self, text: str) -> dict:  # [test-only-surface] only tests/test_budget.py calls it
        return {len(word.encode()): word for word in text.split()}


class ByteBudgeter(TokenBudgeter):
    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.counter = ByteCounter()
