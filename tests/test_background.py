"""Project judgements computed beside pylint's own build in a cold run (`index.background`).

The child that scans also builds its own index and runs the registered judgements;
the main process reads their stores, and judges its own part (`in_child=False`)
while it waits. Checked: the judgement runs in another process on the same entries
the main process gets, the main process's part before that wait; a failing or stopped child costs time,
never a result or a line of output; and on a real cold pylint run the copy findings
read from the child's store are those the main process computes itself. (A run that
ends before it asks for the index, its child's pool still scanning, is
`test_cli.test_report_refuses_a_missing_path_and_an_empty_lint`: the caller reads
pylint's output to the end, which hung while that pool held the pipes.)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from conftest import enable_args, run_pylint
from pylint_omni.index.discovery import discover
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan_pool import PARALLEL_MIN_FILES, BackgroundScan, PendingScan, start_scan, usable_cores
from pylint_omni.index.settings import OmniSettings
from pylint_omni.plugin import register_scanners

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from synthetic import generate  # noqa: E402

needs_cores = pytest.mark.skipif(usable_cores() < 2, reason="the background child runs only with a core to spare")


def _project(root: Path, files: int = PARALLEL_MIN_FILES + 10) -> Path:
    package = root / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for i in range(files):
        (package / f"m{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n\n\nclass C{i}:\n    value = f{i}(1)\n")
    return root


def _index(root: Path) -> ProjectIndex:
    register_scanners()
    return ProjectIndex(root, OmniSettings(cache_dir=root.parent / f"{root.name}-cache"))


@needs_cores
def test_the_judgement_runs_in_another_process_on_the_entries_this_one_gets(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    marker = tmp_path / "judged.txt"

    def judge(index: ProjectIndex) -> None:
        marker.write_text(f"{os.getpid()} {len(index.entries)} {index.facts('pkg/m7.py')['classes'][0]['name']}")

    index = _index(root)
    index.start_refresh([judge])
    index.refresh()
    index.await_background()
    pid, count, name = marker.read_text().split()
    assert int(pid) != os.getpid()
    assert int(count) == len(index.entries) == PARALLEL_MIN_FILES + 11
    assert name == index.facts("pkg/m7.py")["classes"][0]["name"]
    plain = _index(root)  # the same files scanned without a child give the same entries
    plain.cache_file().unlink()
    plain.refresh()
    assert {rel: e["facts"] for rel, e in plain.entries.items()} == {rel: e["facts"] for rel, e in index.entries.items()}


@needs_cores
def test_the_main_process_judges_its_own_part_while_the_child_judges(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    marker = tmp_path / "order.txt"

    def in_child(index: ProjectIndex) -> None:
        time.sleep(0.5)  # still judging when the main process starts to wait
        with marker.open("a") as out:
            out.write(f"child {os.getpid()}\n")

    def waiting(index: ProjectIndex) -> None:
        with marker.open("a") as out:
            out.write(f"main {os.getpid()} {len(index.entries)}\n")

    index = _index(root)
    index.start_refresh([in_child], [waiting])
    index.refresh()
    assert not marker.exists()  # nothing judged before the first ask
    index.await_background()
    index.await_background()  # once per refresh
    (main, pid, count), (child, other) = (line.split() for line in marker.read_text().splitlines())
    assert (main, int(pid), int(count)) == ("main", os.getpid(), len(index.entries))
    assert child == "child" and int(other) != os.getpid()
    warm = _index(root)  # no child (nothing to scan): nothing is judged ahead of its checker
    marker.unlink()
    warm.start_refresh([in_child], [waiting])
    warm.refresh()
    warm.await_background()
    assert not marker.exists()


@needs_cores
def test_a_failing_judgement_costs_nothing_but_time(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    root = _project(tmp_path / "project")

    def judge(index: ProjectIndex) -> None:
        raise RuntimeError("a bug in a judgement")

    index = _index(root)
    index.start_refresh([judge])
    stats = index.refresh()
    index.await_background()
    assert stats.scanned == PARALLEL_MIN_FILES + 11 and "pkg/m3.py" in index.entries
    out, err = capfd.readouterr()
    assert "a bug in a judgement" not in out + err


@needs_cores
def test_a_stopped_child_is_scanned_here_and_a_small_scan_needs_none(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    index = _index(root)
    index.start_refresh()
    index.refresh()
    jobs = [(str(root), f, "", 1 << 20, True) for f in discover(root, (), {}, False)]
    expected = PendingScan(jobs).entries()
    stopped = BackgroundScan(jobs, lambda entries, kept: None)
    stopped.cancel()
    assert stopped.entries() == expected
    assert isinstance(start_scan(jobs[:10], lambda entries, kept: None), PendingScan)
    assert isinstance(start_scan(jobs, None), PendingScan)


@needs_cores
def test_the_child_saves_the_index_it_handed_over_even_when_stopped_and_shares_its_strings(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    marker = tmp_path / "judged.txt"

    def slow(index: ProjectIndex) -> None:
        time.sleep(30)
        marker.write_text("judged")

    index = _index(root)
    index.start_refresh([slow])
    index.refresh()
    assert index.cache_note is None
    # Each file's scan encodes the mentions of its `x` as the same text: after the hand-over it is one object.
    encoded = {id(entry["facts"]["refs"]["x"]) for rel, entry in index.entries.items() if rel.startswith("pkg/m")}
    assert len(encoded) == 1 and index.facts("pkg/m7.py")["refs"]["x"] == "2,name"
    index.start_refresh()  # a run that never asked for the judgement: its child is stopped, after it saved
    assert not marker.exists()
    again = _index(root)
    stats = again.refresh()
    assert (stats.scanned, stats.reused) == (0, PARALLEL_MIN_FILES + 11)


@needs_cores
def test_cold_copy_findings_from_the_childs_store_are_the_main_process_own(tmp_path: Path, cache_dir: Path) -> None:
    root = generate(tmp_path / "synth", 220)
    args = [*enable_args(["duplicated-implementation"]), "-j", "1", "synthomni"]
    _, cold, _ = run_pylint(args, root, cache_dir=cache_dir)
    stores = [p for p in cache_dir.rglob("*") if p.is_file() and "copies" in p.name]
    assert stores, "the child wrote no copies store"
    assert any(f.symbol == "duplicated-implementation" for f in cold)
    for path in [*stores, *(p for p in cache_dir.rglob("*") if p.is_file() and "findings" in p.name)]:
        path.unlink()  # the index stays warm: the next run judges the copies in its own process
    _, again, _ = run_pylint(args, root, cache_dir=cache_dir)
    assert again == cold

