"""The Swift model's layers: idioms every model family writes in its own file (duplicated-implementation traps)."""

import torch
from torch import nn


def swift_gate(hidden_states, threshold):
    scores = hidden_states.norm(dim=-1)
    keep = scores > threshold
    return hidden_states[keep], keep.sum()


class SwiftDecoderLayer(nn.Module):
    """A pre-norm decoder layer: every model family keeps its own (a convention, not a copy to share)."""

    def __init__(self, config):
        super().__init__()
        self.input_layernorm = nn.RMSNorm(config.hidden_size)
        self.self_attn = config.attention_cls(config)
        self.post_attention_layernorm = nn.RMSNorm(config.hidden_size)
        self.mlp = config.mlp_cls(config)

    def forward(self, positions, hidden_states, residual=None):
        if residual is None:
            residual = hidden_states
            hidden_states = self.input_layernorm(hidden_states)
        else:
            hidden_states = hidden_states + residual
            residual = hidden_states
            hidden_states = self.input_layernorm(hidden_states)
        hidden_states = self.self_attn(positions, hidden_states)
        hidden_states = hidden_states + residual
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        hidden_states = self.mlp(hidden_states)
        return hidden_states, residual
