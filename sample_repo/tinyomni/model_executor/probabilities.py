"""Token probabilities for the talker's sampling step."""

from __future__ import annotations

import torch


def token_probabilities(logits: torch.Tensor) -> torch.Tensor:
    shifted = torch.exp(logits - logits.max(dim=-1, keepdim=True)[0])
    return shifted / shifted.sum(dim=-1, keepdim=True)


def unshifted_probabilities(logits: torch.Tensor) -> torch.Tensor:
    """Trap: no max shift, so large logits overflow where `torch.softmax` does not: other numerics."""
    weights = torch.exp(logits)
    return weights / weights.sum(dim=-1, keepdim=True)
