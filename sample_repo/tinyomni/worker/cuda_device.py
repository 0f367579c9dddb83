"""Binding a CUDA worker to its device."""

from __future__ import annotations

import torch


def bind_device(local_rank: int, memory_fraction: float) -> torch.device:
    device = torch.device(f"cuda:{local_rank}")
    torch.cuda.set_device(device)
    torch.cuda.empty_cache()
    free, total = torch.cuda.mem_get_info()
    budget = int(total * memory_fraction)
    if free < budget:
        raise RuntimeError(f"only {free} bytes free on {device}, need {budget}")
    return device
