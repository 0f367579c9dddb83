"""The video transformer split across sequence-parallel ranks (its helper pasted in as a method)."""

import torch


class SPVideoTransformer:
    def __init__(self, rank: int, world_size: int) -> None:
        self.rank = rank
        self.world_size = world_size

    def _chunk_and_pad(self, x, rank, world_size, pad, dim):
        if pad > 0:
            if dim < 0:
                dim = x.ndim + dim
            pad_shape = list(x.shape)
            pad_shape[dim] = pad
            x = torch.cat([x, x.new_zeros(pad_shape)], dim=dim)
        return torch.chunk(x, world_size, dim=dim)[rank]

    def shard(self, frames: torch.Tensor) -> torch.Tensor:
        pad = (-frames.shape[2]) % self.world_size
        return self._chunk_and_pad(frames, self.rank, self.world_size, pad, dim=2)
