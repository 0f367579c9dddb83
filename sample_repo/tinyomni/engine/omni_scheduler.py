"""The Omni scheduler: pooling stages finish without producing tokens."""

from tinyupstream.scheduler import Scheduler


class OmniScheduler(Scheduler):
    def update_from_output(self, sampled: dict[str, list[int]], eos_id: int) -> list[str]:
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


class StreamingScheduler(Scheduler):
    """Streams partial outputs to the client; shares nothing with the upstream loop but its name."""

    def update_from_output(self, sampled: dict[str, list[int]], eos_id: int) -> list[str]:
        emitted = {rid: tokens for rid, tokens in sampled.items() if tokens}
        for rid, tokens in emitted.items():
            self.running.setdefault(rid, []).extend(tokens)
            self.publish(rid, tokens)
        done = [rid for rid, tokens in emitted.items() if eos_id in tokens]
        for rid in done:
            self.running.pop(rid, None)
        return done

    def publish(self, request_id: str, tokens: list[int]) -> None:
        print(request_id, tokens)
