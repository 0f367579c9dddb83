"""Fused layers (trap: the base extends a third-party class; the abstraction belongs upstream)."""

from __future__ import annotations

import torch


class FusedLayer(torch.nn.Module):
    def fuse(self) -> None:
        raise NotImplementedError


class FusedRMSNorm(FusedLayer):
    def __init__(self, hidden_size: int) -> None:
        super().__init__()
        self.hidden_size = hidden_size
        self.fused = False

    def fuse(self) -> None:
        self.fused = True
