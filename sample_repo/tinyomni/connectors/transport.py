"""Transports between stages; the class comes from the connector config's `adapter_cls` key."""


class TcpTransportAdapter:
    def send(self, payload: bytes) -> int:
        return len(payload)


def make_transport(connector_config: dict):
    adapter_cls = connector_config.get("adapter_cls", TcpTransportAdapter)
    return adapter_cls()
