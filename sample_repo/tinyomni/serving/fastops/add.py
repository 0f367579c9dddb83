"""Element-wise addition."""


def add_fast(left: list, right: list) -> list:
    return [a + b for a, b in zip(left, right)]
