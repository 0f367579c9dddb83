"""Upstream GPU worker."""

import os

import torch


class GPUWorker:
    def __init__(self, local_rank: int, memory_fraction: float) -> None:
        self.local_rank = local_rank
        self.memory_fraction = memory_fraction
        self.device = None

    def init_device(self) -> torch.device:
        os.environ.setdefault("NCCL_ASYNC_ERROR_HANDLING", "1")
        device = torch.device(f"cuda:{self.local_rank}")
        torch.cuda.set_device(device)
        torch.cuda.empty_cache()
        free, total = torch.cuda.mem_get_info()
        budget = int(total * self.memory_fraction)
        if free < budget:
            raise RuntimeError(f"only {free} bytes free, need {budget}")
        self.device = device
        return device
