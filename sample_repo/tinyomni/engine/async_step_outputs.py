"""The async engine's step update (written from the sync engine's)."""

from __future__ import annotations

from tinyomni.engine.step_outputs import DecodeState


def update_from_output_async(requests: dict[str, DecodeState], sampled: dict[str, int], eos_id: int, max_tokens: int) -> list[str]:
    done = []
    for rid, token in sampled.items():
        state = requests[rid]
        state.output_ids.append(token)
        state.num_computed += 1
        if token == eos_id or len(state.output_ids) >= max_tokens:
            state.finished = True
            done.append(rid)
    for rid in done:
        del requests[rid]
    return done
