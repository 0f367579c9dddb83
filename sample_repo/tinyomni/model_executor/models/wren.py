"""The Wren model's layers: idioms every model family writes in its own file (duplicated-implementation traps)."""

import torch
from torch import nn


def rotate_half(x):
    half = x.shape[-1] // 2
    first = x[..., :half]
    second = x[..., half:]
    rotated = torch.cat((-second, first), dim=-1)
    return rotated


def split_qkv(qkv, num_heads, num_kv_heads, head_dim):
    q_size = num_heads * head_dim
    kv_size = num_kv_heads * head_dim
    q, k, v = qkv.split([q_size, kv_size, kv_size], dim=-1)
    q = q.unflatten(-1, (num_heads, head_dim))
    k = k.unflatten(-1, (num_kv_heads, head_dim))
    return q, k, v.unflatten(-1, (num_kv_heads, head_dim))


def wren_scan(hidden_states, decay):
    state = torch.zeros_like(hidden_states[0])
    outputs = []
    for step in hidden_states:
        state = state * decay + step
        outputs.append(state)
    return torch.stack(outputs)


class WrenDecoderLayer(nn.Module):
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
