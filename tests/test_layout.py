"""The house rules of the package: one folder per concern, imports that follow the data flow.

files -> index -> evidence -> change sets -> message families -> reporters. The index
never imports evidence, a family or the reporters; evidence never imports the change
sets, a family or the reporters; the change-set stage never imports a family (each
hands it members through the plugin); a family never imports another family;
reporters format, so they never import a family or the stage either. Modules stay small, and the top level holds only the
plugin entry, its options, the command line and the version (which imports nothing, so any room may import it). No module imports itself back through others (no import circle).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pylint_omni"
TOP_LEVEL_ALLOWED = {"__init__.py", "__main__.py", "plugin.py", "options.py", "version.py"}
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


def module_name(path: Path) -> str:
    parts = ["pylint_omni", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports: every import statement, at the top, inside functions or under
    `TYPE_CHECKING` (a circle of hints is still a circle a reader has to hold). `from pkg import name` reaches the
    submodule `pkg.name` when there is one, else `pkg`; the parent packages Python runs first are not edges (every
    module would reach `pylint_omni/__init__.py`, which loads the plugin)."""
    paths = {module_name(path): path for path in modules()}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*package.split(".")[:len(package.split(".")) - node.level + 1], *filter(None, [base])])
                targets.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base for alias in node.names)
        graph[name] = set()
        for target in targets:
            while target and target not in paths:  # `pkg.mod.name` imported whole: the module that defines it
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def first_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle (`a -> b -> a`), or [] when there is none (depth-first, colouring each module)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return []


def test_the_import_graph_finds_a_planted_circle() -> None:
    graph = import_graph()
    assert "pylint_omni.index.scan_pool" in graph["pylint_omni.index.project_index"]  # a top-level import
    assert "pylint_omni.evidence.split_run" in graph["pylint_omni.plugin"]
    assert first_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert first_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_no_module_imports_itself_back() -> None:
    cycle = first_cycle(import_graph())
    assert not cycle, "import circle: " + " -> ".join(cycle)


def test_top_level_holds_only_the_plugin_options_the_command_line_entry_and_the_version() -> None:
    top = {p.name for p in PACKAGE.iterdir() if p.is_file() and p.suffix == ".py"}
    assert top <= TOP_LEVEL_ALLOWED, top - TOP_LEVEL_ALLOWED


def test_there_are_rooms_for_the_index_evidence_and_each_family() -> None:
    assert {"index", "evidence", "reporters"} <= rooms()
    assert {"registries", "abstractions", "state", "tensors"} <= families()


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_follow_the_data_flow(path: Path) -> None:
    room = room_of(path)
    imported = imported_rooms(path) - {room, "version"}
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
