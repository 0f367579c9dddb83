"""Padding of token lists (copied from the upstream helpers when they were private)."""

from tinyupstream.utils import round_up


def pad_to_multiple(values: list[int], multiple: int, pad: int) -> list[int]:
    if multiple <= 0:
        raise ValueError("multiple must be positive")
    target = round_up(len(values), multiple)
    padded = list(values)
    padded.extend([pad] * (target - len(values)))
    if len(padded) % multiple:
        raise AssertionError("padding failed")
    return padded


def summarize_spans(spans: list[tuple[str, float]]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for name, seconds in spans:
        totals[name] = totals.get(name, 0.0) + seconds
    slowest = max(totals.values(), default=0.0)
    for name in list(totals):
        totals[name] = round(totals[name] / slowest, 3) if slowest else 0.0
    return totals
