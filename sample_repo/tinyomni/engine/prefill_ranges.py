"""Prefill chunks: token positions split into fixed-size ranges."""


def split_into_ranges(values: list[int], size: int) -> list[list[int]]:
    if size <= 0:
        raise ValueError("size must be positive")
    ranges = []
    current = []
    for value in values:
        current.append(value)
        if len(current) == size:
            ranges.append(current)
            current = []
    if current:
        ranges.append(current)
    return ranges


def prefill_chunks(positions: list[int], chunk: int) -> list[list[int]]:
    return split_into_ranges(positions, chunk)
