from tinyomni.serving.keys_legacy import hash_key


def test_legacy_hash_key():
    assert hash_key("ab") == 2
