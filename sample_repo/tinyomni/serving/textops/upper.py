"""Upper-casing."""


def to_upper(text: str) -> str:
    return text.upper()
