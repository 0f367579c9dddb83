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
