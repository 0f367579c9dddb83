"""`python -m pylint_omni diff`: findings added and resolved against the merge base, in real git repositories.

Each test builds a repository (a commit on main, `origin/main` pointing at it, a
branch with a change) and runs the real command: the base is linted in a temporary
worktree, the head is the working tree (or a commit).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from shop_project import PAGED, PAGED_ENTRY, PAGED_GONE, SUBJECT, commit_all, git, git_project, omni, write_project

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="the diff needs git")


def diff(repo: Path, cache: Path, *args: str) -> tuple[int, dict, str]:
    out = repo.parent / "diff.json"
    proc = omni(["diff", "--json", str(out), *args], repo, cache)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return proc.returncode, json.loads(out.read_text()), proc.stdout


def test_removing_the_last_caller_adds_the_newly_dead_entry(tmp_path: Path) -> None:
    repo = git_project(tmp_path / "repo")
    git(repo, "checkout", "-qb", "retire-paged")
    (repo / "shop" / "paged.py").write_text(PAGED_GONE)  # the PR edits paged.py only
    commit_all(repo, "retire the paged path")
    status, data, text = diff(repo, tmp_path / "cache")
    assert status == 1
    assert [(f["path"], f["symbol"], f["subject"]) for f in data["added"]] == [
        ("shop/kernels.py", "unused-registry-entry", SUBJECT)]  # in a file the PR never touched
    assert data["resolved"] == [] and data["moved"] == []
    assert "git merge-base HEAD origin/main" in data["base"]
    assert f"+ shop/kernels.py:24: R7301 unused-registry-entry (high) [{data['added'][0]['id']}]" in text
    # The worktree is gone and the user's tree untouched.
    assert git(repo, "worktree", "list").count("\n") == 0
    assert git(repo, "status", "--porcelain") == ""


def test_a_fix_shows_as_resolved_and_a_second_run_reads_the_cache(tmp_path: Path) -> None:
    repo = git_project(tmp_path / "repo")
    (repo / "shop" / "paged.py").write_text(PAGED_GONE)
    commit_all(repo, "main has a dead entry")
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(repo, "checkout", "-qb", "fix")
    kernels = repo / "shop" / "kernels.py"
    kernels.write_text(kernels.read_text().replace(PAGED_ENTRY, ""))  # uncommitted: the working tree is the head
    status, data, text = diff(repo, tmp_path / "cache")
    assert status == 0
    assert data["added"] == [] and [f["subject"] for f in data["resolved"]] == [SUBJECT]
    assert "(from the cache)" not in text
    again = omni(["diff"], repo, tmp_path / "cache")
    assert again.returncode == 0 and again.stdout.count("(from the cache)") == 2, again.stdout + again.stderr
    assert again.stdout.splitlines()[3:] == text.splitlines()[3:]


def test_moving_code_without_changing_it_adds_nothing(tmp_path: Path) -> None:
    repo = git_project(tmp_path / "repo")
    (repo / "shop" / "paged.py").write_text(PAGED_GONE)
    commit_all(repo, "main has a dead entry")
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(repo, "checkout", "-qb", "reorganise")
    # Inside the file: new code above the finding moves every line down.
    kernels = repo / "shop" / "kernels.py"
    kernels.write_text(kernels.read_text().replace('"""Kernels by name."""\n', '"""Kernels by name."""\n\nimport os\n\n\n'
                                                   'def cache_dir():\n    return os.getcwd()\n'))
    commit_all(repo, "a helper above")
    status, data, _ = diff(repo, tmp_path / "cache")
    assert (status, data["added"], data["resolved"], data["moved"]) == (0, [], [], [])
    assert data["unchanged"] == 1
    # To another module: the same finding, another qualified name: listed as moved, not added.
    (repo / "shop" / "ops").mkdir()
    (repo / "shop" / "ops" / "__init__.py").write_text("")
    git(repo, "mv", "shop/kernels.py", "shop/ops/kernels.py")
    for name in ("run.py",):
        path = repo / "shop" / name
        path.write_text(path.read_text().replace("shop.kernels", "shop.ops.kernels"))
    commit_all(repo, "kernels move to shop/ops")
    status, data, text = diff(repo, tmp_path / "cache")
    assert (status, data["added"], data["resolved"]) == (0, [], [])
    assert [(m["base"]["path"], m["head"]["path"]) for m in data["moved"]] == [("shop/kernels.py", "shop/ops/kernels.py")]
    assert "~ shop/kernels.py:24 -> shop/ops/kernels.py:" in text


def test_two_commits_and_a_repository_without_origin(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git_project(repo)
    first = git(repo, "rev-parse", "HEAD")
    git(repo, "update-ref", "-d", "refs/remotes/origin/main")  # a repository with no remote at all
    (repo / "shop" / "paged.py").write_text(PAGED_GONE)
    second = commit_all(repo, "retire paged")
    status, data, _ = diff(repo, tmp_path / "cache", "--base", first, "--head", second)
    assert status == 1 and [f["subject"] for f in data["added"]] == [SUBJECT]
    # No origin: the merge base with main (HEAD itself here), so the diff shows the uncommitted change.
    (repo / "shop" / "paged.py").write_text(PAGED)
    status, data, _ = diff(repo, tmp_path / "cache")
    assert data["base"].startswith(second[:12]) and "git merge-base HEAD main" in data["base"]
    assert status == 0 and [f["subject"] for f in data["resolved"]] == [SUBJECT]


def test_an_unknown_base_is_a_clear_error(tmp_path: Path) -> None:
    repo = git_project(tmp_path / "repo")
    proc = omni(["diff", "--base", "no-such-branch"], repo, tmp_path / "cache")
    assert proc.returncode == 2 and "--base no-such-branch: not a commit of this repository" in proc.stderr
    plain = tmp_path / "plain"
    shutil.copytree(repo / "shop", plain / "shop")
    (plain / "pyproject.toml").write_text('[project]\nname = "x"\n')
    proc = omni(["diff"], plain, tmp_path / "cache", GIT_CEILING_DIRECTORIES=str(tmp_path))
    assert proc.returncode == 2 and "pylint-omni diff: git rev-parse --show-toplevel failed" in proc.stderr


def test_a_project_in_a_subfolder_of_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "monorepo"
    project = repo / "services" / "shop"
    write_project(project)
    (repo / "README.md").write_text("# Many projects\n")
    git(repo, "init", "-q")
    commit_all(repo, "shop in a subfolder")
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(repo, "checkout", "-qb", "retire-paged")
    (project / "shop" / "paged.py").write_text(PAGED_GONE)
    status, data, _ = diff(project, tmp_path / "cache")
    assert status == 1 and [(f["path"], f["subject"]) for f in data["added"]] == [("shop/kernels.py", SUBJECT)]
