"""The advisory pre-commit hook, through the real `pre-commit try-repo`.

A staged file with a finding: exit 0 and the finding printed. A broken plugin
setup: non-zero. The hook repository is this checkout (it must be a git repository,
as CI's clean clone is).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, SAMPLE_REPO
from pylint_omni.cli.precommit import advisory_status

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", "-c", "user.email=ci@example.invalid", "-c", "user.name=ci", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def user_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "user-repo"
    shutil.copytree(SAMPLE_REPO, repo)
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "init", cwd=repo)
    with open(repo / "tinyomni" / "envs.py", "a", encoding="utf-8") as handle:
        handle.write("\n# an edit to commit\n")
    git("add", "tinyomni/envs.py", cwd=repo)
    return repo


def try_repo(repo: Path, home: Path, env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), **(env_extra or {})}
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "pylint-omni", "--files", "tinyomni/envs.py"]
    return subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=900)


def test_staged_file_with_a_finding_passes_and_prints_it(user_repo: Path, pre_commit_home: Path) -> None:
    result = try_repo(user_repo, pre_commit_home)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "pylint-omni (advisory)" in result.stdout and "Passed" in result.stdout
    assert "tinyomni/envs.py:9:4: R7301" in result.stdout


def test_misconfigured_plugin_fails_loudly(user_repo: Path, pre_commit_home: Path) -> None:
    pyproject = user_repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("[tool.pylint.pylint-omni]", "[tool.pylint.pylint-omni]\nomni-max-file-bytes = \"lots\""))
    result = try_repo(user_repo, pre_commit_home)
    assert result.returncode != 0
    assert "Failed" in result.stdout


def test_plugin_that_cannot_import_fails_loudly(user_repo: Path, pre_commit_home: Path, tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "pylint_omni"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('broken install')\n")
    result = try_repo(user_repo, pre_commit_home, {"PYTHONPATH": str(shadow.parent)})
    assert result.returncode != 0
    assert "Failed" in result.stdout


def pylint_output(*args: str) -> tuple[int, str]:
    proc = subprocess.run([sys.executable, "-m", "pylint", *args], cwd=SAMPLE_REPO, capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


def test_advisory_status_reads_real_pylint_outcomes() -> None:
    base = ["--disable=all", "--enable=pylint-omni", "tinyomni/envs.py"]
    assert advisory_status(*pylint_output("--load-plugins=pylint_omni", *base)) == 0
    assert advisory_status(*pylint_output("--load-plugins=pylint_omni,no_such_plugin_xyz", *base)) != 0
    assert advisory_status(*pylint_output("--load-plugins=pylint_omni", "--no-such-option", *base)) != 0


def test_all_files_of_a_tree_of_several_projects_get_one_summary(tmp_path: Path, pre_commit_home: Path) -> None:
    """A tree holding several projects (each its own pyproject.toml): one index line and one summary per run,
    not one per project root."""
    repo = tmp_path / "tree"
    for root, package in (("", "core"), ("plugins/a/", "plugin_a"), ("plugins/b/", "plugin_b")):
        (repo / root / package).mkdir(parents=True)
        (repo / root / "pyproject.toml").write_text(f"[project]\nname = '{package}'\n")
        (repo / root / package / "__init__.py").write_text("")
        for number in range(50):
            (repo / root / package / f"mod{number}.py").write_text(f'"""Module {number}."""\n\nVALUE = {number}\n')
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "init", cwd=repo)
    env = {**os.environ, "PRE_COMMIT_HOME": str(pre_commit_home), "PYLINT_OMNI_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "pylint-omni", "--all-files"]
    result = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert output.count("pylint-omni: no findings in 153 modules") == 1, output
    # The outer project's index reads the inner ones' files too: 3 indexes, one line.
    assert output.count("indexed ") == 1 and re.search(r"  indexed \d+ files of 3 project roots in ", output), output
