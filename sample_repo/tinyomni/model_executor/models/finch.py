"""The Finch model: a decoder with a paged KV cache (weights come from a checkpoint; never loaded in the sample)."""

import torch
from torch import nn


class FinchForCausalLM(nn.Module):
    def __init__(self, config, cache_config=None):
        super().__init__()
        self.config = config
        self.block_size = cache_config.block_size if cache_config else 16
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        blocks = []
        for depth in range(config.depth):
            width = config.hidden_size if depth % 2 == 0 else config.hidden_size * 2
            blocks.append(nn.Sequential(nn.Linear(config.hidden_size, width), nn.Linear(width, config.hidden_size)))
        self.blocks = nn.ModuleList(blocks)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.packed_modules = [("gate_up_proj", "gate_proj", 0), ("gate_up_proj", "up_proj", 1)]

    def forward(self, input_ids, positions, kv_caches):
        hidden = self.get_input_embeddings(input_ids)
        pages = positions // self.block_size
        for block, cache in zip(self.blocks, kv_caches):
            if cache is None:
                hidden = block(hidden)
                continue
            cache.index_copy_(0, pages, hidden)
            hidden = block(hidden) + cache.index_select(0, pages)
        return hidden

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
