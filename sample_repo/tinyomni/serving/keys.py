"""Routing keys."""


def hash_key(text: str) -> int:
    return sum(text.encode()) % 997
