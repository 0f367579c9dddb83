"""Environment settings are read lazily, with their defaults (validation of the runtime contract)."""

from tinyomni import envs


def test_stage_timeout_default(monkeypatch) -> None:
    monkeypatch.delenv("TINYOMNI_STAGE_TIMEOUT_S", raising=False)
    assert envs.TINYOMNI_STAGE_TIMEOUT_S == 30.0
