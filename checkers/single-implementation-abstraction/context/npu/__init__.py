"""NPU kernels; the NPU runner ships in an out-of-tree plugin."""
