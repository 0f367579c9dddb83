"""Derived facts: declared once, memoised per index state, dropped when a buffer changes the state."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pylint_omni.index.derived import Built, Derived, Table
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.run_options import settings_for_root
from pylint_omni.plugin import register_scanners
from pylint_omni.surfaces.table import build_table


def _index(tmp_path: Path) -> ProjectIndex:
    register_scanners()
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text("def first():\n    return 1\n")
    index = ProjectIndex(root, replace(settings_for_root(root), cache_dir=tmp_path / "cache"))
    index.refresh()
    return index


def test_a_fact_is_computed_once_per_state_and_again_after_a_buffer_changes(tmp_path: Path) -> None:
    index = _index(tmp_path)
    calls: list[int] = []
    functions = Derived("test.functions", lambda i: calls.append(1) or sorted(
        d for d, s in build_table(i).surfaces.items() if s.kind == "function"))
    assert functions.of(index) == ["pkg.core.first"]
    assert functions.of(index) == ["pkg.core.first"] and len(calls) == 1
    index.override("pkg/core.py", "def first():\n    return 1\n\n\ndef second():\n    return 2\n")
    assert functions.of(index) == ["pkg.core.first", "pkg.core.second"] and len(calls) == 2


def test_tables_and_built_facts_memoise_by_key_and_forget(tmp_path: Path) -> None:
    index = _index(tmp_path)
    lengths: Table[str, int] = Table("test.lengths")
    text = Built[str]("test.text")
    seen: list[str] = []
    for _ in range(2):
        assert lengths.of(index, "pkg/core.py", lambda: seen.append("core") or len(index.text("pkg/core.py") or "")) == 26
    assert seen == ["core"] and lengths.values(index) == {"pkg/core.py": 26}
    lengths.forget(index)
    assert lengths.values(index) == {}
    assert text.of(index, lambda: "built") == "built" and text.of(index, lambda: "again") == "built"


def test_a_key_has_one_home() -> None:
    Derived("test.one_home", lambda index: 0)
    with pytest.raises(ValueError, match="declared twice"):
        Table("test.one_home")
