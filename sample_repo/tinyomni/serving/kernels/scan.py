"""A chunked prefix sum."""


def prefix_sum(values: list) -> list:
    out, running = [], 0.0
    for value in values:
        running += value
        out.append(running)
    return out


def chunked_scan(values: list, chunk: int) -> list:
    return [prefix_sum(values[i:i + chunk]) for i in range(0, len(values), chunk)]
