"""The talker network: thinker hidden states in, codec tokens out."""

from __future__ import annotations

import torch
from torch import nn


class TalkerModel(nn.Module):
    def __init__(self, hidden_size: int, codebook_size: int) -> None:
        super().__init__()
        self.proj = nn.Linear(hidden_size, hidden_size)
        self.head = nn.Linear(hidden_size, codebook_size)
        self._graph_pool: dict[tuple[int, torch.dtype], tuple] = {}

    def _body(self, hidden: torch.Tensor) -> torch.Tensor:
        return self.head(torch.tanh(self.proj(hidden)))

    def forward(self, thinker_hidden: torch.Tensor, use_graph: bool = True) -> torch.Tensor:
        hidden = thinker_hidden[:, -1, :]
        if hidden.dtype != self.proj.weight.dtype:
            hidden = hidden.to(self.proj.weight.dtype)
        pad = (-hidden.shape[0]) % 8
        if pad:
            hidden = torch.cat([hidden, hidden.new_zeros(pad, hidden.shape[1])])
        if not use_graph:
            return self._body(hidden).argmax(dim=-1)
        key = (hidden.shape[0], hidden.dtype)
        entry = self._graph_pool.get(key)
        if entry is None:
            static_in = hidden.clone()
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
        static_in.copy_(hidden)
        graph.replay()
        logits = static_out.clone()
        if pad:
            logits = logits[:-pad]
        codes = logits.argmax(dim=-1)
        codes[codes >= self.head.out_features - 1] = 0
        return codes
