"""Model class TinyOmniForConditionalGeneration (weights come from a checkpoint; never loaded in the sample)."""


class TinyOmniForConditionalGeneration:
    def __init__(self, config):
        self.config = config

    def forward(self, input_ids):
        return input_ids[: self.config.max_len]
