"""Broken, hostile and odd inputs: one clear message naming the file and reason; the run goes on.

Nothing in the analysed tree is written, nothing analysed is constructed or run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conftest import run_pylint
from pylint_omni.index.discovery import read_text
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.data_scan import InputProblem
from pylint_omni.index.settings import OmniSettings

BILLION_LAUGHS = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)}]\n"
    for i in range(10)
)


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(root)): (p.lstat().st_size, p.lstat().st_mtime_ns)
        for p in root.rglob("*")
        if not p.is_dir() or p.is_symlink()
    }


@pytest.fixture
def hostile_project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    pkg = root / "hostile"
    pkg.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'hostile'\n")
    (pkg / "__init__.py").write_text('"""Package."""\n')
    (pkg / "registry.py").write_text(
        "def make_alpha(): ...\ndef make_beta(): ...\ndef make_gamma(): ...\n\n"
        "TABLE = {'alpha': make_alpha, 'beta': make_beta, 'gamma': make_gamma}\n\n"
        "def get(k):\n    return TABLE[k]\n\nDEFAULTS = ('alpha', 'beta')\n"
    )
    (pkg / "big.py").write_text("X = 1\n" + "# padding\n" * 2000)
    configs = root / "configs"
    configs.mkdir()
    (configs / "broken.yaml").write_text("stages: [unclosed\n  - name: x\n")
    (configs / "bomb.yaml").write_text(BILLION_LAUGHS)
    marker = tmp_path / "pwned"
    (configs / "evil.yaml").write_text(f'run: !!python/object/apply:os.system ["touch {marker}"]\nother: delta\n')
    (root / "broken.toml").write_text("[tool\nname = \n")
    (configs / "broken.json").write_text('{"a": [1, 2,}')
    (configs / "binary.json").write_bytes(b"\x00\x01\x02garbage\x00")
    (root / "latin1.md").write_bytes("caf\xe9 gamma".encode("latin-1"))
    tests = root / "tests"
    tests.mkdir()
    (tests / "test_broken.py").write_text("def test(:\n    pass\n")
    (root / "loop").symlink_to(root, target_is_directory=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text("gamma: 1\n")
    (root / "escape").symlink_to(outside, target_is_directory=True)
    (root / "escape.yaml").symlink_to(outside / "secret.yaml")
    os.mkfifo(root / "pipe.yaml")
    return root


def test_hostile_inputs_yield_one_message_each_and_the_run_goes_on(hostile_project: Path, cache_dir: Path) -> None:
    before = snapshot(hostile_project)
    args = ["--disable=all", "--enable=pylint-omni", "--omni-max-file-bytes=5000", "hostile"]
    code, findings, stderr = run_pylint(args, cwd=hostile_project, cache_dir=cache_dir)
    assert "Traceback" not in stderr
    assert code & 1 == 0 and code & 32 == 0
    own = {f.message.split(" could not fully read ")[1].split(":")[0]: f.message for f in findings if f.symbol == "omni-unreadable-input"}
    (summary,) = [f for f in findings if f.symbol == "omni-unreadable-inputs"]  # one per run for the other files
    assert summary.path == "hostile/__init__.py"
    listed = summary.message.split(" from the evidence: ", 1)[1]
    problems = {**own, **{item.split(" (", 1)[0]: item for item in listed.split("; ")}}
    expected = {
        "configs/broken.yaml": "malformed YAML",
        "configs/evil.yaml": "never constructed",
        "broken.toml": "malformed TOML",
        "configs/broken.json": "malformed JSON",
        "configs/binary.json": "binary content",
        "latin1.md": "not UTF-8",
        "tests/test_broken.py": "syntax error at line 1",
        "escape": "leaves the project root",
        "escape.yaml": "leaves the project root",
        "pipe.yaml": "not a regular file",
        "hostile/big.py": "size cap",
    }
    assert set(own) == {"hostile/big.py"}  # the linted module's own problem is said on it
    for path, reason in expected.items():
        assert path in problems and reason in problems[path], (path, problems.get(path))
    # The run went on: the registry was still analysed (gamma is named only by files that failed
    # or lie outside the root, so it is a candidate).
    assert [(f.path, f.line) for f in findings if f.symbol == "unused-registry-entry"] == [("hostile/registry.py", 5)]
    assert not (hostile_project.parent / "pwned").exists()
    assert snapshot(hostile_project) == before


def test_alias_bomb_is_linear(tmp_path: Path) -> None:
    (tmp_path / "bomb.yaml").write_text(BILLION_LAUGHS)
    index = ProjectIndex(tmp_path, OmniSettings(cache_enabled=False))
    stats = index.refresh()
    assert stats.files_by_kind == {"yaml": 1} and "bomb.yaml" not in index.problems
    assert index.hits("lol")


def test_unreadable_file_is_a_problem_not_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "locked.yaml"
    path.write_text("a: 1\n")
    real_open = open

    def deny(file, *args, **kwargs):  # root ignores chmod, so refuse the read itself
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", deny)
    with pytest.raises(InputProblem, match="cannot read: Permission denied"):
        read_text(path, 1000)


def test_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "m.py").write_text("class Alpha: ...\n")
    settings = OmniSettings(cache_dir=tmp_path / "cache")
    ProjectIndex(project, settings).refresh()
    (cache_file,) = (tmp_path / "cache").glob("index-*.json")
    cache_file.write_text('{"version": ')
    index = ProjectIndex(project, settings)
    stats = index.refresh()
    assert stats.scanned == 1 and index.definitions_named("Alpha")


def test_unwritable_cache_is_reported_and_skipped(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "m.py").write_text("class Alpha: ...\n")
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache folder should be")
    index = ProjectIndex(project, OmniSettings(cache_dir=blocker / "cache"))
    index.refresh()
    assert index.definitions_named("Alpha")
    assert index.cache_note and "cache not written" in index.cache_note


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_symlink_loop_does_not_hang(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "loop").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "a" / "m.py").write_text("x = 1\n")
    index = ProjectIndex(tmp_path, OmniSettings(cache_enabled=False))
    index.refresh()
    assert list(index.entries) == ["a/m.py"]
