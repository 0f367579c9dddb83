"""The audio transformer split across sequence-parallel ranks (its helper pasted in as a static method)."""

import torch


class SPAudioTransformer:
    def __init__(self, rank: int, world_size: int) -> None:
        self.rank = rank
        self.world_size = world_size

    @staticmethod
    def _chunk_and_pad(x, rank, world_size, pad, dim):
        if pad > 0:
            if dim < 0:
                dim = x.ndim + dim
            padding = list(x.shape)
            padding[dim] = pad
            x = torch.cat([x, x.new_zeros(padding)], dim=dim)
        return torch.chunk(x, world_size, dim=dim)[rank]

    def shard(self, frames: torch.Tensor) -> torch.Tensor:
        pad = (-frames.shape[1]) % self.world_size
        return SPAudioTransformer._chunk_and_pad(frames, self.rank, self.world_size, pad, dim=1)
