"""Upstream helpers."""


def round_up(value, multiple):
    return -(-value // multiple) * multiple


def pad_to_multiple(values, multiple, pad):
    if multiple <= 0:
        raise ValueError("multiple must be positive")
    target = round_up(len(values), multiple)
    padded = list(values)
    padded.extend([pad] * (target - len(values)))
    if len(padded) % multiple:
        raise AssertionError("padding failed")
    return padded
