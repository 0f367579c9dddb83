"""The serving engine extends the upstream engine loop."""

from tinyupstream.engine import EngineCore


class OmniEngineCore(EngineCore):
    def __init__(self) -> None:
        self.batches = 0

    def schedule_batch(self):
        self.batches += 1
        return self.batches

    def collect_metrics(self) -> dict:
        return {"batches": self.batches}

    def legacy_step(self):  # [unused-surface] neither the project nor upstream calls it
        return self.schedule_batch()
