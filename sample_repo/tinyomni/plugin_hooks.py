"""Loaded by the host engine through the `vllm.general_plugins` entry-point group."""


def register_everything() -> None:
    from tinyomni.connectors import factory  # noqa: F401  (registers the connectors)
