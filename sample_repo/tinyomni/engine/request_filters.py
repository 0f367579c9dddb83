"""Request filters (trap: the base's methods have working defaults; it is the default filter)."""

from __future__ import annotations


class RequestFilter:
    """Normalises requests and decides whether they are accepted."""

    max_prompt_chars = 10_000

    def normalize(self, request: dict) -> dict:
        return {**request, "prompt": str(request.get("prompt", "")).strip()}

    def describe(self) -> str:
        return type(self).__name__

    def limit(self, request: dict) -> dict:
        return {**request, "prompt": request["prompt"][: self.max_prompt_chars]}

    def accept(self, request: dict) -> bool:
        raise NotImplementedError


class LengthFilter(RequestFilter):
    def accept(self, request: dict) -> bool:
        return 0 < len(request["prompt"]) <= self.max_prompt_chars
