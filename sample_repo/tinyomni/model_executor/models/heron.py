"""The Heron model: a state-space mixer (weights come from a checkpoint; never loaded in the sample)."""

import torch
from torch import nn


class HeronForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.mixer = nn.Linear(config.hidden_size, 2 * config.hidden_size)
        self.out_proj = nn.Linear(2 * config.hidden_size, config.hidden_size)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.packed_modules = []
        self.register_buffer("decay", torch.linspace(0.9, 0.999, 2 * config.hidden_size))

    def forward(self, input_ids, positions, state=None):
        hidden = self.get_input_embeddings(input_ids)
        mixed = self.mixer(hidden)
        outputs = []
        for step in range(mixed.shape[0]):
            state = mixed[step] if state is None else state * self.decay + mixed[step]
            outputs.append(state)
        scanned = torch.stack(outputs)
        return self.out_proj(scanned), state

    def reset_state(self, batch_size, device):
        with torch.no_grad():
            zeros = torch.zeros(batch_size, 2 * self.config.hidden_size, device=device)
        return zeros

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
