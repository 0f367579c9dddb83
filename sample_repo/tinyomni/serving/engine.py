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

    def _pick_quant(self, name: str):  # trap: calls super()._pick_quant: a newer upstream's hook (silent)
        if name == "fp8":
            return "omni-fp8"
        return super()._pick_quant(name)

    def _warm_device(self):  # trap: overrides an upstream method nothing here calls (silent)
        return super()._warm_device()


class ReplayEngineCore(OmniEngineCore):
    def legacy_step(self):  # trap: super() reaches the project's own legacy_step: still unused, with it
        return super().legacy_step()
