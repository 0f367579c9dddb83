from bad import Clock


class FakeClock(Clock):
    def now(self) -> float:
        return 42.0


def test_fake_clock() -> None:
    assert FakeClock().now() == 42.0
