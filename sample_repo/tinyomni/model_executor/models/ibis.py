"""The Ibis model's layers: idioms every model family writes in its own file (duplicated-implementation traps)."""

import torch
from torch import nn


def rotate_half(x):
    half = x.shape[-1] // 2
    first = x[..., :half]
    second = x[..., half:]
    rotated = torch.cat((-second, first), dim=-1)
    return rotated


def ibis_pool(hidden_states, mask):
    weights = mask.float().unsqueeze(-1)
    total = (hidden_states * weights).sum(dim=0)
    count = weights.sum(dim=0).clamp(min=1)
    return total / count


class IbisDecoderLayer(nn.Module):
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
