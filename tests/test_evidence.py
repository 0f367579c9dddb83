"""The downgrade rules of the audit method, in the order `judge` applies them."""

from __future__ import annotations

from pylint.interfaces import HIGH, INFERENCE, UNDEFINED

from pylint_omni.evidence.consumers import Consumer, ConsumerKind, Status, judge

PROD = Consumer("pkg/a.py", 3, "str", ConsumerKind.PRODUCTION, "k")
TEST = Consumer("tests/test_a.py", 5, "str", ConsumerKind.VALIDATION, "k")
DOC = Consumer("docs/a.md", 7, "doc", ConsumerKind.VALIDATION, "k")
ENTRY = Consumer("pyproject.toml", 9, "entry-point:grp", ConsumerKind.EXTERNAL, "k")


def test_production_consumer_means_live() -> None:
    verdict = judge([PROD, TEST, ENTRY], reject_reasons=["anything"])
    assert verdict.status is Status.LIVE


def test_external_only_is_rejected_naming_the_consumer() -> None:
    verdict = judge([ENTRY, TEST])
    assert verdict.status is Status.REJECTED
    assert "pyproject.toml:9" in verdict.reason
    assert verdict.pylint_confidence is UNDEFINED


def test_unresolvable_dynamic_path_rejects() -> None:
    verdict = judge([], reject_reasons=["keys are built dynamically"])
    assert (verdict.status, verdict.reason) == (Status.REJECTED, "keys are built dynamically")


def test_externally_keyed_mentioned_anywhere_is_rejected() -> None:
    assert judge([TEST], externally_keyed=True).status is Status.REJECTED


def test_externally_keyed_mentioned_nowhere_is_medium() -> None:
    verdict = judge([], externally_keyed=True)
    assert (verdict.status, verdict.confidence) == (Status.CANDIDATE, "medium")
    assert verdict.pylint_confidence is INFERENCE
    assert "outside this repository" in verdict.reason


def test_documented_user_facing_name_is_rejected() -> None:
    verdict = judge([DOC], documented_rejects=True)
    assert verdict.status is Status.REJECTED and "docs/a.md:7" in verdict.reason
    assert judge([DOC]).status is Status.CANDIDATE


def test_validation_only_is_medium_naming_the_tests() -> None:
    verdict = judge([TEST])
    assert (verdict.status, verdict.confidence) == (Status.CANDIDATE, "medium")
    assert "tests/test_a.py:5" in verdict.reason


def test_unknowns_downgrade_to_medium() -> None:
    verdict = judge([], medium_reasons=["keys may come from an environment variable"])
    assert verdict.confidence == "medium" and verdict.unknowns == ["keys may come from an environment variable"]


def test_nothing_at_all_is_high() -> None:
    verdict = judge([])
    assert (verdict.status, verdict.confidence, verdict.pylint_confidence) == (Status.CANDIDATE, "high", HIGH)
    assert verdict.evidence_line() == "production 0; validation 0; external/dynamic 0"
