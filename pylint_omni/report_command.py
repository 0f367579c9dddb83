"""`python -m pylint_omni report [PATHS] [-o FILE] [--json FILE] [--sarif FILE]`.

Sugar for `pylint --load-plugins=pylint_omni --disable=all --enable=pylint-omni
--output-format=omni-report[:FILE],...` in a subprocess (so astroid's caches and
pylint's state stay per run). PATHS default to the top-level packages of the
current folder. Exit 0 when every asked-for report was written, whatever the
findings; non-zero when pylint could not run or crashed.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

from pylint_omni.precommit import BROKEN_MARKERS, PYLINT_ARGS, USAGE_ERROR, project_packages


def output_formats(markdown: str | None, json_path: str | None, sarif_path: str | None) -> str:
    """pylint's `--output-format` value; the Markdown report goes to stdout without `-o`."""
    formats = [f"omni-report:{markdown}" if markdown else "omni-report"]
    formats += [f"omni-json:{json_path}"] if json_path else []
    formats += [f"omni-sarif:{sarif_path}"] if sarif_path else []
    return ",".join(formats)


def _written(path: str, since: float) -> bool:
    try:
        stat = Path(path).stat()
    except OSError:
        return False
    return stat.st_size > 0 and stat.st_mtime >= since - 1


def run(paths: Sequence[str], markdown: str | None, json_path: str | None, sarif_path: str | None, jobs: int = 1) -> int:
    targets = list(paths) or project_packages(Path.cwd())
    if not targets:
        print("pylint-omni report: no package here; pass the PATHS to audit", file=sys.stderr)
        return 2
    command = [sys.executable, "-m", "pylint", *PYLINT_ARGS, f"--jobs={jobs}",
               f"--output-format={output_formats(markdown, json_path, sarif_path)}", *targets]
    started = time.time()
    proc = subprocess.run(command, stderr=subprocess.PIPE, text=True, check=False)
    sys.stderr.write(proc.stderr)
    files = [p for p in (markdown, json_path, sarif_path) if p]
    broken = proc.returncode & USAGE_ERROR or any(marker in proc.stderr for marker in BROKEN_MARKERS)
    missing = [p for p in files if not _written(p, started)]
    if broken or missing:
        print(f"pylint-omni report: pylint failed (exit {proc.returncode})"
              + (f"; not written: {', '.join(missing)}" if missing else ""), file=sys.stderr)
        return proc.returncode or 1
    if files:
        print(f"pylint-omni report: wrote {', '.join(files)}", file=sys.stderr)
    return 0
