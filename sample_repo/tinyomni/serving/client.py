"""A client for the HTTP front end."""


class StreamingClient:  # [test-only-surface] only examples/stream_demo.py uses it (medium)
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def generate_url(self) -> str:
        return f"{self.base_url}/v1/generate"
