"""Denoising blocks that a step cache may skip (planted: a base that only holds attributes for one subclass)."""

from __future__ import annotations

import torch


class CacheAwareBlock(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.cache_enabled = False
        self.skip_threshold = 0.1


class ResidualDiTBlock(CacheAwareBlock):
    def __init__(self, hidden_size: int) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(hidden_size, hidden_size)

    def forward(self, hidden: torch.Tensor, delta: float) -> torch.Tensor:
        if self.cache_enabled and delta < self.skip_threshold:
            return hidden
        return hidden + self.proj(hidden)


def denoise(hidden: torch.Tensor, delta: float) -> torch.Tensor:
    return ResidualDiTBlock(hidden.shape[-1])(hidden, delta)
