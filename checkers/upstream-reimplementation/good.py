"""Look-alikes of upstream code that must stay: an Omni-specific override, a changed computation."""

from fakeflow.scheduler import Scheduler
from fakeflow.utils import round_up


class StreamingScheduler(Scheduler):
    def update_from_output(self, sampled, eos_id):
        emitted = {rid: tokens for rid, tokens in sampled.items() if tokens}
        for rid, tokens in emitted.items():
            self.running.setdefault(rid, []).extend(tokens)
            self.publish(rid, tokens)
        done = [rid for rid, tokens in emitted.items() if eos_id in tokens]
        for rid in done:
            self.running.pop(rid, None)
        return done

    def publish(self, request_id, tokens):
        print(request_id, tokens)


def pad_to_multiple(values, multiple, pad):
    if multiple <= 0:
        raise ValueError("multiple must be positive")
    target = round_up(len(values), multiple * 2)
    padded = list(values)
    padded.extend([pad] * (target - len(values)))
    if len(padded) % multiple:
        raise AssertionError("padding failed")
    return padded
