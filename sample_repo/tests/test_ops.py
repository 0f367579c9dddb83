from tinyomni.serving.fastops.div import div_fast
from tinyomni.serving.textops.title import to_title


def test_div_fast():
    assert div_fast([4.0], [2.0]) == [2.0]


def test_to_title():
    assert to_title("a b") == "A B"
