"""Deadlines are computed from the injected clock (the Clock abstraction is a test seam)."""

from tinyomni.engine.clock import Clock, deadline


class FakeClock(Clock):
    def __init__(self, start: float) -> None:
        self.start = start

    def now(self) -> float:
        return self.start


def test_deadline_adds_timeout() -> None:
    assert deadline(FakeClock(10.0), 2.5) == 12.5
