"""Applies one model step's sampled tokens to the engine's request states."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class DecodeState:
    output_ids: list[int] = field(default_factory=list)
    num_computed: int = 0
    num_placeholders: int = 0
    finished: bool = False


def update_from_output(requests: dict[str, DecodeState], sampled: dict[str, int], eos_id: int, max_tokens: int) -> list[str]:
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
