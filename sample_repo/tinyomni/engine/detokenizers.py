"""Detokenizers (planted: a Protocol that restates the concrete base right below it)."""

from __future__ import annotations

from typing import Protocol


class Detokenizer(Protocol):
    def decode(self, token_ids: list[int]) -> str: ...

    def reset(self) -> None: ...


class BaseDetokenizer:
    def __init__(self) -> None:
        self.pending: list[int] = []

    def decode(self, token_ids: list[int]) -> str:
        self.pending.extend(token_ids)
        return " ".join(str(t) for t in self.pending)

    def reset(self) -> None:
        self.pending.clear()


class IncrementalDetokenizer(BaseDetokenizer):
    def decode(self, token_ids: list[int]) -> str:
        text = super().decode(token_ids)
        self.reset()
        return text


class ByteLevelDetokenizer(BaseDetokenizer):
    def decode(self, token_ids: list[int]) -> str:
        return bytes(t % 256 for t in token_ids).decode("latin-1")


def detokenize(detokenizer: Detokenizer, token_ids: list[int]) -> str:
    return detokenizer.decode(token_ids)


def stream_text(token_ids: list[int], byte_level: bool) -> str:
    chosen = ByteLevelDetokenizer() if byte_level else IncrementalDetokenizer()
    return detokenize(chosen, token_ids)
