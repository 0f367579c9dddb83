"""Scanning many files at once: the cold index build, spread over the machine's cores.

A cold build parses every file of the project; the work is per file and
independent, so it is mapped over a process pool when there is enough of it. Any
failure to start the pool (a daemon process, no fork, limits) falls back to
scanning in this process: the result is the same, only slower.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from pylint_omni.index.discovery import SourceFile, read_text
from pylint_omni.index.scan.data_scan import InputProblem
from pylint_omni.index.scan.dispatch import scan_file

PARALLEL_MIN_FILES = 200
MAX_WORKERS = 4
Job = tuple[str, SourceFile, str, int]  # root, file, module name, size cap


def scan_entry(job: Job) -> dict[str, Any]:
    """The cache entry of one file: its stat, module name and facts (or the problem)."""
    root, f, module, max_bytes = job
    entry: dict[str, Any] = {"size": f.size, "mtime": f.mtime_ns, "module": module, "kind": f.kind}
    try:
        text = read_text(Path(root) / f.relpath, max_bytes)
        entry["facts"] = scan_file(f.kind, text, f.relpath, module)
    except InputProblem as exc:
        entry["problem"] = str(exc)
        entry["facts"] = {"kind": f.kind, "refs": {}}
    return entry


def _workers() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return min(MAX_WORKERS, cores)


def scan_entries(jobs: list[Job]) -> list[dict[str, Any]]:
    """Entries for `jobs`, in order; in parallel when there are many and cores to spare."""
    workers = _workers()
    if len(jobs) >= PARALLEL_MIN_FILES and workers > 1 and not multiprocessing.current_process().daemon:
        try:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                return list(pool.map(scan_entry, jobs, chunksize=max(8, len(jobs) // (workers * 8))))
        except (OSError, ValueError, RuntimeError, BrokenProcessPool):
            pass  # scan here instead
    return [scan_entry(job) for job in jobs]
