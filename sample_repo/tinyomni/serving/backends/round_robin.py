"""Round-robin replica picking."""


class RoundRobinBackend:
    def __init__(self, replicas: list[str]) -> None:
        self.replicas = replicas
        self.cursor = 0

    def pick(self) -> str:
        self.cursor = (self.cursor + 1) % len(self.replicas)
        return self.replicas[self.cursor]
