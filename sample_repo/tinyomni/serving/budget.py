"""Token budgets: a budgeter admits a prompt when its counter says it fits."""


class TokenCounter:
    def count(self, text: str) -> int:
        return len(text.split())


class TokenBudgeter:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.counter = TokenCounter()

    def admit(self, text: str) -> bool:
        return self.counter.count(text) <= self.limit
