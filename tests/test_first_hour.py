"""What a new user meets first: parallel runs, the root, project settings, option values.

Each test reproduces a report of the issue "First hour of a new user" with a real
pylint run and pins the fixed behaviour.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SAMPLE_REPO, enable_args, run_pylint

USAGE_ERROR = 32


def pylint_raw(args: list[str], cwd: Path, cache_dir: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A pylint run whose output is not parsed (usage errors print no JSON)."""
    full_env = {**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache_dir), **(env or {})}
    command = [sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--persistent=n", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=full_env, timeout=600)


def test_a_parallel_run_builds_the_index_once_before_its_workers_start(tmp_path: Path, cache_dir: Path) -> None:
    trace = tmp_path / "trace.txt"
    proc = pylint_raw([*enable_args(), "-j", "2", "tinyomni"], SAMPLE_REPO, cache_dir, {"PYLINT_OMNI_TRACE": str(trace)})
    assert proc.returncode & USAGE_ERROR == 0, proc.stderr
    assert re.search(r"\b[CRW]73\d\d\b", proc.stdout), proc.stdout  # the workers judged from that index
    lines = [line.split() for line in trace.read_text().splitlines()]
    # The parent reads every file once; the workers it forks right after start from that index: none
    # refreshes it again (pylint opens every checker once per file in a worker).
    assert len(lines) == 1 and int(lines[0][2]) > 0, lines


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_root_that_does_not_exist_is_a_usage_error(jobs: str, cache_dir: Path) -> None:
    proc = pylint_raw([*enable_args(), "-j", jobs, "--omni-root", "/nonexistent/omni", "tinyomni"], SAMPLE_REPO, cache_dir)
    assert proc.returncode == USAGE_ERROR
    assert "pylint-omni: usage error: omni-root=/nonexistent/omni" in proc.stderr and "no such folder" in proc.stderr
    assert "R73" not in proc.stdout


def test_a_root_holding_none_of_the_linted_files_is_a_usage_error(tmp_path: Path, cache_dir: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = pylint_raw([*enable_args(), "-j", "2", "--omni-root", str(elsewhere), "tinyomni"], SAMPLE_REPO, cache_dir)
    assert proc.returncode == USAGE_ERROR
    assert f"omni-root={elsewhere} holds none of the linted paths" in proc.stderr


def test_the_index_command_refuses_a_missing_root() -> None:
    proc = subprocess.run([sys.executable, "-m", "pylint_omni", "index", "--root", "/nonexistent/omni"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "no such folder" in proc.stderr and "files:" not in proc.stdout


@pytest.mark.parametrize(("option", "reason"), [
    ("--omni-max-file-bytes=-5", "omni-max-file-bytes=-5"),
    ("--omni-validation-globs=../outside/**", "cannot leave it"),
    ("--omni-exclude-globs=build/[abc", "unbalanced brackets"),
])
def test_unusable_option_values_are_one_usage_error(option: str, reason: str, cache_dir: Path) -> None:
    proc = pylint_raw([*enable_args(), option, "tinyomni"], SAMPLE_REPO, cache_dir)
    assert proc.returncode == USAGE_ERROR
    assert proc.stderr.count("pylint-omni: usage error:") == 1 and reason in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_a_bad_value_in_the_projects_own_pyproject_names_the_file(tmp_path: Path, cache_dir: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "omni-max-file-bytes = 0\n")
    proc = pylint_raw([*enable_args(), "sample_repo/tinyomni"], tmp_path, cache_dir)
    assert proc.returncode == USAGE_ERROR
    assert f"omni-max-file-bytes=0 ({pyproject.resolve()})" in proc.stderr


def test_the_projects_own_settings_apply_from_any_folder(tmp_path: Path, cache_dir: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    # The outer folder has a pylint configuration of its own, which pylint reads from there.
    (tmp_path / "pyproject.toml").write_text(
        "[tool.pylint.pylint-omni]\nomni-external-key-patterns = ['*Nothing']\n"
    )
    _, inside, _ = run_pylint([*enable_args(), "tinyomni"], cwd=project, cache_dir=cache_dir)
    _, outside, _ = run_pylint([*enable_args(), "sample_repo/tinyomni"], cwd=tmp_path, cache_dir=cache_dir)
    assert inside and [(f.path, f.line, f.symbol, f.confidence) for f in inside] == [
        (f.path.removeprefix("sample_repo/"), f.line, f.symbol, f.confidence) for f in outside
    ]


def test_the_command_line_overrides_the_projects_settings(tmp_path: Path, cache_dir: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    registry = ["--disable=all", "--enable=unused-registry-entry", "--omni-include-rejected=y"]
    _, default, _ = run_pylint([*registry, "sample_repo/tinyomni"], cwd=tmp_path, cache_dir=cache_dir)
    # PLANTED.md is excluded by the project's omni-exclude-globs; the command line's value wins.
    _, overridden, _ = run_pylint([*registry, "--omni-exclude-globs=**/.git/**", "sample_repo/tinyomni"], cwd=tmp_path, cache_dir=cache_dir)
    assert "PLANTED.md" not in " ".join(f.message for f in default)
    assert "PLANTED.md" in " ".join(f.message for f in overridden)


def test_templated_yaml_is_read_as_text_and_problems_are_one_summary(tmp_path: Path, cache_dir: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    templates = project / "chart" / "templates"
    templates.mkdir(parents=True)
    for name in ("deployment", "service", "configmap"):
        (templates / f"{name}.yaml").write_text(
            "apiVersion: v1\nkind: {{ .Values.kind }}\nmetadata:\n  name: {{ include \"chart.fullname\" . }}\n"
            "{{- if .Values.enabled }}\nspec:\n  command: [tinyomni-serve]\n{{- end }}\n"
        )
    (project / "deploy" / "broken.yaml").write_text("stages: [unclosed\n")
    (project / "deploy" / "broken2.yaml").write_text("a: [\n")
    code, found, _ = run_pylint(["--disable=all", "--enable=omni-unreadable-input,omni-unreadable-inputs", "tinyomni"],
                                cwd=project, cache_dir=cache_dir)
    assert [(f.path, f.symbol) for f in found] == [("tinyomni/__init__.py", "omni-unreadable-inputs")]
    assert found[0].message.startswith("pylint-omni could not fully read 2 other project file(s)")
    assert "deploy/broken.yaml (malformed YAML" in found[0].message and "chart/" not in found[0].message
    index = subprocess.run([sys.executable, "-m", "pylint_omni", "index", "--root", str(project)],
                           capture_output=True, text=True, timeout=120, env={**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache_dir)})
    assert "templated YAML (Helm/Jinja) read as text: 3 files" in index.stdout


def test_an_unwritable_cache_is_a_warning_about_the_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    code, found, stderr = run_pylint(["--disable=all", "--enable=pylint-omni", "tinyomni/envs.py"],
                                     cwd=SAMPLE_REPO, cache_dir=blocker / "cache")
    assert "pylint-omni: warning: cache not written" in stderr and stderr.count("cache not written") == 1
    assert not [f for f in found if f.symbol.startswith("omni-unreadable")]
    assert any(f.symbol == "unused-registry-entry" for f in found)  # the run went on
