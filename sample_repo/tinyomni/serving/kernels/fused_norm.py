"""A fused RMS norm."""

from tinyomni.serving.kernels.scan import prefix_sum


def fused_rms_norm(values: list, eps: float = 1e-6) -> list:
    total = prefix_sum([v * v for v in values])[-1]
    scale = (total / len(values) + eps) ** -0.5
    return [v * scale for v in values]
