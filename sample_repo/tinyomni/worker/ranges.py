"""KV block ranges for the worker (the same splitting as the engine's prefill chunks)."""


def split_into_ranges(block_ids: list[int], size: int) -> list[list[int]]:
    if size <= 0:
        raise ValueError("size must be positive")
    out = []
    pending = []
    for block in block_ids:
        pending.append(block)
        if len(pending) == size:
            out.append(pending)
            pending = []
    if pending:
        out.append(pending)
    return out
