"""Upstream tracing helpers (the project does not use this module)."""


def summarize_spans(spans: list[tuple[str, float]]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for name, seconds in spans:
        totals[name] = totals.get(name, 0.0) + seconds
    slowest = max(totals.values(), default=0.0)
    for name in list(totals):
        totals[name] = round(totals[name] / slowest, 3) if slowest else 0.0
    return totals
