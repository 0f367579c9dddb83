"""Activations of the scoring model."""


def tanh_scale() -> float:
    return 0.7978845608


class GELU:  # [unused-surface] the docs' bare `GELU` is torch's: production imports that one (high)
    approximate = "tanh"
