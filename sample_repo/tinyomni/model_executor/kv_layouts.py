"""KV-cache layouts (trap: implementations are fed through a registry)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Callable

LAYOUT_REGISTRY: dict[str, type["KVLayout"]] = {}
DEFAULT_LAYOUT = "paged"


def register_layout(name: str) -> Callable[[type["KVLayout"]], type["KVLayout"]]:
    def wrap(cls: type["KVLayout"]) -> type["KVLayout"]:
        LAYOUT_REGISTRY[name] = cls
        return cls

    return wrap


class KVLayout(ABC):
    @abstractmethod
    def block_shape(self, block_size: int, head_dim: int) -> tuple[int, int]:
        """Shape of one cache block."""


@register_layout("paged")
class PagedLayout(KVLayout):
    def block_shape(self, block_size: int, head_dim: int) -> tuple[int, int]:
        return (block_size, head_dim)


def layout(name: str = DEFAULT_LAYOUT) -> KVLayout:
    return LAYOUT_REGISTRY[name]()
