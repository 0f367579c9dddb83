from unittest import mock

from tinyomni.serving.keys import hash_key


def test_hash_key():
    with mock.patch("tinyomni.serving.keys.hash_key", return_value=1):
        pass
    assert hash_key("a") == 97
