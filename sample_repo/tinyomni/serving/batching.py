"""Group requests into batches before they reach a stage."""


class Batcher:
    def __init__(self, size: int) -> None:
        self.size = size

    def split(self, requests: list) -> list:
        return [requests[i:i + self.size] for i in range(0, len(requests), self.size)]


class LegacyBatcher:  # [unused-surface] never built: the whole class goes
    def __init__(self, size: int) -> None:
        self.size = size
        self.pending: list = []

    def add(self, request) -> None:
        self.pending.append(request)

    def flush(self) -> list:
        batch, self.pending = self.pending, []
        return batch
