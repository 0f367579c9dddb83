"""Every checkers/<symbol>/ folder: bad.py fires exactly where annotated, good.py stays silent.

Each file is linted alone in a temporary project (plus the folder's `context/` files,
e.g. YAML or tests that give the index its consumers), so the docs cannot drift
from the code.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import CATALOGUE, enable_args, run_pylint

ANNOTATION = re.compile(r"#.*\[([a-z-]+(?:,\s*[a-z-]+)*)\]")
FOLDERS = sorted(p for p in CATALOGUE.iterdir() if p.is_dir())


def expected_lines(source: str) -> set[tuple[int, str]]:
    expected = set()
    for number, line in enumerate(source.splitlines(), start=1):
        match = ANNOTATION.search(line)
        if match:
            expected.update((number, s.strip()) for s in match.group(1).split(","))
    return expected


def lint_alone(folder: Path, filename: str, tmp_path: Path, cache_dir: Path) -> set[tuple[int, str]]:
    project = tmp_path / folder.name
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'catalogue-case'\n")
    shutil.copy(folder / filename, project / filename)
    if (folder / "context").is_dir():
        shutil.copytree(folder / "context", project, dirs_exist_ok=True)
    _, findings, stderr = run_pylint([*enable_args([folder.name]), filename], cwd=project, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return {(f.line, f.symbol) for f in findings if f.path == filename}


def test_catalogue_has_every_message() -> None:
    assert {p.name for p in FOLDERS} >= {"unused-registry-entry"}
    for folder in FOLDERS:
        for name in ("README.md", "bad.py", "good.py"):
            assert (folder / name).is_file(), f"{folder.name}/{name} missing"


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_bad_fires_where_annotated(folder: Path, tmp_path: Path, cache_dir: Path) -> None:
    expected = expected_lines((folder / "bad.py").read_text())
    assert expected, "bad.py must annotate at least one line"
    assert lint_alone(folder, "bad.py", tmp_path, cache_dir) == expected


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_good_is_silent(folder: Path, tmp_path: Path, cache_dir: Path) -> None:
    assert lint_alone(folder, "good.py", tmp_path, cache_dir) == set()


def plugin_messages() -> list[tuple[str, str]]:
    """(msgid, symbol) of every message the plugin defines, as pylint registers them."""
    from pylint.lint import PyLinter
    from pylint_omni.plugin import register

    linter = PyLinter()
    register(linter)
    return sorted((d.msgid, d.symbol) for d in linter.msgs_store.messages if d.msgid[1:3] == "73")


def test_every_message_the_plugin_defines_is_in_the_readme_table() -> None:
    readme = (CATALOGUE.parent / "README.md").read_text()
    table = readme[readme.index("## Messages"): readme.index("## The audit report")]
    rows = set(re.findall(r"^\| ([A-Z]\d{4}) \| `([a-z-]+)` \|", table, flags=re.MULTILINE))
    defined = plugin_messages()
    assert {"omni-unreadable-input", "omni-unreadable-inputs", "unused-registry-entry"} <= {s for _, s in defined}
    assert set(defined) - rows == set(), "messages missing from README's table"
    assert rows - set(defined) == set(), "README's table lists messages the plugin does not define"
    refactorings = {symbol for msgid, symbol in defined if msgid.startswith("R")}
    assert refactorings == {p.name for p in FOLDERS}, "every refactoring message has a catalogue folder"


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_readme_names_the_files_that_decide(folder: Path) -> None:
    """The newcomer's walk: one README section names the verdict's file, and each file it names exists."""
    readme = (folder / "README.md").read_text()
    assert "## Where the verdict is decided" in readme, f"{folder.name}/README.md has no 'Where the verdict is decided'"
    section = readme.split("## Where the verdict is decided", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"^\| `(pylint_omni/[\w/]+\.py)` \|", section, flags=re.MULTILINE)
    assert named, f"{folder.name}: the section names no file"
    missing = [path for path in named if not (CATALOGUE.parent / path).is_file()]
    assert not missing, f"{folder.name}: named files do not exist: {missing}"
    assert any(path.endswith("wording.py") or "message_text" in section for path in named), \
        f"{folder.name}: the section does not say where the message text is built"
