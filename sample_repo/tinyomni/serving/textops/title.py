"""Title-casing."""


def to_title(text: str) -> str:  # [test-only-surface] trap: siblings are called, not registered (high)
    return text.title()
