"""The image transformer split across sequence-parallel ranks."""

import torch

from tinyomni.diffusion.sp_utils import chunk_and_pad


class SPImageTransformer:
    def __init__(self, rank: int, world_size: int) -> None:
        self.rank = rank
        self.world_size = world_size

    def shard(self, latents: torch.Tensor) -> torch.Tensor:
        pad = (-latents.shape[1]) % self.world_size
        return chunk_and_pad(latents, self.rank, self.world_size, pad, dim=1)
