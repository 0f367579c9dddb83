"""Text codecs (trap: a Protocol with two structural implementations, neither inherits it)."""

from __future__ import annotations

from typing import Protocol


class TextCodec(Protocol):
    """Turns text into ids and back."""

    def encode(self, text: str) -> list[int]: ...

    def decode(self, ids: list[int]) -> str: ...


class ByteCodec:
    def encode(self, text: str) -> list[int]:
        return list(text.encode("utf-8"))

    def decode(self, ids: list[int]) -> str:
        return bytes(ids).decode("utf-8", errors="replace")


class WordCodec:
    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}

    def encode(self, text: str) -> list[int]:
        return [self.vocab.setdefault(word, len(self.vocab)) for word in text.split()]

    def decode(self, ids: list[int]) -> str:
        words = {index: word for word, index in self.vocab.items()}
        return " ".join(words.get(i, "?") for i in ids)
