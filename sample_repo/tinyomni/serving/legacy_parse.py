"""Parsing the headers of the first wire format."""  # [test-only-surface] the whole module: only tests use it


class HeaderKind:
    TEXT = "text"
    AUDIO = "audio"


def parse_header(line: str) -> tuple:
    kind, _, size = line.partition(":")
    return kind, _size(size)


def parse_footer(line: str) -> int:
    return _size(line)


def _size(text: str) -> int:
    return int(text or 0)
