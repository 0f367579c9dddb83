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


def token_log_probabilities(logits: torch.Tensor) -> torch.Tensor:
    return logits - torch.logsumexp(logits, dim=-1, keepdim=True)


def draft_log_ratio(draft_logits: torch.Tensor, target_logits: torch.Tensor) -> torch.Tensor:
    """Trap: the draft's logits over the target's normaliser, not a log-softmax of either."""
    return draft_logits - torch.logsumexp(target_logits, dim=-1, keepdim=True)
