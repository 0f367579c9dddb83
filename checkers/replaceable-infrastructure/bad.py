"""A hand-written SiLU: the library has it."""

import torch


def activate(x: torch.Tensor) -> torch.Tensor:
    return x * torch.sigmoid(x)  # [replaceable-infrastructure]
