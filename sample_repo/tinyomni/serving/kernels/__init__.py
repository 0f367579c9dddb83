"""Fused serving kernels, ported ahead of their use in the engine."""  # [test-only-surface] the whole package (medium)
