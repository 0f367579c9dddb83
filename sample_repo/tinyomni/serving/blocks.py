"""Layers of the router's small scoring model."""

from torch.nn import GELU

from tinyomni.serving import activations


class Residual:
    def __init__(self) -> None:
        self.act = GELU()
        self.scale = activations.tanh_scale()


class LayerNorm:  # [unused-surface] the docs name torch.nn.LayerNorm, not this one (high)
    eps = 1e-6


class PatchMerger:  # [test-only-surface] trap: the docs name it, unqualified (medium, docs-only)
    size = 2
