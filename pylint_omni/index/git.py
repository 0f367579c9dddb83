"""Read-only git commands on the analysed checkout: optional locks off, no prompt, a time limit.

The analysed tree is never written: these commands only read (`rev-parse`,
`merge-base`, `log`), with `GIT_OPTIONAL_LOCKS=0` so that not even the index file
is refreshed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_TIMEOUT_S = 20.0


def git(root: Path, *args: str, timeout: float = GIT_TIMEOUT_S) -> tuple[bool, str]:
    """(succeeded, stdout or the first line of stderr) of a read-only git command."""
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0")
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=timeout, env=env, check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, str(exc)
    if proc.returncode == 0:
        return True, proc.stdout.strip()
    lines = proc.stderr.strip().splitlines()
    return False, lines[0] if lines else f"exit {proc.returncode}"
