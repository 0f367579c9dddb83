"""Model class TinyOmniLegacyLM (weights come from a checkpoint; never loaded in the sample)."""


class TinyOmniLegacyLM:
    def __init__(self, config):
        self.config = config

    def forward(self, input_ids):
        return input_ids[: self.config.max_len]
