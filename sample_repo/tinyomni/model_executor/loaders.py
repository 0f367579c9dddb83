"""Model loaders (trap: the class is chosen through a `loader_cls` configuration key)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class ModelLoader(ABC):
    @abstractmethod
    def load(self, path: str) -> dict[str, Any]:
        """Weights by name."""


class SafetensorsLoader(ModelLoader):
    def load(self, path: str) -> dict[str, Any]:
        return {"path": path}


def build_loader(stage_config: dict[str, Any]) -> ModelLoader:
    loader_cls = stage_config.get("loader_cls", SafetensorsLoader)
    return loader_cls()
