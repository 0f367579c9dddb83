"""Sequence-parallel helpers shared by the diffusion transformers."""

import torch


def chunk_and_pad(x, rank, world_size, pad, dim):
    if pad > 0:
        if dim < 0:
            dim = x.ndim + dim
        shape = list(x.shape)
        shape[dim] = pad
        x = torch.cat([x, x.new_zeros(shape)], dim=dim)
    return torch.chunk(x, world_size, dim=dim)[rank]
