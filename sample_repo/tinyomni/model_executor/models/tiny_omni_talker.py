"""Model class TinyOmniTalker (weights come from a checkpoint; never loaded in the sample)."""


class TinyOmniTalker:
    def __init__(self, config):
        self.config = config

    def forward(self, input_ids):
        return input_ids[: self.config.max_len]
