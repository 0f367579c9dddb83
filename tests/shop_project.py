"""A small project written by the adoption tests: a kernel registry and its callers, in a git repository.

`KERNELS` in `shop/kernels.py` has four entries; `shop/run.py` names three of them
and `shop/paged.py` the fourth ("paged"). Deleting `run_paged` deletes the last
caller of "paged", which makes the entry dead in `shop/kernels.py`, a file that
change never touches.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

KERNELS = '''"""Kernels by name."""


def _flash(q):
    return q


def _naive(q):
    return q


def _sdpa(q):
    return q


def _paged(q):
    return q


KERNELS = {
    "flash": _flash,
    "naive": _naive,
    "sdpa": _sdpa,
    "paged": _paged,
}


def kernel(name, q):
    return KERNELS[name](q)
'''

RUN = '''"""Runs a kernel."""

from shop.kernels import kernel


def run(q, exact, cpu):
    if exact:
        return kernel("naive", q)
    if cpu:
        return kernel("sdpa", q)
    return kernel("flash", q)
'''

PAGED = '''"""The paged path."""

from shop.kernels import kernel


def run_paged(q):
    return kernel("paged", q)
'''

PAGED_GONE = '''"""The paged path (retired)."""
'''

PAGED_ENTRY = '    "paged": _paged,\n'
SUBJECT = "shop.kernels.KERNELS['paged']"


def git(repo: Path, *args: str) -> str:
    command = ["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c", "init.defaultBranch=main", *args]
    return subprocess.run(command, cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def write_project(root: Path, pyproject_extra: str = "") -> Path:
    (root / "shop").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f'[project]\nname = "shop"\nversion = "0"\n{pyproject_extra}', encoding="utf-8")
    (root / "shop" / "__init__.py").write_text('"""The shop."""\n', encoding="utf-8")
    (root / "shop" / "kernels.py").write_text(KERNELS, encoding="utf-8")
    (root / "shop" / "run.py").write_text(RUN, encoding="utf-8")
    (root / "shop" / "paged.py").write_text(PAGED, encoding="utf-8")
    return root


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD")


def git_project(root: Path) -> Path:
    """The project as a repository with one commit on `main`, as `origin/main` too (a clone's view)."""
    write_project(root)
    git(root, "init", "-q")
    commit_all(root, "shop")
    git(root, "update-ref", "refs/remotes/origin/main", "HEAD")
    return root


def env(cache: Path, **extra: str) -> dict[str, str]:
    found = {key: value for key, value in os.environ.items() if key != "PYLINT_OMNI_FINDINGS_DIR"}
    return {**found, "PYLINT_OMNI_CACHE_DIR": str(cache), **extra}


def omni(args: list[str], cwd: Path, cache: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """`python -m pylint_omni ARGS` in `cwd`."""
    return subprocess.run([sys.executable, "-m", "pylint_omni", *args], cwd=cwd, capture_output=True, text=True,
                          env=env(cache, **extra), timeout=600, check=False)


def pylint_json(args: list[str], cwd: Path, cache: Path, **extra: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    """pylint with the plugin and the JSON audit on stdout (args may add more reporters)."""
    command = [sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--disable=all", "--enable=pylint-omni",
               "--persistent=n", *args]
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env(cache, **extra), timeout=600, check=False)
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        data = {}
    return proc, data
