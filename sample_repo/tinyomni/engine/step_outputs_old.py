"""The step-output update of the first engine, kept while old checkpoints still replay through it."""

from __future__ import annotations

from tinyomni.engine.step_outputs import DecodeState


def apply_sampled_tokens(requests: dict[str, DecodeState], sampled: dict[str, int], eos_id: int, max_tokens: int) -> list[str]:
    finished = []
    for request_id, token in sampled.items():
        state = requests[request_id]
        state.output_ids.append(token)
        state.num_computed += 1
        if state.num_placeholders > 0:
            state.num_placeholders -= 1
        if token == eos_id or len(state.output_ids) >= max_tokens:
            state.finished = True
            finished.append(request_id)
    for request_id in finished:
        del requests[request_id]
    return finished
