"""The library SiLU, and quick-GELU, whose sigmoid takes a scaled operand (other numerics)."""

import torch
import torch.nn.functional as F


def activate(x: torch.Tensor) -> torch.Tensor:
    return F.silu(x)


def quick_gelu(x: torch.Tensor) -> torch.Tensor:
    return x * torch.sigmoid(1.702 * x)
