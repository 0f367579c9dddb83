from tinyomni.serving.budget_bytes import ByteCounter


def test_byte_count():
    counter = ByteCounter()
    assert counter.count("ab") == 2
    assert counter.histogram("a bb") == {1: "a", 2: "bb"}
