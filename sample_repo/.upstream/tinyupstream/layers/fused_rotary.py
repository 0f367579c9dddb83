"""Fused rotary embedding: loads the CUDA kernels, so it imports only where they are built."""

import torch

from tinyupstream.ops import direct_register_custom_op


def rotate_half(x, interleaved=False):
    if not interleaved:
        first, second = x.chunk(2, dim=-1)
        return torch.cat((-second, first), dim=-1)
    first, second = x[..., ::2], x[..., 1::2]
    return torch.stack((-second, first), dim=-1).flatten(-2)


def apply_rotary(x, cos, sin):
    return direct_register_custom_op("rotary", x, cos, sin)
