"""Rotary embedding of the diffusion transformers: the fused upstream kernel on CUDA, plain torch elsewhere."""

import torch


def rotate_half(x, interleaved=False):
    if not interleaved:
        left, right = x.chunk(2, dim=-1)
        return torch.cat((-right, left), dim=-1)
    left, right = x[..., ::2], x[..., 1::2]
    return torch.stack((-right, left), dim=-1).flatten(-2)


class DiffusionRope:
    """Picks the rotary implementation for the platform."""

    def __init__(self, on_cuda: bool) -> None:
        self.on_cuda = on_cuda

    def __call__(self, x, cos, sin):
        if self.on_cuda:
            # The fused module loads the CUDA kernels: import it only where they exist.
            from tinyupstream.layers.fused_rotary import apply_rotary

            return apply_rotary(x, cos, sin)
        return x * cos + rotate_half(x) * sin
