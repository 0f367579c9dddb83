"""Holders of a loaded model: each says whether it is ready to serve."""

from __future__ import annotations

from typing import Any, Callable


def _build(name: str) -> Any:
    return {"name": name}


class ModelSlot:
    """`ready` says what `model is not None` says (planted)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.model: Any = None
        self.ready = False

    def load(self) -> None:
        self.model = _build(self.name)
        self.ready = True

    def unload(self) -> None:
        self.model = None
        self.ready = False

    def is_ready(self) -> bool:
        return self.ready


class OffloadedSlot:
    """Trap: offload() clears `warm` and keeps `model` (moved to host memory, reused by reload)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.model: Any = None
        self.warm = False

    def load(self) -> None:
        self.model = _build(self.name)
        self.warm = True

    def offload(self) -> None:
        self.warm = False

    def drop(self) -> None:
        self.model = None

    def serving(self) -> bool:
        return self.warm


class CacheBackendBase:
    """Every backend says whether it is enabled; the base class owns the flag."""

    def __init__(self) -> None:
        self.enabled = False

    def is_enabled(self) -> bool:
        return self.enabled


class StepCacheBackend(CacheBackendBase):
    """Trap: `enabled` is the base class's flag; its readers serve every backend."""

    def __init__(self) -> None:
        super().__init__()
        self._refresh: Callable[[int], None] | None = None

    def enable(self) -> None:
        self._refresh = print
        self.enabled = True

    def refresh(self, steps: int) -> None:
        if self.enabled and self._refresh is not None:
            self._refresh(steps)
