"""The thinker's output head, replayed from a CUDA graph when the batch size repeats."""

from __future__ import annotations

import torch
from torch import nn


class ThinkerHead(nn.Module):
    def __init__(self, hidden_size: int, vocab_size: int) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)
        self._graph_pool: dict[tuple[int, torch.dtype], tuple] = {}

    def _body(self, hidden: torch.Tensor) -> torch.Tensor:
        return self.lm_head(self.norm(hidden))

    def forward(self, hidden_states: torch.Tensor, temperature: float = 1.0) -> torch.Tensor:
        if temperature <= 0:
            raise ValueError("temperature must be positive")
        last = hidden_states[:, -1, :] / temperature
        last = last.float()
        key = (last.shape[0], last.dtype)
        entry = self._graph_pool.get(key)
        if entry is None:
            static_in = last.clone()
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                self._body(static_in)
            torch.cuda.current_stream().wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                static_out = self._body(static_in)
            entry = self._graph_pool[key] = (graph, static_in, static_out)
        graph, static_in, static_out = entry
        static_in.copy_(last)
        graph.replay()
        logits = static_out.clone()
        top = torch.topk(logits, k=min(50, logits.shape[-1]), dim=-1)
        masked = torch.full_like(logits, float("-inf")).scatter(-1, top.indices, top.values)
        return torch.softmax(masked, dim=-1)
