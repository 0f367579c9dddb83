"""Speed and memory of pylint-omni, as ratios measured back to back in one run.

    python benchmarks/run.py [TREE PACKAGE] [--synthetic N] [--repeat K] [--json OUT] [--upstream-paths DIRS]
                             [--findings COLD.json]

Without TREE it generates a synthetic corpus (`benchmarks/synthetic.py`, 1,200 modules
by default) in a temporary folder. Measured, each as the best of K runs:
1. pylint's own floor on the tree (`--disable=all --enable=missing-module-docstring`:
   the astroid build plus one trivial message) against pylint with every message of
   this plugin, warm (index cache filled: an unchanged project replays its findings),
   warm after an edit (the findings memo gone: every finding judged again on a warm
   index) and cold (empty cache folder), `-j 1`; their peak memory; and the plugin at
   `-j 2` against `-j 1` (same findings required), beside pylint's own floor at
   `-j 2` against `-j 1` (what a second core gives pylint itself on that tree).
   The plugin's runs collect garbage less often than pylint's (`index/collector.py`),
   which speeds pylint's own tree building too; so the floor is measured again with
   the same collector settings and no plugin (`tuned floor`): the plugin's own cost
   is its time over that floor, and that floor's `-j 2` gain is what a second core
   gives pylint when it collects as the plugin's runs do.
   Targets (SPEC §8): warm <= 1.2-1.3x the floor, cold <= 1.6x, extra peak <= 300 MB,
   `-j 2` gain >= 0.95x the tuned floor's (issue 33). A cold run again with the upstream
   indexes already cached (`cold, upstream cached`: a second project on that machine,
   or any run after the first on one upstream version: they are cached per version).
   With `--upstream-paths` (folders of unpacked wheels) every plugin run reads them.
2. the project index built cold (no cache) and warm (from the cache), in-process;
   cold against `vulture` on the same tree when vulture is installed; warm target:
   under 0.5 s for ~1,000 modules.
3. the reference graph built cold (no store), warm (from the store) and after one
   edited editor buffer (what is re-resolved), and each upstream package's index
   built cold and loaded warm (`omni-upstream-paths` / installed packages);
4. one cold run through `phases.py`: seconds and memory per phase (project index, each
   upstream package, graph, reachability, copies), printed as a table after the figures
   of issue 33; its findings (`--findings`) for `same_findings.py`;
5. the editor case: one file through `--from-stdin`, plain pylint vs pylint with the
   plugin, same enabled messages plus the plugin's, warm cache: target ratio <= 1.3;
   again with one line added to the buffer (a new project state: judged again);
   and the same file linted again inside one long-lived process (as the VS Code
   extension runs pylint), where the index stays in memory between runs.
Machines are noisy: read the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import generate  # noqa: E402

from pylint_omni.index.run_options import settings_for_root  # noqa: E402
from pylint_omni.index.graph import graph_of  # noqa: E402
from pylint_omni.index.project_index import ProjectIndex  # noqa: E402
from pylint_omni.index.upstream import upstream_of  # noqa: E402
from pylint_omni.plugin import register_scanners  # noqa: E402

FLOOR = ["--disable=all", "--enable=missing-module-docstring"]
PLUGIN_ONLY = ["--load-plugins=pylint_omni", "--disable=all", "--enable=pylint-omni"]
PYLINT = [sys.executable, "-m", "pylint"]
# pylint with the collector of a run with the plugin (`index.collector`: young collections every
# YOUNG_THRESHOLD objects, no last collection at exit) and nothing else of the plugin.
TUNED_PYLINT = [sys.executable, "-c", "import atexit, gc, sys; from pylint_omni.index.collector import YOUNG_THRESHOLD; "
                "gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:]); atexit.register(gc.freeze); "
                "from pylint import run_pylint; sys.argv[0] = 'pylint'; run_pylint()"]


def timed_child(command: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one child process."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    if proc.returncode & 1 or proc.returncode & 32:
        raise SystemExit(f"{' '.join(command)} failed with exit {proc.returncode}")
    return seconds, usage.ru_maxrss / 1024


def timed_findings(args: list[str], package: str, tree: Path, env: dict[str, str], jobs: int,
                   launcher: list[str] = PYLINT) -> tuple[float, list[tuple[str, int, str, str]]]:
    """(seconds, sorted findings) of one run at `jobs` worker processes."""
    command = [*launcher, "--persistent=n", "--score=n", "--output-format=json2", "-j", str(jobs), *args, package]
    started = time.perf_counter()
    proc = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if proc.returncode & 1 or proc.returncode & 32:
        raise SystemExit(f"{' '.join(command)} failed with exit {proc.returncode}: {proc.stderr[-2000:]}")
    found = json.loads(proc.stdout)["messages"]
    return seconds, sorted((m["path"], m["line"], m["symbol"], m["message"]) for m in found)


def best(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return min(r[0] for r in runs), max(r[1] for r in runs)


def pylint_cmd(args: list[str], target: list[str], launcher: list[str] = PYLINT) -> list[str]:
    return [*launcher, "--persistent=n", "--score=n", "-j", "1", *args, *target]


def measure(tree: Path, package: str, repeat: int, upstream_paths: str = "", findings: Path | None = None) -> dict[str, object]:
    env = dict(os.environ)
    cache = Path(tempfile.mkdtemp(prefix="omni-bench-cache-"))
    env["PYLINT_OMNI_CACHE_DIR"] = str(cache)
    results: dict[str, object] = {"tree": str(tree), "package": package, "upstream_paths": upstream_paths}
    register_scanners()  # the same facts (and cache key) as a pylint run
    upstream = [f"--omni-upstream-paths={upstream_paths}"] if upstream_paths else []  # for every plugin run
    plugin_only = [*PLUGIN_ONLY, *upstream]

    # 1. Whole-package runs against pylint's floor; the warm runs follow a run that fills the cache.
    subprocess.run(pylint_cmd(plugin_only, [package]), cwd=tree, env=env, capture_output=True)
    floor_runs, tuned_runs, warm_runs, cold_runs, edited_runs, second_runs = [], [], [], [], [], []
    for _ in range(repeat):
        floor_runs.append(timed_child(pylint_cmd(FLOOR, [package]), tree, env))
        tuned_runs.append(timed_child(pylint_cmd(FLOOR, [package], TUNED_PYLINT), tree, env))
        warm_runs.append(timed_child(pylint_cmd(plugin_only, [package]), tree, env))
        cold_env = {**env, "PYLINT_OMNI_CACHE_DIR": tempfile.mkdtemp(prefix="omni-bench-cold-")}
        cold_runs.append(timed_child(pylint_cmd(plugin_only, [package]), tree, cold_env))
        shutil.rmtree(cold_env["PYLINT_OMNI_CACHE_DIR"], ignore_errors=True)
        # A second project: nothing of its own cached, the upstream indexes built by the first.
        second_env = {**env, "PYLINT_OMNI_CACHE_DIR": tempfile.mkdtemp(prefix="omni-bench-second-")}
        for part in cache.glob("upstream-*"):
            shutil.copy(part, second_env["PYLINT_OMNI_CACHE_DIR"])
        second_runs.append(timed_child(pylint_cmd(plugin_only, [package]), tree, second_env))
        shutil.rmtree(second_env["PYLINT_OMNI_CACHE_DIR"], ignore_errors=True)
        # After an edit the findings memo misses: the index and graph are warm, every finding is judged again.
        for memo in cache.glob("*-findings.json"):
            memo.unlink()
        edited_runs.append(timed_child(pylint_cmd(plugin_only, [package]), tree, env))
    (floor_s, floor_mb), (warm_s, warm_mb), (cold_s, cold_mb) = best(floor_runs), best(warm_runs), best(cold_runs)
    edited_s = best(edited_runs)[0]
    second_s, second_mb = best(second_runs)
    results["floor_s"] = round(floor_s, 2)
    results["plugin_warm_s"] = round(warm_s, 2)
    results["plugin_cold_s"] = round(cold_s, 2)
    results["plugin_warm_edited_s"] = round(edited_s, 2)
    results["warm_over_floor_ratio"] = round(warm_s / floor_s, 3)
    results["cold_over_floor_ratio"] = round(cold_s / floor_s, 3)
    results["warm_edited_over_floor_ratio"] = round(edited_s / floor_s, 3)
    tuned_s = best(tuned_runs)[0]
    results["tuned_floor_s"] = round(tuned_s, 2)
    results["warm_over_tuned_floor_ratio"] = round(warm_s / tuned_s, 3)
    results["cold_over_tuned_floor_ratio"] = round(cold_s / tuned_s, 3)
    results["plugin_cold_upstream_cached_s"] = round(second_s, 2)
    results["cold_upstream_cached_over_tuned_floor_ratio"] = round(second_s / tuned_s, 3)
    results["peak_mb_floor"] = round(floor_mb)
    results["peak_mb_plugin_warm"] = round(warm_mb)
    results["peak_mb_plugin_cold"] = round(cold_mb)
    results["peak_mb_plugin_cold_upstream_cached"] = round(second_mb)
    results["peak_mb_plugin"] = round(max(warm_mb, cold_mb, second_mb))
    results["extra_peak_mb"] = round(max(warm_mb, cold_mb, second_mb) - floor_mb)
    one_job = [timed_findings(plugin_only, package, tree, env, jobs=1) for _ in range(repeat)]
    two_jobs = [timed_findings(plugin_only, package, tree, env, jobs=2) for _ in range(repeat)]
    results["plugin_j1_s"] = round(min(t for t, _ in one_job), 2)
    results["plugin_j2_s"] = round(min(t for t, _ in two_jobs), 2)
    results["j2_speedup"] = round(results["plugin_j1_s"] / results["plugin_j2_s"], 3)
    results["j2_same_findings"] = one_job[0][1] == two_jobs[0][1]
    results["findings"] = len(one_job[0][1])
    # pylint's own gain from a second core on this tree, the bound the plugin's `-j 2` gain is read against.
    floor_one = [timed_findings(FLOOR, package, tree, env, jobs=1)[0] for _ in range(repeat)]
    floor_two = [timed_findings(FLOOR, package, tree, env, jobs=2)[0] for _ in range(repeat)]
    results["floor_j1_s"] = round(min(floor_one), 2)
    results["floor_j2_s"] = round(min(floor_two), 2)
    results["floor_j2_speedup"] = round(min(floor_one) / min(floor_two), 3)
    tuned_one = [timed_findings(FLOOR, package, tree, env, jobs=1, launcher=TUNED_PYLINT)[0] for _ in range(repeat)]
    tuned_two = [timed_findings(FLOOR, package, tree, env, jobs=2, launcher=TUNED_PYLINT)[0] for _ in range(repeat)]
    results["tuned_floor_j1_s"] = round(min(tuned_one), 2)
    results["tuned_floor_j2_s"] = round(min(tuned_two), 2)
    results["tuned_floor_j2_speedup"] = round(min(tuned_one) / min(tuned_two), 3)

    # 2. The index, in-process: cold (no cache) and warm (from a cache filled first, so that a
    # single repeat still measures a warm load).
    settings = settings_for_root(tree)
    if upstream_paths:
        settings = replace(settings, upstream_paths=tuple(upstream_paths.split(",")))
    ProjectIndex(tree, replace(settings, cache_dir=cache)).refresh()
    colds, warms = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        ProjectIndex(tree, replace(settings, cache_enabled=False)).refresh()
        colds.append(time.perf_counter() - started)
        started = time.perf_counter()
        warm = ProjectIndex(tree, replace(settings, cache_dir=cache))
        warm.refresh()
        warms.append(time.perf_counter() - started)
    results["python_modules"] = warm.stats.files_by_kind.get("python", 0)
    results["index_cold_s"] = round(min(colds), 3)
    results["index_warm_s"] = round(min(warms), 3)
    vulture = shutil.which("vulture")
    if vulture:
        runs = [_vulture(vulture, tree, package, env) for _ in range(repeat)]
        results["vulture_s"] = round(min(runs), 3)
        results["index_cold_over_vulture_ratio"] = round(min(colds) / min(runs), 3)
    else:
        results["vulture_s"] = None

    # 3. The reference graph and the upstream index, in-process: cold, warm, and one edited file.
    results.update(_graph_and_upstream(tree, settings, cache, package))

    # 4. Seconds and memory per phase of one cold run (`phases.py`), everything cold.
    results["phases_cold"] = _phases(tree, package, env, plugin_only, findings)

    # 5. The editor: one file on stdin, warm cache.
    target = _a_module(tree / package)
    rel = str(target.relative_to(tree))
    text = target.read_text(encoding="utf-8")
    plain, plugged = [], []
    for _ in range(repeat):
        plain.append(timed_child(pylint_cmd(["--output-format=json2", "--from-stdin"], [rel]), tree, env, text))
        plugged.append(timed_child(pylint_cmd(["--load-plugins=pylint_omni", *upstream, "--output-format=json2", "--from-stdin"], [rel]), tree, env, text))
    results["editor_file"] = rel
    # The VS Code extension runs pylint inside its long-lived server process: after the
    # first run the index stays in memory and a run only re-checks the files' stat.
    results["editor_long_lived_plain_s"] = _long_lived(tree, env, rel, plugin=False)
    results["editor_long_lived_plugin_s"] = _long_lived(tree, env, rel, plugin=True, upstream=upstream)
    results["editor_long_lived_ratio"] = round(results["editor_long_lived_plugin_s"] / results["editor_long_lived_plain_s"], 3)
    results["editor_plain_s"] = round(best(plain)[0], 3)
    results["editor_plugin_s"] = round(best(plugged)[0], 3)
    results["editor_ratio"] = round(best(plugged)[0] / best(plain)[0], 3)
    # The buffer as typed: one line added, so the project state is new and the findings are judged again.
    edited = text + "\n_BENCH_EDIT = 1\n"
    plain_edit = timed_child(pylint_cmd(["--output-format=json2", "--from-stdin"], [rel]), tree, env, edited)
    plugged_edit = timed_child(pylint_cmd(["--load-plugins=pylint_omni", *upstream, "--output-format=json2", "--from-stdin"], [rel]), tree, env, edited)
    results["editor_edited_ratio"] = round(plugged_edit[0] / plain_edit[0], 3)
    shutil.rmtree(cache, ignore_errors=True)
    return results


def _graph_and_upstream(tree: Path, settings, cache: Path, package: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """Graph build cold (nothing cached) and warm (from the store), one buffer edit, and each upstream package."""
    out: dict[str, object] = {}
    cold_cache = Path(tempfile.mkdtemp(prefix="omni-bench-graph-"))
    index = ProjectIndex(tree, replace(settings, cache_dir=cold_cache))
    index.refresh()
    started = time.perf_counter()
    graph = graph_of(index)
    out["graph_cold_s"] = round(time.perf_counter() - started, 3)
    out["graph_files"] = graph.stats.resolved
    warm = ProjectIndex(tree, replace(settings, cache_dir=cold_cache))
    warm.refresh()
    started = time.perf_counter()
    graph_of(warm)
    out["graph_warm_s"] = round(time.perf_counter() - started, 3)
    # An editor buffer of the largest module, with one line added: what is resolved again.
    target = _a_module(tree / package)
    rel = str(target.relative_to(tree))
    warm.override(rel, target.read_text(encoding="utf-8") + "\n_BENCH_EDIT = 1\n")
    started = time.perf_counter()
    edited = graph_of(warm)
    out["graph_one_edit_s"] = round(time.perf_counter() - started, 3)
    out["graph_one_edit_resolved"] = edited.stats.resolved
    for found in upstream_of(warm).packages():
        fresh = type(found)(found.located, cold_cache)
        started = time.perf_counter()
        fresh.summary()
        out[f"upstream_{found.name}_cold_s"] = round(time.perf_counter() - started, 2)
        again = type(found)(found.located, cold_cache)
        started = time.perf_counter()
        again.summary()
        out[f"upstream_{found.name}_warm_s"] = round(time.perf_counter() - started, 3)
    shutil.rmtree(cold_cache, ignore_errors=True)
    return out


def _phases(tree: Path, package: str, env: dict[str, str], plugin_only: list[str], findings: Path | None) -> dict[str, object]:
    """`phases.py`'s record of one cold `-j 1` run (its own empty cache folder); its findings in `findings`
    (omni-json, for `same_findings.py`) when given."""
    out = Path(tempfile.mkdtemp(prefix="omni-bench-phases-"))
    phase_env = {**env, "PYLINT_OMNI_CACHE_DIR": str(out / "cache")}
    launcher = [sys.executable, str(Path(__file__).resolve().parent / "phases.py"), str(out / "phases.json")]
    output = [f"--output-format=omni-json:{findings.resolve()}"] if findings else []
    timed_child(pylint_cmd([*plugin_only, *output], [package], launcher), tree, phase_env)
    found: dict[str, object] = json.loads((out / "phases.json").read_text(encoding="utf-8"))
    shutil.rmtree(out, ignore_errors=True)
    return found


def table(results: dict[str, object]) -> str:
    """The figures of issue 33, then the phases, as Markdown."""
    r = results
    rows = [
        ("warm / tuned floor", f"{r['plugin_warm_s']} s / {r['tuned_floor_s']} s = **{r['warm_over_tuned_floor_ratio']}**", "<= 1.2"),
        ("warm after an edit / tuned floor", f"{r['plugin_warm_edited_s']} s = {round(r['plugin_warm_edited_s'] / r['tuned_floor_s'], 3)}", "<= 1.2"),
        ("cold / tuned floor", f"{r['plugin_cold_s']} s = **{r['cold_over_tuned_floor_ratio']}**", "<= 1.6"),
        ("cold, upstream cached / tuned floor", f"{r['plugin_cold_upstream_cached_s']} s = **{r['cold_upstream_cached_over_tuned_floor_ratio']}**", "<= 1.6"),
        ("extra peak memory", f"{r['peak_mb_plugin']} - {r['peak_mb_floor']} = **+{r['extra_peak_mb']} MB** (warm {r['peak_mb_plugin_warm']}, "
         f"cold {r['peak_mb_plugin_cold']}, cold upstream cached {r['peak_mb_plugin_cold_upstream_cached']})", "<= +300 MB"),
        ("-j 2 gain, plugin / tuned floor", f"{r['j2_speedup']} / {r['tuned_floor_j2_speedup']} = "
         f"{round(r['j2_speedup'] / r['tuned_floor_j2_speedup'], 3)}; same findings: {r['j2_same_findings']}", ">= 0.95"),
        ("upstream index cold (in-process)", ", ".join(f"{k[9:-7]} {v} s" for k, v in r.items() if k.startswith("upstream_") and k.endswith("_cold_s")), ""),
        ("project index cold / warm", f"{r['index_cold_s']} s / {r['index_warm_s']} s", ""),
        ("editor long-lived", f"{r['editor_long_lived_ratio']}", "<= 1.3"),
    ]
    lines = ["| figure | measured | target |", "|---|---|---|", *(f"| {a} | {b} | {c} |" for a, b, c in rows)]
    phases = r.get("phases_cold") or {}
    lines += ["", "| phase (one cold run) | calls | s | kept MB | rise MB | RSS at start MB |", "|---|---|---|---|---|---|"]
    for name, row in phases.get("phases", {}).items():  # type: ignore[union-attr]
        lines.append(f"| {name} | {row['calls']} | {row['seconds']:.1f} | {row['kept_mb']:.0f} | {row['rise_mb']:.0f} | {row['rss_at_start_mb']:.0f} |")
    run = phases.get("run", {})  # type: ignore[union-attr]
    if run:
        lines.append(f"| whole run | | {run['seconds']:.1f} | | peak {run['peak_mb']:.0f} | |")
    return "\n".join(lines)


LONG_LIVED = """
import io, sys, time
from pylint.lint import Run
from pylint.reporters import JSON2Reporter
args = sys.argv[1:]
times = []
for _ in range(4):
    started = time.perf_counter()
    Run(["--persistent=n", *args], reporter=JSON2Reporter(io.StringIO()), exit=False)
    times.append(time.perf_counter() - started)
