from tinyomni.serving.engine import OmniEngineCore


def test_pick_quant():
    assert OmniEngineCore()._pick_quant("fp8") == "omni-fp8"
