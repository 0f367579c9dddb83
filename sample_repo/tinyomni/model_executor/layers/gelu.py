"""GELU variants the vocoder and the audio encoder use."""

from __future__ import annotations

import math

import torch


def vocoder_gelu(x: torch.Tensor) -> torch.Tensor:
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def gated_tanh(x: torch.Tensor, gate: torch.Tensor) -> torch.Tensor:
    """Trap: the tanh takes another tensor, so this is a gate, not GELU."""
    return 0.5 * x * (1.0 + torch.tanh(gate))
