"""Upstream engine loop: it calls a hook on its own subclasses and reads metrics from any engine it runs."""


class EngineCore:
    def step(self):
        return self.schedule_batch()

    def schedule_batch(self):
        raise NotImplementedError


def run_loop(engine, steps: int):
    for _ in range(steps):
        engine.step()
    return engine.collect_metrics()
