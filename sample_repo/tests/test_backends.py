"""Backends, imported through the package's lazy exports (a validation consumer of the table)."""

from tinyomni.serving.backends import FirstBackend


def test_first_backend_picks_the_first_replica():
    assert FirstBackend(["a", "b"]).pick() == "a"
