"""The Lark-VL model: Lark with a vision encoder (weights come from a checkpoint; never loaded in the sample)."""

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


class LarkVisionEncoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.patch = nn.Conv2d(3, config.vision_hidden_size, config.patch_size, stride=config.patch_size)
        self.proj = nn.Linear(config.vision_hidden_size, config.hidden_size)

    def forward(self, pixel_values):
        patches = self.patch(pixel_values).flatten(2).transpose(1, 2)
        return self.proj(patches)


class LarkVLForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.vision = LarkVisionEncoder(config)
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(config.hidden_size, config.num_heads), config.num_layers)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.packed_modules = [("qkv_proj", "q_proj", 0), ("qkv_proj", "k_proj", 1), ("qkv_proj", "v_proj", 2)]

    def forward(self, input_ids, positions, pixel_values=None):
        media = self.vision(pixel_values) if pixel_values is not None else None
        hidden = self.get_input_embeddings(input_ids, media)
        memory = hidden if media is None else torch.cat([media, hidden], dim=1)
        return self.decoder(hidden, memory)

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
