"""The downgrade rules of the audit method, in the order `judge` applies them."""

from __future__ import annotations

from pathlib import Path

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


def test_a_method_is_not_hot_through_a_call_the_graph_gave_to_an_unrelated_class(tmp_path: Path) -> None:
    """OpenRLHF: `self.evaluate()` in `PPOTrainer.fit` made `RewardModelTrainer.evaluate` "hot (called from
    PPOTrainer.fit())", and a once-per-evaluation `.item()` the report's first row. A call resolved to another class's
    method of that name is not its caller; one through a subclass is."""
    from pylint_omni.evidence.benefit import Heat
    from pylint_omni.evidence.heat import heat_through_callers
    from pylint_omni.index.project_index import ProjectIndex
    from pylint_omni.index.settings import OmniSettings
    from pylint_omni.plugin import register_scanners

    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "trainers.py").write_text(
        "class PPOTrainer:\n"
        "    def forward(self):\n        return self.evaluate()\n\n"
        "    def evaluate(self):\n        return 1\n\n\n"
        "class RewardModelTrainer:\n"
        "    def evaluate(self):\n        return 2\n\n"
        "    def save(self):\n        return self.evaluate()\n\n\n"
        "class Base:\n    def score(self):\n        return 3\n\n\n"
        "class Child(Base):\n    def forward(self):\n        return self.score()\n"
    )
    register_scanners()
    index = ProjectIndex(tmp_path, OmniSettings(cache_dir=tmp_path / "cache"))
    index.refresh()
    ppo = heat_through_callers(index, "app/trainers.py", "evaluate", 5)
    reward = heat_through_callers(index, "app/trainers.py", "evaluate", 10)
    inherited = heat_through_callers(index, "app/trainers.py", "score", 17)
    assert ppo.heat is Heat.HOT and ppo.reason.startswith("called from PPOTrainer.forward()")
    assert reward.heat is not Heat.HOT, reward
    assert inherited.heat is Heat.HOT and inherited.reason.startswith("called from Child.forward()")


def test_a_supervisor_tick_and_a_model_save_are_cold_not_hot(tmp_path: Path) -> None:
    """Round 13: aibrix's `supervise_once()`, ticked by `_supervisor_loop()`, and axolotl's compat branch under
    `save_trained_model()` were labelled "hot"; a periodic supervisor and saving a trained model run once per tick or
    per run. A decode loop stays hot."""
    from pylint_omni.evidence.benefit import Heat
    from pylint_omni.evidence.heat import heat_through_callers
    from pylint_omni.index.project_index import ProjectIndex
    from pylint_omni.index.settings import OmniSettings
    from pylint_omni.plugin import register_scanners

    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "runtime.py").write_text(
        "def supervise_once():\n    return 1\n\n\n"
        "def _supervisor_loop():\n    while True:\n        supervise_once()\n\n\n"
        "def merge_weights():\n    return 2\n\n\n"
        "def save_trained_model():\n    return merge_weights()\n\n\n"
        "def next_token():\n    return 3\n\n\n"
        "def decode_loop():\n    while True:\n        next_token()\n"
    )
    register_scanners()
    index = ProjectIndex(tmp_path, OmniSettings(cache_dir=tmp_path / "cache"))
    index.refresh()
    assert heat_through_callers(index, "app/runtime.py", "supervise_once", 1).heat is Heat.COLD
    assert heat_through_callers(index, "app/runtime.py", "merge_weights", 10).heat is Heat.COLD
    assert heat_through_callers(index, "app/runtime.py", "next_token", 18).heat is Heat.HOT
