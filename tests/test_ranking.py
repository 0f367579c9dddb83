"""The report's order (`evidence.ranking`): benefit scores, bundles of micro findings, the top, compact mediums.

The policy is pure (benefits in, entries out); the report tests check that the
reporters render it on real runs.
"""

from __future__ import annotations

from pylint_omni.evidence.benefit import Benefit, BenefitKind, Heat
from pylint_omni.evidence.ranking import COMPACT_BELOW, PATTERN, Ranked, plan, score, top
from pylint_omni.evidence.wording import short_message


def copy(heat: Heat, micro: bool = False, change: str = "") -> Benefit:
    return Benefit(1, BenefitKind.TRANSFERS, "1 copy", heat, micro, bundle="no-op `.to()` call", scope="Model.forward()",
                   change=change)


def test_a_copy_on_a_hot_path_outranks_the_same_copy_run_once() -> None:
    assert score(copy(Heat.HOT)) > score(copy(Heat.UNKNOWN)) > score(copy(Heat.COLD))
    assert score(copy(Heat.HOT, micro=True)) < score(copy(Heat.COLD))  # a no-op saves no copy


def test_a_whole_class_outranks_a_no_op() -> None:
    whole_class = Benefit(40, BenefitKind.API, "1 class of 40 lines")
    assert score(whole_class) > score(copy(Heat.HOT, micro=True))


def test_micro_findings_of_one_kind_in_one_file_are_one_bundle() -> None:
    findings = [Ranked(i, "redundant-tensor-materialization", "pkg/m.py", line, "high", copy(Heat.HOT, micro=True))
                for i, line in enumerate((30, 10, 20))]
    other_file = Ranked(3, "redundant-tensor-materialization", "pkg/n.py", 5, "high", copy(Heat.HOT, micro=True))
    entries = plan([*findings, other_file])
    bundle = next(e for e in entries if e.bundled)
    assert bundle.title == "3 no-op `.to()` calls of `Model` in `pkg/m.py`: lines 10, 20, 30"
    assert bundle.score == round(3 * score(copy(Heat.HOT, micro=True)), 2)
    assert [e.title for e in entries if not e.bundled] == [""]  # the lone micro finding of pkg/n.py


def test_high_first_then_by_score_and_small_mediums_are_compact() -> None:
    small_medium = Ranked(0, "duplicated-state-field", "pkg/a.py", 1, "medium", Benefit(1, BenefitKind.STATE, "1 field"))
    big_medium = Ranked(1, "single-implementation-abstraction", "pkg/b.py", 1, "medium", Benefit(90, BenefitKind.API, "class"))
    small_high = Ranked(2, "unused-registry-entry", "pkg/c.py", 1, "high", Benefit(2, BenefitKind.API, "entry"))
    entries = plan([small_medium, big_medium, small_high])
    assert [e.lead.key for e in entries] == [2, 1, 0]
    assert [e.compact for e in entries] == [False, False, True] and score(small_medium.benefit) < COMPACT_BELOW
    assert [e.lead.key for e in top(entries)] == [2]  # a high one exists: no medium row
    assert [e.lead.key for e in top(plan([small_medium, big_medium]))] == [1]  # none: the mediums fill


def test_short_message_cuts_the_evidence_at_a_clause_boundary() -> None:
    text = short_message("X" * 150, "fix it", "first clause, " + "second clause with tests/some/long/path.py:12 " * 3)
    assert len(text) <= 260 and text.endswith("…).") and "path.py:1…" not in text


def test_one_micro_pattern_in_three_files_or_more_is_one_bundle_across_them() -> None:
    """33 model classes each naming one object twice are one line of the audit (a pattern of the codebase), not 33;
    the same pattern in two files stays two entries, and a kind that is no pattern stays one bundle per file."""
    pattern = copy(Heat.HOT, micro=True, change=PATTERN)
    findings = [Ranked(i, "redundant-tensor-materialization", f"pkg/m{i}.py", 10, "high", pattern) for i in range(4)]
    findings += [Ranked(9, "redundant-tensor-materialization", "pkg/x.py", 5, "medium", pattern),
                 Ranked(10, "redundant-tensor-materialization", "pkg/y.py", 5, "medium", pattern)]
    findings += [Ranked(20 + i, "redundant-tensor-materialization", f"pkg/n{i}.py", 10, "high", copy(Heat.HOT, micro=True))
                 for i in range(3)]
    entries = plan(findings)
    across = [e for e in entries if e.confidence == "high" and e.bundled]
    assert len(across) == 1 and len(across[0].members) == 4
    assert len([e for e in entries if e.confidence == "high" and not e.bundled]) == 3
    assert across[0].title == "4 no-op `.to()` calls in 4 files: `pkg/m0.py`, `pkg/m1.py`, `pkg/m2.py`, `pkg/m3.py`"
    assert len([e for e in entries if e.confidence == "medium"]) == 2
