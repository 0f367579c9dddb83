"""The project's request: the upstream scheduler reads it after the swap in upstream_patches."""


class OmniRequest:
    def __init__(self, request_id: str, priority: int) -> None:
        self.request_id = request_id
        self.priority_hint = priority
        self.stage_trace = []

    def describe(self) -> str:
        return self.request_id

    def restart_at(self, stage: str) -> None:
        self.stage_trace = [stage]
