"""Seconds and memory of the plugin's phases inside one real pylint run (the launcher of `run.py`).

    python benchmarks/phases.py OUT.json [pylint arguments...]

Runs pylint in this process after wrapping the functions that start each phase
(`PHASES`), wherever the plugin's modules hold them (patched in every loaded
`pylint_omni` module, so a `from x import f` sees the wrapper too). Per phase: calls,
seconds spent inside its outermost calls (a memoised phase is called often and costs
once), the resident memory its calls left behind (`kept_mb`: what the run holds from
then on), the most its calls rose above where they started (`rise_mb`: a transient
peak), and the process's resident memory when its first call started. The peak is
the kernel's high-water mark (`VmHWM`), reset when a call starts
(`/proc/self/clear_refs`): no tracing cost, unlike `tracemalloc`, which slows a scan
several times. Linux only; a phase that runs in a forked helper (the cold scan's child)
is not seen, its parent's wait is.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import re
import sys
import time
from dataclasses import asdict, dataclass
from importlib import import_module
from typing import Any, Callable

# label -> (module, attribute) of a function or `Class.method` that starts the phase; "{name}" in a
# label is filled from the call's `self.name` (one row per upstream package). One the measured
# version lacks is skipped (a baseline measured with this file).
PHASES: tuple[tuple[str, str, str], ...] = (
    ("project index", "pylint_omni.index.project_index", "ProjectIndex.refresh"),
    ("upstream {name}", "pylint_omni.index.upstream.package", "UpstreamPackage.summary"),
    ("upstream {name}", "pylint_omni.index.upstream.package", "UpstreamPackage.facts"),
    ("upstream {name}", "pylint_omni.index.upstream.package", "UpstreamPackage.names"),
    ("upstream {name}", "pylint_omni.index.upstream.package", "UpstreamPackage.files"),
    ("upstream {name} files reached", "pylint_omni.index.upstream.package", "UpstreamPackage.facts_of"),
    ("graph", "pylint_omni.index.graph.graph", "graph_of"),
    ("reachability", "pylint_omni.surfaces.analysis", "analysis_of"),
    ("copies", "pylint_omni.copies.plan", "copy_plan"),
    ("copies of upstream", "pylint_omni.copies.upstream", "upstream_files"),
)


def _status(field: str) -> float:
    """One `/proc/self/status` figure in MB."""
    with open("/proc/self/status", encoding="ascii") as handle:
        found = re.search(rf"^{field}:\s+(\d+) kB", handle.read(), re.MULTILINE)
    return int(found.group(1)) / 1024 if found else 0.0


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
        handle.write("5")


@dataclass
class Phase:
    calls: int = 0
    seconds: float = 0.0
    kept_mb: float = 0.0
    rise_mb: float = 0.0
    rss_at_start_mb: float = -1.0


RECORDED: dict[str, Phase] = {}
_OPEN: list[tuple[str, float]] = []  # the phases under way (label, resident MB at their start), outermost first
_RUN_PEAK: list[float] = [0.0]  # every high-water mark read: the resets hide the run's own from getrusage


def _peak() -> float:
    found = _status("VmHWM")
    _RUN_PEAK[0] = max(_RUN_PEAK[0], found)
    return found


def _wrap(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        name = getattr(args[0], "name", "") if args else ""
        key = label.format(name=name)
        if any(key == open_key for open_key, _ in _OPEN):  # a phase calling itself (summary -> _build -> ...): counted once, outermost
            return function(*args, **kwargs)
        phase = RECORDED.setdefault(key, Phase())
        rss = _status("VmRSS")
        if phase.rss_at_start_mb < 0:
            phase.rss_at_start_mb = rss
        # The peak so far belongs to the phases under way: fold it into theirs before the reset.
        outer = _peak()
        for open_key, open_rss in _OPEN:
            RECORDED[open_key].rise_mb = max(RECORDED[open_key].rise_mb, outer - open_rss)
        _reset_peak()
        _OPEN.append((key, rss))
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            phase.seconds += time.perf_counter() - started
            phase.calls += 1
            _OPEN.pop()
            peak = _peak()
            phase.rise_mb = max(phase.rise_mb, peak - rss)
            for open_key, open_rss in _OPEN:
                RECORDED[open_key].rise_mb = max(RECORDED[open_key].rise_mb, peak - open_rss)
            phase.kept_mb += _status("VmRSS") - rss
    return wrapper


def install() -> None:
    """Wrap every phase's function in its module and wherever a loaded plugin module imported it."""
    import_module("pylint_omni.plugin")
    for label, module_name, attribute in PHASES:
        owner: Any = import_module(module_name)
        *classes, name = attribute.split(".")
        for part in classes:
            owner = getattr(owner, part)
        original = getattr(owner, name, None)
        if original is None:
            continue
        wrapped = _wrap(label, original)
        setattr(owner, name, wrapped)
        if not classes:
            for module in [m for key, m in sys.modules.items() if key.startswith("pylint_omni")]:
                for attr, value in list(vars(module).items()):
                    if value is original:
                        setattr(module, attr, wrapped)


def main() -> None:
    out = sys.argv[1]
    install()
    started = time.perf_counter()
    pid = os.getpid()

    def report() -> None:
        if os.getpid() != pid:  # a forked helper exiting
            return
        rows = {key: asdict(phase) for key, phase in RECORDED.items()}
        whole = {"seconds": time.perf_counter() - started, "peak_mb": max(_RUN_PEAK[0], _peak())}
        with open(out, "w", encoding="utf-8") as handle:
            json.dump({"phases": rows, "run": whole}, handle, indent=1)

    atexit.register(report)
    from pylint import run_pylint  # pylint: disable=import-outside-toplevel  # after the wrapping, as a plugin load would be

    sys.argv = ["pylint", *sys.argv[2:]]
    run_pylint()


if __name__ == "__main__":
    main()
