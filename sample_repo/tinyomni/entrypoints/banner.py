"""The startup banner (planted: a class whose only member is a static method called from one place)."""


class Banner:
    """Text printed when the server starts."""

    @staticmethod
    def render(deploy: str, timeout: float) -> str:
        return f"serving {deploy} (timeout {timeout}s)"
