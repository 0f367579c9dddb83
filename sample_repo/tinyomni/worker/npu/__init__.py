"""NPU kernels; the NPU model runner itself ships in the out-of-tree NPU plugin."""
