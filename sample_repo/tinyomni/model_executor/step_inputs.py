"""Per-step inputs the model runner hands to the model."""

from __future__ import annotations

from dataclasses import dataclass, fields

import torch


@dataclass
class StepInputs:
    input_ids: torch.Tensor
    positions: torch.Tensor
    is_prefill: bool = False

    def clone(self, **changes):
        """A copy with some fields changed."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return type(self)(**values)

    def to_device(self, device: str) -> StepInputs:
        """Trap: a field-wise map (tensors moved); `dataclasses.asdict` would deep-copy instead."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        moved = {name: value.to(device) if isinstance(value, torch.Tensor) else value for name, value in values.items()}
        return type(self)(**moved)
