"""The Omni GPU worker: the upstream worker plus stage bookkeeping."""

import os

import torch
from tinyupstream.worker import GPUWorker


class OmniGPUWorker(GPUWorker):
    def __init__(self, local_rank: int, memory_fraction: float, stage_id: int) -> None:
        super().__init__(local_rank, memory_fraction)
        self.stage_id = stage_id

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
