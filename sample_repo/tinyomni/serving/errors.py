"""Errors of the serving layer."""


class AdmissionRejected(Exception):
    """No replica can take the request (raised by the router, answered by the HTTP layer)."""


class StageTimeoutError(RuntimeError):  # [unused-surface] never raised, never caught
    """A stage did not answer in time."""

    def __init__(self, stage: str, seconds: float) -> None:
        super().__init__(f"stage {stage} timed out after {seconds}s")
        self.stage = stage
