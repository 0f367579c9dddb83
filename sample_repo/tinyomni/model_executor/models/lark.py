"""The Lark model: a dense decoder (weights come from a checkpoint; never loaded in the sample)."""

import torch
from torch import nn


def build_position_ids(seq_lens, offsets, device):
    positions = []
    for length, offset in zip(seq_lens, offsets):
        start = offset
        stop = offset + length
        positions.append(torch.arange(start, stop, device=device))
    flat = torch.cat(positions) if positions else torch.empty(0, dtype=torch.long, device=device)
    return flat


def split_media_tokens(input_ids, media_token_id, max_media):
    mask = input_ids == media_token_id
    counts = mask.sum(dim=-1)
    if int(counts.max()) > max_media:
        raise ValueError(f"at most {max_media} media tokens per request")
    text_ids = input_ids.masked_fill(mask, 0)
    return text_ids, mask, counts


class LarkForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList(nn.Linear(config.hidden_size, config.hidden_size) for _ in range(config.num_layers))
        self.norm = nn.LayerNorm(config.hidden_size)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.packed_modules = [("qkv_proj", "q_proj", 0), ("qkv_proj", "k_proj", 1), ("qkv_proj", "v_proj", 2)]

    def forward(self, input_ids, positions):
        hidden = self.get_input_embeddings(input_ids)
        hidden = hidden + self.rotary(positions)
        for layer in self.layers:
            hidden = hidden + layer(hidden)
        return self.norm(hidden)

    def rotary(self, positions):
        half = self.config.hidden_size // 2
        freqs = 1.0 / (self.config.rope_theta ** (torch.arange(0, half, dtype=torch.float32) / half))
        angles = positions.float()[:, None] * freqs[None, :]
        return torch.cat([angles.cos(), angles.sin()], dim=-1)

    def load_weights(self, weights):
        params = dict(self.named_parameters())
        loaded = set()
        for name, tensor in weights:
            for packed, shard, index in self.packed_modules:
                if shard in name:
                    name = name.replace(shard, packed)
                    params[name].weight_loader(params[name], tensor, index)
                    break
            else:
                params[name].data.copy_(tensor)
            loaded.add(name)
        return loaded

    def get_input_embeddings(self, input_ids, multimodal_embeddings=None):
        embeddings = self.embed_tokens(input_ids)
        if multimodal_embeddings is None:
            return embeddings
        mask = input_ids == self.config.media_token_id
        embeddings[mask] = multimodal_embeddings.to(embeddings.dtype)
        embeddings = embeddings * self.config.embedding_multiplier
        return embeddings

    def compute_logits(self, hidden_states):
        logits = self.lm_head(hidden_states)
        if self.config.logit_scale != 1.0:
            logits = logits * self.config.logit_scale
        if self.config.final_logit_softcapping:
            cap = self.config.final_logit_softcapping
            logits = torch.tanh(logits / cap) * cap
        return logits
