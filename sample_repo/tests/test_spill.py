from tinyomni.serving.spill import SpillManager


def test_spill_round_trip():
    manager = SpillManager()
    manager.spill_out([1])
    manager.spill_in([1])
    assert manager.pool.pages == {1: "device"}
