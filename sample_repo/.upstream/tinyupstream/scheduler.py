"""Upstream scheduler: it reads fields of the requests it receives."""


class Request:
    def __init__(self, request_id: str) -> None:
        self.request_id = request_id
        self.priority_hint = 0


def schedule(requests: list, head: Request) -> list:
    first = head.priority_hint
    return sorted(requests, key=lambda r: first)


class Scheduler:
    def __init__(self, max_tokens: int) -> None:
        self.max_tokens = max_tokens
        self.running: dict[str, list[int]] = {}
        self.finished: list[str] = []

    def update_from_output(self, sampled: dict[str, list[int]], eos_id: int) -> list[str]:
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
