"""Lower-casing."""


def to_lower(text: str) -> str:
    return text.lower()
