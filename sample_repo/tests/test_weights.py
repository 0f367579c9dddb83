from tinyomni.serving.weights import WeightSwapper


def test_swap_cycle():
    swapper = WeightSwapper()
    swapper.swap_in("q")
    assert swapper.packed_layers() == ["q"]
    swapper.unpack_for_reload("q")
    swapper.release_to_trainer("q")
