"""The CUDA model runner (context for good.py's ModelRunnerBase)."""

from good import ModelRunnerBase


class CudaModelRunner(ModelRunnerBase):
    def dummy_run(self, num_tokens: int) -> int:
        return num_tokens
