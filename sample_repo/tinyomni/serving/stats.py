"""Counters the router keeps (served lazily by the package's `__getattr__`)."""


class RouterStats:
    def __init__(self) -> None:
        self.routed = 0

    def record(self) -> None:
        self.routed += 1
