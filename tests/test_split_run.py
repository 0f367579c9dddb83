"""A `-j 1` run that visits every module forks a helper for the last ones (`evidence.split_run`).

Checked on real pylint runs over a synthetic corpus big enough to split: a cold run
takes modules from the helper (the trace says how many) and its findings, and the
audit records a report is built from, equal those of the same cold run on one core,
where no helper can start; nothing is recorded twice. The memo such a run saves
replays the same findings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import enable_args
from pylint_omni.index.scan_pool import usable_cores

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from synthetic import generate  # noqa: E402

pytestmark = pytest.mark.skipif(usable_cores() < 2, reason="a helper starts only with a core to spare")


def _lint(root: Path, cache: Path, trace: Path, one_core: bool, extra: tuple[str, ...] = ()) -> tuple[list[Any], list[Any]]:
    """(json2 messages, audit JSON findings) of one run; `one_core` pins the whole run to one CPU."""
    audit = root.parent / f"audit-{cache.name}-{one_core}.json"
    env = {**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache), "PYLINT_OMNI_TRACE": str(trace)}
    command = [sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--persistent=n", "-j", "1",
               f"--output-format=json2,omni-json:{audit}", *enable_args(), *extra, "synthomni"]
    pin = (lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})) if one_core else None
    proc = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600, preexec_fn=pin)
    assert not proc.returncode & 1, proc.stderr[-2000:]
    messages = sorted((m["path"], m["line"], m["column"], m["symbol"], m["message"]) for m in json.loads(proc.stdout)["messages"])
    report = json.loads(audit.read_text())
    return messages, sorted(json.dumps(f, sort_keys=True) for f in [*report["candidates"], *report["rejected"]])


def _splits(trace: Path) -> list[int]:
    return [int(line.split()[2]) for line in trace.read_text().splitlines() if line.split()[1] == "split"] if trace.exists() else []


def test_a_cold_run_split_in_two_finds_and_records_what_one_process_does(tmp_path: Path) -> None:
    root = generate(tmp_path / "synth", 220)
    trace = tmp_path / "trace.txt"
    split = _lint(root, tmp_path / "split-cache", trace, one_core=False)
    done = _splits(trace)
    assert len(done) == 1 and done[0] > 0, f"the helper handed over no module: {done}"
    trace.unlink()
    alone = _lint(root, tmp_path / "alone-cache", trace, one_core=True)
    assert _splits(trace) == []  # one core: no helper
    assert split[0], "the corpus gives findings"
    assert split == alone
    assert len(set(split[1])) == len(split[1])  # no finding recorded twice
    again = _lint(root, tmp_path / "split-cache", trace, one_core=False)  # warm: the memo it saved replays all
    assert again == split
    assert _splits(trace) == []
