"""Upstream scheduler: it reads fields of the requests it receives."""


class Request:
    def __init__(self, request_id: str) -> None:
        self.request_id = request_id
        self.priority_hint = 0


def schedule(requests: list, head: Request) -> list:
    first = head.priority_hint
    return sorted(requests, key=lambda r: first)
