"""Shared helpers: real pylint runs in a subprocess (astroid caches stay per run)."""

from __future__ import annotations

import textwrap

import json
import os
import shutil
import subprocess
import tempfile
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pylint_omni.index.settings import UPSTREAM_INSTALLED_ENV

REPO = Path(__file__).resolve().parent.parent
_TEST_CACHE: list[Path] = []  # the folder pytest_configure made, removed by pytest_unconfigure


def pytest_configure(config: pytest.Config) -> None:
    """Every test, and every pylint it starts, writes its index cache to a temporary folder.

    A test that wants its own folder passes `cache_dir`; nothing is ever written to the
    user's cache folder (`~/.cache/pylint-omni`), whatever the environment says.
    Every pylint a test starts runs the plugin of this checkout.

    No run reads the distributions installed beside the tests (`PYLINT_OMNI_UPSTREAM_INSTALLED=n`): the upstream
    a test means is the one it names, in `omni-upstream-paths` (sample_repo's stand-ins, a test's own folders), so
    the pinned findings are the same whether vllm, diffusers, transformers or torch are installed or not. A test of
    the installed case sets it back itself.
    """
    os.environ["PYLINT_OMNI_CACHE_DIR"] = tempfile.mkdtemp(prefix="pylint-omni-test-cache-")
    _TEST_CACHE.append(Path(os.environ["PYLINT_OMNI_CACHE_DIR"]))
    os.environ[UPSTREAM_INSTALLED_ENV] = "n"
    # The pylint runs import this checkout's plugin, even beside an install of another one
    # (a worktree next to an editable install would otherwise test the install).
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))


def pytest_unconfigure(config: pytest.Config) -> None:
    """The session's cache folder goes with the session (each run made a new one and left it in /tmp)."""
    for folder in _TEST_CACHE:
        shutil.rmtree(folder, ignore_errors=True)


SAMPLE_REPO = REPO / "sample_repo"
CATALOGUE = REPO / "checkers"
OMNI_SYMBOLS = (
    "unused-registry-entry",
    "single-implementation-abstraction",
    "duplicated-state-field",
    "redundant-tensor-materialization",
    "redundant-payload-conversion",
    "unread-config-option",
    "dead-compat-branch",
    "unused-surface",
    "test-only-surface",
    "duplicated-implementation",
    "upstream-reimplementation",
    "lifecycle-mechanism",
    "replaceable-infrastructure",
)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    symbol: str
    confidence: str
    message: str


def run_pylint(args: list[str], cwd: Path, stdin: str | None = None, cache_dir: Path | None = None) -> tuple[int, list[Finding], str]:
    """Run `python -m pylint --load-plugins pylint_omni --output-format=json2 ARGS` in `cwd`."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["PYLINT_OMNI_CACHE_DIR"] = str(cache_dir)
    command = [sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--output-format=json2", "--persistent=n", *args]
    proc = subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, text=True, env=env, timeout=600)
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"pylint printed no JSON (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}") from None
    findings = [
        Finding(m["path"].replace(os.sep, "/"), m["line"], m["symbol"], m["confidence"], m["message"])
        for m in data["messages"]
    ]
    return proc.returncode, sorted(findings, key=lambda f: (f.path, f.line, f.symbol)), proc.stderr


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write a small project under `root`: each file's text dedented, leading blank lines dropped."""
    for relpath, text in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return root


def enable_args(symbols: tuple[str, ...] | list[str] = OMNI_SYMBOLS) -> list[str]:
    return ["--disable=all", "--enable=" + ",".join(symbols)]


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "omni-cache"
    folder.mkdir()
    return folder
