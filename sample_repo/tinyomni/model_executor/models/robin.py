"""The Robin model: a mixture of experts (weights come from a checkpoint; never loaded in the sample)."""

import torch
from torch import nn


class RobinForCausalLM(nn.Module):
    def __init__(self, config, prefix=""):
        super().__init__()
        self.config = config
        self.prefix = prefix
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.experts = nn.ModuleList(nn.Linear(config.hidden_size, config.hidden_size) for _ in range(config.num_experts))
        self.router = nn.Linear(config.hidden_size, config.num_experts, bias=False)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.packed_modules = [("experts.w13", "experts.w1", 0), ("experts.w13", "experts.w3", 1)]

    def forward(self, input_ids, positions):
        hidden = self.get_input_embeddings(input_ids)
        weights, chosen = torch.topk(torch.softmax(self.router(hidden), dim=-1), self.config.top_k, dim=-1)
        output = torch.zeros_like(hidden)
        for slot in range(self.config.top_k):
            for expert_id in chosen[:, slot].unique().tolist():
                rows = chosen[:, slot] == expert_id
                output[rows] += weights[rows, slot, None] * self.experts[expert_id](hidden[rows])
        return output

    def expert_load(self, chosen):
        counts = torch.bincount(chosen.flatten(), minlength=self.config.num_experts)
        busiest = int(counts.argmax())
        if counts[busiest] > 2 * counts.float().mean():
            self.overloaded.append((self.prefix, busiest))
        return counts

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
