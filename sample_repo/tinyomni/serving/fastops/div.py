"""Element-wise division."""


def div_fast(left: list, right: list) -> list:  # [test-only-surface] its siblings are registered, it is not (medium)
    return [a / b for a, b in zip(left, right)]
