"""The decode step of a stage: `forward` runs once per generated token."""

from __future__ import annotations

import torch


class DecodeStep:
    def __init__(self, vocab_size: int, device: torch.device) -> None:
        # Candidate (cold, medium): built on the host, then moved; it runs once, so it ranks low.
        self.bias = torch.zeros(vocab_size).to(device)
        self.device = device

    def forward(self, logits: torch.Tensor) -> torch.Tensor:
        """Candidate (hot): a device→host→device round trip on every decode step."""
        ids = torch.argmax(logits + self.bias, dim=-1)
        return torch.tensor(ids.tolist(), device=self.device)
