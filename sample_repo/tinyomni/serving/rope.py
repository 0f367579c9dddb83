"""Rotary helpers of the decoder."""


def rotate_half(values: list) -> list:
    half = len(values) // 2
    return values[half:] + values[:half]


def repeat_rope(values: list, times: int) -> list:  # [test-only-surface] high; decode.py still imports it
    return [v for v in values for _ in range(times)]


def rope_cache_size(heads: int, dim: int) -> int:  # [unused-surface] high; decode.py still imports it
    return heads * dim * 2
