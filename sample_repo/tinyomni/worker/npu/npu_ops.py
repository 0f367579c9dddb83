"""NPU-specific helpers."""


def npu_block_size(num_tokens: int) -> int:
    return max(128, num_tokens)
