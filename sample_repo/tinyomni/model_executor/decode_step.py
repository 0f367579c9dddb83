"""The decode step of a stage: `forward` runs once per generated token."""

from __future__ import annotations

import torch


class DecodeStep:
    def __init__(self, vocab_size: int, device: torch.device) -> None:
        # Candidate (cold): built on the host, then moved; it runs once, so it ranks low.
        self.bias = torch.zeros(vocab_size).to(device)
        self.device = device

    def forward(self, logits: torch.Tensor) -> torch.Tensor:
        """Candidate (hot): a device→host→device round trip on every decode step."""
        ids = torch.argmax(logits + self.bias + _penalty(logits), dim=-1)
        return torch.tensor(ids.tolist(), device=self.device)


def _penalty(logits: torch.Tensor) -> torch.Tensor:
    """Candidate (micro, hot through its caller `DecodeStep.forward`): a no-op `.to()`."""
    return torch.zeros_like(logits).to(logits.device)
