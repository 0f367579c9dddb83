"""Serving helpers (validation consumers)."""

from tinyomni.serving.debug import dump_queue_state, replica_table
from tinyomni.serving.router import RequestRouter


def test_dump_queue_state():
    assert dump_queue_state(RequestRouter(["a"]))["replicas"] == ["a"]


def test_replica_table():
    assert replica_table(RequestRouter(["a", "b"])) == "a\nb"
