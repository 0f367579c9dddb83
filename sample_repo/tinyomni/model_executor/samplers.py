"""Token samplers and the factories that choose them."""

from __future__ import annotations


class GreedySampler:
    def sample(self, logits: list[float]) -> int:
        return max(range(len(logits)), key=logits.__getitem__)


class TopKSampler:
    def __init__(self, k: int = 4) -> None:
        self.k = k

    def sample(self, logits: list[float]) -> int:
        best = sorted(range(len(logits)), key=logits.__getitem__, reverse=True)[: self.k]
        return best[0]


def make_sampler(kind: str) -> GreedySampler:
    """Planted: a single-branch factory (one kind, every other kind raises)."""
    if kind == "greedy":
        return GreedySampler()
    raise ValueError(f"unknown sampler kind {kind!r}")


def default_sampler() -> GreedySampler:
    return make_sampler("greedy")


def make_ranked_sampler(kind: str, k: int = 4) -> GreedySampler | TopKSampler:
    """Trap: two choices, a real factory."""
    if kind == "greedy":
        return GreedySampler()
    if kind == "top-k":
        return TopKSampler(k)
    raise ValueError(f"unknown sampler kind {kind!r}")
