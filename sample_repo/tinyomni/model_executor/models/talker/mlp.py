"""The talker's gated MLP (SiLU gate, as its checkpoint was trained)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class TalkerMLP(nn.Module):
    def __init__(self, hidden_size: int, intermediate_size: int) -> None:
        super().__init__()
        self.gate_up = nn.Linear(hidden_size, 2 * intermediate_size, bias=False)
        self.down = nn.Linear(intermediate_size, hidden_size, bias=False)
        self.intermediate_size = intermediate_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate, up = self.gate_up(x).split(self.intermediate_size, dim=-1)
        return self.down(F.silu(gate) * up)
