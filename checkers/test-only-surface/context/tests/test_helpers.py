from bad import queue_snapshot
from good import format_queue


def test_queue_snapshot():
    assert queue_snapshot([1]) == [1]


def test_format_queue():
    assert format_queue([1, 2]) == "1, 2"
