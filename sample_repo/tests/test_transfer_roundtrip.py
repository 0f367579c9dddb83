"""A payload survives the transfer encoding (validation of the connectors contract)."""

from tinyomni.connectors.serialization import json_safe


def test_json_safe_keeps_plain_values() -> None:
    assert json_safe({"n": 1}) == {"n": 1}
