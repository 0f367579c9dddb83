"""Connectors move stage outputs between processes; the deploy config names one by key."""

import importlib


class ConnectorFactory:
    _creators: dict[str, tuple[str, str]] = {}

    @classmethod
    def register_connector(cls, name: str, module_path: str, class_name: str) -> None:
        cls._creators[name] = (module_path, class_name)

    @classmethod
    def create(cls, name: str, **kwargs):
        module_path, class_name = cls._creators[name]
        return getattr(importlib.import_module(module_path), class_name)(**kwargs)


ConnectorFactory.register_connector(
    "SharedMemoryConnector", "tinyomni.connectors.shm_connector", "SharedMemoryConnector"
)
ConnectorFactory.register_connector(
    "MooncakeConnector", "tinyomni.connectors.mooncake_connector", "MooncakeConnector"
)
ConnectorFactory.register_connector(
    "ZmqConnector", "tinyomni.connectors.zmq_connector", "ZmqConnector"
)
