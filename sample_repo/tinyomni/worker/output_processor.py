"""Turns a stage's model output into what the next stage and the API need."""

from __future__ import annotations

import numpy as np
import torch
import torch.distributed as dist


class OutputProcessor:
    def __init__(self, hidden_size: int, device: torch.device) -> None:
        self.device = device
        self.hidden_size = hidden_size
        # Captured by the CUDA graph: replays overwrite it in place.
        self.static_hidden = torch.zeros(8, hidden_size)
        self.prefix_cache: dict[int, torch.Tensor] = {}

    def sampled_ids(self, logits: torch.Tensor) -> torch.Tensor:
        """Candidate: a device→host→device round trip through a Python list."""
        ids = torch.argmax(logits, dim=-1)
        return torch.tensor(ids.tolist()).to(self.device)

    def talker_inputs(self, hidden: torch.Tensor, embeds_dtype: torch.dtype) -> torch.Tensor:
        """Trap: cast on the host, then copy: the narrower dtype crosses the bus (intended order)."""
        return hidden.to(embeds_dtype).to(self.device)

    def async_talker_inputs(self, hidden: torch.Tensor) -> torch.Tensor:
        """Candidate (micro): one `.to(device, dtype, non_blocking=True)` does both, same bytes moved."""
        return hidden.to(self.device, non_blocking=True).to(torch.bfloat16)

    def padding_rows(self, keys: torch.Tensor, values: torch.Tensor, scores: torch.Tensor) -> tuple:
        """Candidate: three identical no-op lines, one finding."""
        key_pad = torch.zeros_like(keys).to(keys.device)
        value_pad = torch.zeros_like(values).to(values.device)
        score_pad = torch.zeros_like(scores).to(scores.device)
        return key_pad, value_pad, score_pad

    def padding_row(self, hidden: torch.Tensor) -> torch.Tensor:
        """Candidate: zeros_like already lives on hidden's device."""
        return torch.zeros_like(hidden).to(hidden.device)

    def merged_hidden(self, chunks: list[torch.Tensor]) -> torch.Tensor:
        """Candidate: cloning storage torch.cat just allocated."""
        merged = torch.cat(chunks, dim=0)
        return merged.clone()

    def log_lengths(self, lengths: torch.Tensor) -> int:
        """Candidate: the same `.item()` sync twice."""
        total = lengths.sum()
        if total.item() > 4096:
            print("long batch:", total.item())
        return int(lengths.max())

    def graph_output(self) -> torch.Tensor:
        """Trap: the clone breaks aliasing with the CUDA-graph static buffer."""
        return self.static_hidden.clone()

    def cached_prefix(self, request_id: int, n: int) -> torch.Tensor:
        """Trap: the cache keeps the tensor, the caller gets its own copy."""
        prefix = torch.zeros(n, self.hidden_size)
        self.prefix_cache[request_id] = prefix
        return prefix.clone()

    def scaled(self, hidden: torch.Tensor) -> torch.Tensor:
        """Trap: `.to()` may return `hidden` itself; the clone protects it from `mul_`."""
        out = hidden.to(self.device).clone()
        out.mul_(0.5)
        return out

    def rounded(self, hidden: torch.Tensor) -> torch.Tensor:
        """Trap: deliberate rounding through bf16."""
        return hidden.to(torch.bfloat16).to(torch.float32)

    def gathered(self, hidden: torch.Tensor) -> torch.Tensor:
        """Trap: the collective needs a contiguous buffer."""
        flat = hidden.transpose(0, 1).contiguous()
        dist.all_reduce(flat)
        return flat.view(torch.uint8)

    def to_device_pinned(self, audio: torch.Tensor) -> torch.Tensor:
        """Trap: a host copy for pinned memory, then an async upload."""
        return audio.cpu().pin_memory().to(self.device, non_blocking=True)

    def spectrum(self, audio: torch.Tensor) -> torch.Tensor:
        """Trap: NumPy is the only boundary that computes this."""
        return torch.from_numpy(np.fft.rfft(audio.cpu().numpy())).to(self.device)

    def host_lengths(self, seq_lens_cpu: torch.Tensor) -> int:
        """Trap: a host tensor by name, so `.item()` costs no sync."""
        longest = seq_lens_cpu.max().item()
        if seq_lens_cpu.max().item() > 2048:
            longest = 2048
        return longest

    def npu_round_trip(self, hidden: torch.Tensor) -> torch.Tensor:
        return hidden.cpu().to(self.device)  # the NPU kernel needs a fresh allocation: sync on purpose

    def progress(self, counter: torch.Tensor) -> tuple[float, float]:
        """Trap: the value changes between the two reads."""
        before = counter.item()
        counter.add_(1)
        return before, counter.item()
