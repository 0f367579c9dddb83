"""The command line a new user meets: exit statuses, --version, help, the pre-commit example, the report header.

Each test reproduces an item of the issue "First hour of a new user" (6, 7, 8, 10)
with the real commands and pins the fixed behaviour.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, SAMPLE_REPO
from shop_project import PAGED_GONE, env, git, omni, write_project

README = (REPO / "README.md").read_text()
SCRIPTS = Path(sys.executable).parent


def test_the_quick_start_exit_status_is_explained_next_to_it(tmp_path: Path) -> None:
    quick_start = README[README.index("## Quick start"): README.index("## Messages")]
    command = re.search(r"\(cd sample_repo && (pylint [^)]+)\)", quick_start).group(1).split()
    proc = subprocess.run([sys.executable, "-m", *command], cwd=SAMPLE_REPO, capture_output=True, text=True,
                          env=env(tmp_path / "cache"), timeout=600)
    assert proc.returncode == 8, proc.stderr  # refactor messages only
    assert "The run exits with status 8" in quick_start
    for bit, meaning in (("1", "a fatal message"), ("8", "a refactor message"), ("32", "a usage error")):
        assert re.search(rf"^\| {bit} \| {meaning}", quick_start, flags=re.MULTILINE), bit


def test_report_refuses_a_missing_path_and_an_empty_lint(tmp_path: Path) -> None:
    missing = omni(["report", "nonexistent_pkg", "-o", str(tmp_path / "a.md")], SAMPLE_REPO, tmp_path / "cache")
    assert missing.returncode == 2 and "no such file or folder: nonexistent_pkg" in missing.stderr
    assert not (tmp_path / "a.md").exists()
    empty = omni(["report", "deploy", "-o", str(tmp_path / "b.md")], SAMPLE_REPO, tmp_path / "cache")
    assert empty.returncode == 1 and "nothing was linted in deploy" in empty.stderr


def test_report_passes_pylint_options_through(tmp_path: Path) -> None:
    out = tmp_path / "audit.json"
    proc = omni(["report", "tinyomni", "--json", str(out), "-o", str(tmp_path / "a.md"), "--confidence", "HIGH", "-j", "2",
                 "--omni-root", str(SAMPLE_REPO), "--disable=redundant-payload-conversion"], REPO, tmp_path / "cache")
    assert proc.returncode == 2  # run from the repository root, `tinyomni` is no path there
    proc = omni(["report", "sample_repo/tinyomni", "--json", str(out), "-o", str(tmp_path / "a.md"), "--confidence", "HIGH",
                 "-j", "2", f"--omni-root={SAMPLE_REPO}", "--disable=redundant-payload-conversion"], REPO, tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert data["root"] == str(SAMPLE_REPO)
    assert data["candidates"] and {c["confidence"] for c in data["candidates"]} == {"high"}
    assert "redundant-payload-conversion" not in {c["symbol"] for c in data["candidates"]}
    bad = omni(["report", "tinyomni", "--bogus"], SAMPLE_REPO, tmp_path / "cache")
    assert bad.returncode == 2 and "pylint options pass through as --name=value" in bad.stderr


def test_version_and_the_console_scripts_usage(tmp_path: Path) -> None:
    script = shutil.which("pylint-omni", path=str(SCRIPTS)) or pytest.skip("the console script is not installed")
    version = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and re.match(r"pylint-omni \d+\.\d+\.\d+ \(pylint \d", version.stdout)
    usage = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert usage.stdout.startswith("usage: pylint-omni ")
    module = omni(["--help"], REPO, tmp_path / "cache")
    assert module.stdout.startswith("usage: python -m pylint_omni ")
    index_help = subprocess.run([script, "index", "--help"], capture_output=True, text=True, timeout=60).stdout
    assert re.search(r"--root ROOT\s+project root to index", index_help) and re.search(r"--json\s+print the summary as JSON", index_help)
    for command in ("explain", "index", "report", "baseline", "diff", "precommit"):
        assert f"| `{command}" in README, command


def test_the_readme_pre_commit_example_runs_from_a_clone(tmp_path: Path) -> None:
    block = re.search(r"```yaml\n(# \.pre-commit-config\.yaml\nrepos:\n  - repo: local\n.+?)```", README, flags=re.DOTALL)
    assert block, "the README shows a repo: local configuration"
    repo = tmp_path / "user-repo"
    shutil.copytree(SAMPLE_REPO, repo)
    (repo / ".pre-commit-config.yaml").write_text(block.group(1))
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    run_env = env(tmp_path / "cache", PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
                  PATH=f"{SCRIPTS}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "run", "pylint-omni", "--files", "tinyomni/envs.py"],
                          cwd=repo, env=run_env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "pylint-omni (advisory)" in proc.stdout and "Passed" in proc.stdout and "tinyomni/envs.py:9:4: R7301" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "run", "pylint-omni-diff", "--hook-stage", "manual"],
                          cwd=repo, env=run_env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "pylint-omni diff:" in proc.stdout and "added 0, resolved 0" in proc.stdout


def test_a_repository_without_commits_shows_no_git_error_text(tmp_path: Path) -> None:
    root = write_project(tmp_path / "shop")
    git(root, "init", "-q")
    proc = omni(["report", "-o", str(tmp_path / "audit.md")], root, tmp_path / "cache")
    assert proc.returncode == 0, proc.stderr
    header = (tmp_path / "audit.md").read_text().split("## Summary")[0]
    assert "- **Audit base**: a git checkout with no commit yet" in header
    assert "fatal" not in header and "ambiguous argument" not in header


def test_a_file_with_a_syntax_error_is_listed_once(tmp_path: Path) -> None:
    root = write_project(tmp_path / "shop")
    (root / "shop" / "broken.py").write_text("def f(:\n    pass\n")
    omni(["report", "-o", str(tmp_path / "audit.md")], root, tmp_path / "cache")
    header = (tmp_path / "audit.md").read_text().split("## Summary")[0]
    assert header.count("shop/broken.py") == 1, header
    assert "- **Checks that could not run** (2):" in header  # the file, and no design pages


def test_index_and_report_choose_the_same_root_for_a_folder(tmp_path: Path) -> None:
    plain = tmp_path / "plain"  # no pyproject.toml, setup.py or .git anywhere above
    write_project(plain)
    (plain / "pyproject.toml").unlink()
    (plain / "shop" / "paged.py").write_text(PAGED_GONE)
    index = omni(["index", "--json"], plain, tmp_path / "cache", GIT_CEILING_DIRECTORIES=str(tmp_path))
    report = omni(["report", "--json", str(tmp_path / "a.json"), "-o", str(tmp_path / "a.md")], plain, tmp_path / "cache")
    assert report.returncode == 0, report.stderr
    inside = omni(["index", "--json"], plain / "shop", tmp_path / "cache")
    assert json.loads(index.stdout)["root"] == json.loads(report_root(tmp_path / "a.json")) == json.loads(inside.stdout)["root"] == str(plain)


def report_root(path: Path) -> str:
    return json.dumps(json.loads(path.read_text())["root"])


def editor_args() -> dict[str, list[str]]:
    """The pylint arguments the README gives each editor setup."""
    vscode = json.loads(re.search(r"```json\n(\{\n  \"pylint\.importStrategy\".+?)```", README, flags=re.DOTALL).group(1))
    lua = re.search(r"args = \{ (.+?) \} \}", README).group(1)
    return {"vscode": vscode["pylint.args"], "pylsp": re.findall(r'"([^"]+)"', lua)}


@pytest.mark.parametrize("editor", ["vscode", "pylsp"])
def test_the_readme_editor_settings_show_only_the_plugins_findings(editor: str, tmp_path: Path) -> None:
    args = editor_args()[editor]
    assert args[:2] == ["--load-plugins=pylint_omni", "--disable=all"], args

    def symbols(pylint_args: list[str]) -> set[str]:
        # As the editors run it: the buffer on stdin, its path as the argument.
        proc = subprocess.run([sys.executable, "-m", "pylint", *pylint_args, "--output-format=json2", "--persistent=n",
                               "--from-stdin", "tinyomni/envs.py"], cwd=SAMPLE_REPO, input=(SAMPLE_REPO / "tinyomni/envs.py").read_text(),
                              capture_output=True, text=True, env=env(tmp_path / "cache"), timeout=600)
        return {m["symbol"] for m in json.loads(proc.stdout)["messages"]}
    assert symbols(args) == {"unused-registry-entry"}
    flooded = symbols([a for a in args if a != "--disable=all"])  # what the settings looked like before
    assert "unused-registry-entry" in flooded and len(flooded) > 1


def test_a_report_written_inside_the_analysed_project_is_said_once_and_never_read_back(tmp_path: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    cache = tmp_path / "cache"
    first = omni(["report", "tinyomni", "-o", "audit.md", "--json", str(tmp_path / "first.json")], project, cache)
    assert first.returncode == 0 and (project / "audit.md").is_file(), first.stderr
    warnings = [line for line in first.stderr.splitlines() if "inside the analysed project" in line]
    assert warnings == [f"pylint-omni report: writing audit.md inside the analysed project {project}: later runs never read "
                        "it as evidence, but git sees it (ignore it, or write it outside: -o ../audit.md)"]
    # The report names every surface it judged; the next run's evidence is the same as if it were not there.
    again = omni(["report", "tinyomni", "-o", "../outside.md", "--json", str(tmp_path / "again.json")], project, cache)
    assert again.returncode == 0 and "inside the analysed project" not in again.stderr and (tmp_path / "outside.md").is_file()
    ids = [sorted(c["id"] for c in json.loads((tmp_path / name).read_text())["candidates"]) for name in ("first.json", "again.json")]
    assert ids[0] == ids[1] and ids[0]
