"""The indexes of this process: one per project root and settings, refreshed once per run.

A run asks `get_index` for a module's project; the first ask of a run refreshes that
index (`begin_run` marks every live index stale). `prefetch_indexes` starts that refresh
before pylint builds its own trees, so that a cold scan, and the project judgements
registered to run beside it (`index.background`), overlap that build; before `-j N`
workers fork it finishes it, and each worker starts its run from that index.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Callable

from pylint_omni.index.background import judgements_for
from pylint_omni.index.project_index import BuildStats, ProjectIndex
from pylint_omni.index.settings import OmniSettings

TRACE_ENV = "PYLINT_OMNI_TRACE"  # a file: each index refresh appends "pid root scanned reused" (debugging, tests)
_BUILDS: dict[Path, BuildStats] = {}  # root -> what this process's refreshes of it read, until `take_builds`
_CACHE_WARNED: set[Path] = set()
_FRESH: set[tuple[Path, OmniSettings]] = set()
_FRESH_FOR_WORKERS: set[tuple[Path, OmniSettings]] = set()  # refreshed by this run's parent just before its workers fork


def begin_run(worker: bool = False) -> None:
    """Mark every live index stale: the next `get_index` of this run refreshes it once.

    A `-j N` worker (`worker`) starts its run from the indexes its parent refreshed for
    this run moments before forking it: refreshing them again would stat every file of
    the project once more in each worker.
    """
    _FRESH.clear()
    if worker:
        _FRESH.update(_FRESH_FOR_WORKERS)


def prefetch_indexes(wanted: list[tuple[Path, OmniSettings]], for_workers: bool,
                     enabled: Callable[[str], bool] = lambda _: False) -> None:
    """Start the refresh of the coming run's indexes now; `for_workers`, finish it too.

    Called before pylint builds its trees: under `-j 1` the cold scan runs beside that
    build, and so do the judgements registered to run beside it that an `enabled`
    message needs, and the first `get_index` collects it; before `-j N` workers start
    (`for_workers`), the parent builds each index once and every forked worker starts
    from it (`begin_run`).
    """
    _FRESH_FOR_WORKERS.clear()
    for root, settings in wanted:
        if for_workers:
            get_index(root, settings)
            _FRESH_FOR_WORKERS.add((root, settings))
        else:
            _live(root, settings).start_refresh(judgements_for(enabled), judgements_for(enabled, in_child=False))


@functools.cache  # one index per (root, settings) for the life of the process: a run lints a few roots
def _live(root: Path, settings: OmniSettings) -> ProjectIndex:
    """This process's index of `root` with these settings, made on first use."""
    return ProjectIndex(root, settings)


def get_index(root: Path, settings: OmniSettings) -> ProjectIndex:
    """The index of `root` for this process, refreshed once per run."""
    key = (root, settings)
    index = _live(root, settings)
    if key not in _FRESH:
        index.overrides.clear()
        stats = index.refresh()
        _FRESH.add(key)
        trace = os.environ.get(TRACE_ENV)
        if trace:
            with open(trace, "a", encoding="utf-8") as handle:
                handle.write(f"{os.getpid()} {root} {stats.scanned} {stats.reused}\n")
        if stats.scanned:
            # Said once per run, all roots together, by the run's summary (`reporters.summary`).
            built = _BUILDS.setdefault(root, BuildStats())
            built.scanned += stats.scanned
            built.seconds += stats.seconds
        if index.cache_note and root not in _CACHE_WARNED:
            _CACHE_WARNED.add(root)
            print(f"pylint-omni: warning: {index.cache_note}; every run rebuilds the index", file=sys.stderr)
    return index


def take_builds() -> dict[Path, BuildStats]:
    """What the index refreshes of this process read since the last call, by root (then forgotten)."""
    found = dict(_BUILDS)
    _BUILDS.clear()
    return found
