"""Requests whose pages are in flight to or from another replica."""


class SendTracker:
    def __init__(self) -> None:
        self._sending: set[str] = set()

    def start(self, request_id: str) -> None:
        self._sending.add(request_id)

    def finish_sending(self, done: set[str]) -> None:  # [test-only-surface] possible missing call (medium)
        self._sending.difference_update(done)


class LoadTracker:
    def __init__(self) -> None:
        self._loading: set[str] = set()

    def begin(self, request_id: str) -> None:
        self._loading.add(request_id)

    def step(self, finished_ids: set[str]) -> None:
        for request_id in finished_ids:
            self._loading.discard(request_id)

    def finish_loading(self, done: set[str]) -> None:  # [test-only-surface] trap: step prunes on completion (high)
        self._loading.difference_update(done)
