"""Model class TinyOmniTalker (weights come from a checkpoint; never loaded in the sample)."""


class TinyOmniTalker:
    def __init__(self, config):
        self.config = config

    def forward(self, input_ids, **kwargs):
        audio = self._parse_audio_inputs(**kwargs)
        return input_ids[: self.config.max_len] if audio is None else input_ids

    def _parse_audio_inputs(self, **kwargs):
        # Same parsing as the upstream thinker model, which this class does not derive from.
        features = kwargs.pop("input_audio_features", None)
        lengths = kwargs.pop("audio_feature_lengths", None)
        if features is None:
            return None
        if lengths is None:
            lengths = [feature.shape[-1] for feature in features]
        return {"features": features, "lengths": lengths, "kind": "audio"}
