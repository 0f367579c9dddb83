"""Upstream scheduler."""


class Scheduler:
    def __init__(self, max_tokens):
        self.max_tokens = max_tokens
        self.running = {}
        self.finished = []

    def update_from_output(self, sampled, eos_id):
        stopped = []
        for request_id, tokens in sampled.items():
            output = self.running[request_id]
            output.extend(tokens)
            if eos_id in tokens or len(output) >= self.max_tokens:
                stopped.append(request_id)
        for request_id in stopped:
            self.finished.append(request_id)
            del self.running[request_id]
        return stopped

    def admit(self, request_id, prompt):
        if len(self.running) >= self.max_tokens:
            raise RuntimeError("full")
        self.running[request_id] = list(prompt)
        self.finished = [r for r in self.finished if r != request_id]
        budget = self.max_tokens - len(prompt)
        return budget
