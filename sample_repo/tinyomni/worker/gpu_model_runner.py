"""The GPU model runner."""

from __future__ import annotations

from tinyomni.worker.model_runner_base import ModelRunnerBase


class GPUModelRunner(ModelRunnerBase):
    def dummy_run(self, num_tokens: int) -> int:
        return num_tokens


def profile_run(num_tokens: int) -> int:
    return GPUModelRunner().dummy_run(num_tokens)
