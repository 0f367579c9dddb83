"""Binding an Ascend NPU worker to its device (torch_npu adds the `torch.npu` namespace)."""

from __future__ import annotations

import torch


def bind_device(local_rank: int, memory_fraction: float) -> torch.device:
    device = torch.device(f"npu:{local_rank}")
    torch.npu.set_device(device)
    torch.npu.empty_cache()
    free, total = torch.npu.mem_get_info()
    budget = int(total * memory_fraction)
    if free < budget:
        raise RuntimeError(f"only {free} bytes free on {device}, need {budget}")
    return device
