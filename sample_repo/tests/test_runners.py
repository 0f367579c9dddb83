"""Batching tests with a reference implementation of the runner's padding."""

from tinyomni.worker.runners import ModelRunner


def reference_batch(requests, max_batch, pad_id):
    chosen = sorted(requests)[:max_batch]
    longest = max((len(requests[r]) for r in chosen), default=0)
    token_ids = []
    positions = []
    for request_id in chosen:
        tokens = requests[request_id]
        token_ids.append(tokens + [pad_id] * (longest - len(tokens)))
        positions.append(len(tokens) - 1)
    return chosen, token_ids, positions


def test_padding_matches_reference():
    requests = {"a": [1, 2, 3], "b": [4]}
    batch = ModelRunner(max_batch=4, pad_id=0).prepare_batch(requests)
    assert (batch.request_ids, batch.token_ids, batch.positions) == reference_batch(requests, 4, 0)
