"""Every number a rule compares with is a named constant, listed in docs/thresholds.md with its value and home."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pylint_omni"
DOC = PACKAGE.parent / "docs" / "thresholds.md"
RULE_ROOMS = sorted(p for p in PACKAGE.iterdir() if p.is_dir() and p.name not in ("index", "cli", "reporters", "__pycache__"))


def constants() -> list[tuple[str, str, float]]:
    """(name, home, value) of every module-level numeric constant of the rule rooms."""
    found = []
    for room in RULE_ROOMS:
        for path in sorted(room.rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    name, value = node.targets[0].id, node.value
                    if name.isupper() and isinstance(value, ast.Constant) and type(value.value) in (int, float):
                        found.append((name, path.relative_to(PACKAGE).as_posix(), value.value))
    return found


def test_every_threshold_is_listed_with_its_value_and_home() -> None:
    rows = {tuple(cell.strip().strip("`") for cell in line.split("|")[1:4])
            for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith("| `")}
    missing = [f"{name} = {value:g} ({home})" for name, home, value in constants() if (name, f"{value:g}", home) not in rows]
    assert not missing, f"list them in docs/thresholds.md: {missing}"
    assert len(rows) == len(constants()), "a row of docs/thresholds.md names a constant that is gone"
