"""The house rules of the package: one folder per concern, imports that follow the data flow.

files -> index -> evidence -> change sets -> message families -> reporters. The index
never imports evidence, a family or the reporters; evidence never imports the change
sets, a family or the reporters; the change-set stage never imports a family (each
hands it members through the plugin); a family never imports another family;
reporters format, so they never import a family or the stage either. Modules stay small, and the top level holds only the
plugin entry, its options and the command line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pylint_omni"
TOP_LEVEL_ALLOWED = {"__init__.py", "__main__.py", "plugin.py", "options.py"}
SHARED_ROOMS = {"index", "evidence", "changes", "reporters", "cli"}
MAX_MODULE_LINES = 450


def rooms() -> set[str]:
    return {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}


PACKAGE_PARTS = {p.stem for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file()}


def families() -> set[str]:
    return rooms() - SHARED_ROOMS


def imported_rooms(path: Path) -> set[str]:
    """Rooms (first package level below pylint_omni) that a module imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "pylint_omni" and len(parts) > 1 and parts[1] in PACKAGE_PARTS:
                found.add(parts[1])
    return found


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def room_of(path: Path) -> str | None:
    relative = path.relative_to(PACKAGE).parts
    return relative[0] if len(relative) > 1 else None


def test_top_level_holds_only_the_plugin_options_and_the_command_line_entry() -> None:
    top = {p.name for p in PACKAGE.iterdir() if p.is_file() and p.suffix == ".py"}
    assert top <= TOP_LEVEL_ALLOWED, top - TOP_LEVEL_ALLOWED


def test_there_are_rooms_for_the_index_evidence_and_each_family() -> None:
    assert {"index", "evidence", "reporters"} <= rooms()
    assert {"registries", "abstractions", "state", "tensors"} <= families()


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_follow_the_data_flow(path: Path) -> None:
    room = room_of(path)
    imported = imported_rooms(path) - {room}
    if room == "index":
        allowed: set[str] = set()
    elif room == "evidence":
        allowed = {"index", "options"}
    elif room in ("reporters", "changes"):
        allowed = {"index", "evidence", "options"}
    elif room == "cli":  # the top of the flow, like plugin.py: `explain` judges as the messages do
        allowed = {"index", "evidence", "changes", "options"} | families()
    elif room is not None:  # a message family
        allowed = {"index", "evidence", "changes", "options"}
    else:
        return  # the top level wires everything together
    assert imported <= allowed, f"{path.relative_to(PACKAGE)} imports {sorted(imported - allowed)}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_small(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_MODULE_LINES


@pytest.mark.parametrize("room", sorted(rooms()))
def test_every_room_says_what_it_is_for_and_may_import(room: str) -> None:
    docstring = ast.get_docstring(ast.parse((PACKAGE / room / "__init__.py").read_text(encoding="utf-8"))) or ""
    assert docstring and ("May import" in docstring or room == "reporters"), room