print(min(times[1:]))
"""


def _long_lived(tree: Path, env: dict[str, str], rel: str, plugin: bool, upstream: list[str] | None = None) -> float:
    """Best of three warm in-process runs on one file, after a first run that loads everything."""
    args = ["--load-plugins=pylint_omni", *(upstream or [])] if plugin else []
    proc = subprocess.run([sys.executable, "-c", LONG_LIVED, *args, rel], cwd=tree, env=env, capture_output=True, text=True, check=True)
    return round(float(proc.stdout.strip().splitlines()[-1]), 3)


def _vulture(vulture: str, tree: Path, package: str, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([vulture, package], cwd=tree, env=env, capture_output=True)
    return time.perf_counter() - started


def _a_module(package: Path) -> Path:
    """The largest module of the package: the editor case worth measuring."""
    return max(package.rglob("*.py"), key=lambda p: p.stat().st_size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", type=Path)
    parser.add_argument("package", nargs="?")
    parser.add_argument("--synthetic", type=int, default=1200, help="modules of the synthetic corpus (no TREE)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--upstream-paths", default="", help="folders of upstream sources (omni-upstream-paths) for every plugin run")
    parser.add_argument("--findings", type=Path, help="the findings of the cold run, as omni-json (benchmarks/same_findings.py)")
    args = parser.parse_args()
    if args.tree is None:
        tree = generate(Path(tempfile.mkdtemp(prefix="omni-synth-")), args.synthetic)
        package = "synthomni"
    else:
        tree, package = args.tree.resolve(), args.package or args.tree.name
    results = measure(tree, package, args.repeat, args.upstream_paths, args.findings)
    for key, value in results.items():
        if key != "phases_cold":
            print(f"{key:32} {value}")
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
