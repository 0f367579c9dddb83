"""Always the first replica."""


class FirstBackend:
    def __init__(self, replicas: list[str]) -> None:
        self.replicas = replicas

    def pick(self) -> str:
        return self.replicas[0]
