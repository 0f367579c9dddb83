"""Model runners: the base runner prepares batches, the generation runner decodes audio."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Batch:
    request_ids: list[str]
    token_ids: list[list[int]]
    positions: list[int]


class ModelRunner:
    def __init__(self, max_batch: int, pad_id: int) -> None:
        self.max_batch = max_batch
        self.pad_id = pad_id

    def prepare_batch(self, requests: dict[str, list[int]]) -> Batch:
        """Pad every request to the longest one, at most `max_batch` requests."""
        chosen = sorted(requests)[: self.max_batch]
        longest = max((len(requests[r]) for r in chosen), default=0)
        token_ids = []
        positions = []
        for request_id in chosen:
            tokens = requests[request_id]
            token_ids.append(tokens + [self.pad_id] * (longest - len(tokens)))
            positions.append(len(tokens) - 1)
        return Batch(chosen, token_ids, positions)

    def run(self, requests: dict[str, list[int]]) -> Batch:
        return self.prepare_batch(requests)


class GenerationRunner(ModelRunner):
    """Decodes audio codes; batching is the base runner's."""

    def prepare_batch(self, requests: dict[str, list[int]]) -> Batch:
        # Same padding as the base runner (copied when the runner was split).
        chosen = sorted(requests)[: self.max_batch]
        longest = max((len(requests[r]) for r in chosen), default=0)
        token_ids = []
        positions = []
        for rid in chosen:
            toks = requests[rid]
            token_ids.append(toks + [self.pad_id] * (longest - len(toks)))
            positions.append(len(toks) - 1)
        return Batch(chosen, token_ids, positions)
