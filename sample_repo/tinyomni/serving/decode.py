"""Paged decoding for the router's replicas."""

from tinyomni.serving.rope import repeat_rope, rope_cache_size, rotate_half


def paged_decode(tokens: list, page: int) -> list:
    return [rotate_half(tokens[i:i + page]) for i in range(0, len(tokens), page)]


def paged_decode_torch(tokens: list, page: int) -> list:  # [test-only-surface] a reference beside paged_decode (medium)
    pages = []
    for start in range(0, len(tokens), page):
        pages.append(rotate_half(list(tokens[start:start + page])))
    return pages


def blend_scores(scores: list) -> list:  # [test-only-surface] its docstring calls it a reference (medium)
    """Naive implementation kept for parity tests of the fused scoring path."""
    total = sum(scores) or 1.0
    return [s / total for s in scores]


def topk_torch(values: list, k: int) -> list:  # [test-only-surface] trap: a reference suffix, no production twin (high)
    return sorted(values, reverse=True)[:k]
