"""Upstream transformer classes."""


class UpstreamVideoTransformer:
    def forward(self, latents):
        return latents


class UpstreamAudioTransformer:
    def forward(self, latents):
        return latents


class Qwen9MoeDecoderLayer:
    def forward(self, positions, hidden_states, residual):
        if residual is None:
            residual = hidden_states
            hidden_states = self.input_layernorm(hidden_states)
        else:
            hidden_states, residual = self.input_layernorm(hidden_states, residual)
        hidden_states = self.self_attn(positions=positions, hidden_states=hidden_states)
        hidden_states, residual = self.post_attention_layernorm(hidden_states, residual)
        hidden_states = self.mlp(hidden_states)
        return hidden_states, residual


class Qwen9DecoderLayer:
    def forward(self, positions, hidden_states, residual):
        if residual is None:
            residual = hidden_states
            hidden_states = self.input_layernorm(hidden_states)
        else:
            hidden_states, residual = self.input_layernorm(hidden_states, residual)
        hidden_states = self.self_attn(positions=positions, hidden_states=hidden_states)
        hidden_states, residual = self.post_attention_layernorm(hidden_states, residual)
        hidden_states = self.mlp(hidden_states)
        return hidden_states, residual


class ThinkerForConditionalGeneration:
    def _parse_audio_inputs(self, **kwargs):
        features = kwargs.pop("input_audio_features", None)
        lengths = kwargs.pop("audio_feature_lengths", None)
        if features is None:
            return None
        if lengths is None:
            lengths = [feature.shape[-1] for feature in features]
        return {"features": features, "lengths": lengths, "kind": "audio"}
