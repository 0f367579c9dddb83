from tinyomni.serving.decode import blend_scores, paged_decode, paged_decode_torch, topk_torch
from tinyomni.serving.rope import repeat_rope


def test_paged_decode_matches_reference():
    assert paged_decode([1, 2, 3, 4], 2) == paged_decode_torch([1, 2, 3, 4], 2)


def test_blend_scores():
    assert blend_scores([1.0, 1.0]) == [0.5, 0.5]


def test_topk():
    assert topk_torch([3, 1, 2], 2) == [3, 2]


def test_repeat_rope():
    assert repeat_rope([1, 2], 2) == [1, 1, 2, 2]
