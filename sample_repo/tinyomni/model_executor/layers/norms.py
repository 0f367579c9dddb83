"""Normalisation layers of the thinker and the talker."""

from __future__ import annotations

import torch
from torch import nn


class ThinkerRMSNorm(nn.Module):
    """RMSNorm computed in float32, cast back to the activation dtype before the weight."""

    def __init__(self, hidden_size: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.eps = eps

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.eps)
        return self.weight * hidden_states.to(input_dtype)


class TalkerScaleNorm(nn.Module):
    """Trap: eps added outside the root (after the square root), which no library norm computes."""

    def __init__(self, eps: float = 1e-5) -> None:
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / (torch.sqrt(x.pow(2).mean(-1, keepdim=True)) + self.eps)


class VisionLayerNorm(nn.Module):
    """LayerNorm over the channels of a channels-last patch grid, written out."""

    def __init__(self, channels: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(-1, keepdim=True)
        var = (x - mean).pow(2).mean(-1, keepdim=True)
        x = (x - mean) / torch.sqrt(var + self.eps)
        return x * self.weight + self.bias


class ChannelsFirstNorm(nn.Module):
    """Trap: the same arithmetic over dim 1 of a channels-first grid, which `layer_norm` (last dims only) cannot take."""

    def __init__(self, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(1, keepdim=True)
        var = (x - mean).pow(2).mean(1, keepdim=True)
        return (x - mean) / torch.sqrt(var + self.eps)
