"""Reimplementations of the upstream framework `fakeflow` (see context/.upstream)."""

from fakeflow.scheduler import Scheduler
from fakeflow.utils import round_up


def pad_to_multiple(items, multiple, pad):  # [upstream-reimplementation]
    if multiple <= 0:
        raise ValueError("multiple must be positive")
    target = round_up(len(items), multiple)
    out = list(items)
    out.extend([pad] * (target - len(items)))
    if len(out) % multiple:
        raise AssertionError("padding failed")
    return out


class OmniScheduler(Scheduler):
    def update_from_output(self, sampled, eos_id):  # [upstream-reimplementation]
        stopped = []
        for request_id, tokens in sampled.items():
            output = self.running[request_id]
            output.extend(tokens)
            if not tokens or eos_id in tokens or len(output) >= self.max_tokens:
                stopped.append(request_id)
        for request_id in stopped:
            self.finished.append(request_id)
            del self.running[request_id]
        return stopped

    def admit(self, request_id, prompt):  # [upstream-reimplementation]
        if len(self.running) >= self.max_tokens:
            raise RuntimeError("full")
        self.running[request_id] = list(prompt)
        self.finished = [r for r in self.finished if r != request_id]
        budget = self.max_tokens - len(prompt)
        return budget
