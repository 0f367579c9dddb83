"""Upstream helpers."""


def round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def pad_to_multiple(values: list[int], multiple: int, pad: int) -> list[int]:
    if multiple <= 0:
        raise ValueError("multiple must be positive")
    target = round_up(len(values), multiple)
    padded = list(values)
    padded.extend([pad] * (target - len(values)))
    if len(padded) % multiple:
        raise AssertionError("padding failed")
    return padded


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
