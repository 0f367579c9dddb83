"""The advisory pre-commit hook: show findings, never block a commit because of them.

`pylint --exit-zero` would also hide a plugin that failed to load, so the exit
status is decided here instead: findings (pylint's message bits 2/4/8/16) give 0;
a fatal message (bit 1), a usage error (bit 32), a plugin that could not be loaded
(`bad-plugin-value`) or a crash (a traceback, `astroid-error`) give non-zero, loudly.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Sequence

from pylint_omni.options import USAGE_ERROR

FATAL = 1
BROKEN_MARKERS = ("bad-plugin-value", "E0013", "Traceback (most recent call last)", "astroid-error", "F0002")
PYLINT_ARGS = ("--load-plugins=pylint_omni", "--disable=all", "--enable=pylint-omni", "--score=n", "--persistent=n")


def project_packages(root: Path) -> list[str]:
    """Top-level packages of a project (flat or `src/` layout), tests left out."""
    found = []
    for base in (root, root / "src"):
        if base.is_dir():
            for child in sorted(base.iterdir()):
                if (child / "__init__.py").is_file() and child.name not in ("tests", "test", "benchmarks", "examples"):
                    found.append(str(child.relative_to(root)))
    return found


def advisory_status(returncode: int, output: str) -> int:
    """0 for findings; non-zero when pylint or the plugin itself did not work."""
    if returncode & (FATAL | USAGE_ERROR):
        return returncode
    if any(marker in output for marker in BROKEN_MARKERS):
        return 1
    return 0


def run(files: Sequence[str], whole_project: bool, extra: Sequence[str] = ()) -> int:
    targets = list(files)
    if whole_project:
        targets = project_packages(Path.cwd())
    targets = [t for t in targets if t.endswith(".py") or Path(t).is_dir()]
    if not targets:
        return 0
    command = [sys.executable, "-m", "pylint", *PYLINT_ARGS, *extra, *targets]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    output = proc.stdout + proc.stderr
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    status = advisory_status(proc.returncode, output)
    if status:
        print(f"pylint-omni: pylint or the plugin failed (exit {proc.returncode}); see above", file=sys.stderr)
    return status
