from tinyomni.serving.legacy_parse import HeaderKind, parse_footer, parse_header


def test_header():
    assert parse_header(f"{HeaderKind.TEXT}:3") == ("text", 3)


def test_footer():
    assert parse_footer("4") == 4
