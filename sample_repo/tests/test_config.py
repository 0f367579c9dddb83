"""Engine config defaults (validation only)."""

from tinyomni.config import EngineConfig


def test_trace_dir_default() -> None:
    assert EngineConfig(model="tiny").trace_dir is None
