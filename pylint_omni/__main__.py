"""The pylint-omni command line: explain, index, report, baseline, diff, precommit.

- `explain NAME`: resolved consumers, name-only mentions and upstream readers of a
  symbol, key or dotted path, a registry entry's verdict as the message gives it, then
  the findings about it with their ids (`--findings` lints the project for them);
  `explain ID`: the finding with that id (`cli/explain.py`). The first thing to ask
  when a finding surprises you.
- `index`: what was scanned (files by kind, definitions, registries, problems) and
  the cold and warm build times.
- `report [PATHS]`: runs pylint with the plugin and writes the audit report.
- `baseline write FILE [PATHS]`: records today's findings by id (see `cli/baseline.py`).
- `diff [--base REF] [PATHS]`: findings added and resolved since the merge base (`cli/diff.py`).
- `precommit [FILES]`: the advisory pre-commit hook (see `cli/precommit.py`).
Settings come from the project's `pyproject.toml` (`[tool.pylint.*]` `omni-*` keys).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import astroid
import pylint

from pylint_omni.version import __version__
from pylint_omni.cli import baseline, diff, precommit, report
from pylint_omni.cli.explain import explain_command
from pylint_omni.evidence.wording import missing_upstreams
from pylint_omni.index.graph import graph_of
from pylint_omni.index.upstream import upstream_of
from pylint_omni.plugin import register_scanners
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.run_options import settings_for_root
from pylint_omni.index.paths import find_project_root
from pylint_omni.index.scan.data_scan import InputProblem


def _root(arg: str | None) -> Path:
    return Path(arg).resolve() if arg else find_project_root(Path.cwd())


def index_summary(root: Path, as_json: bool, out: Any = sys.stdout) -> int:
    """Build the index cold (no cache), then warm (from the cache), and say what it holds."""
    settings = settings_for_root(root)
    cold = ProjectIndex(root, replace(settings, cache_enabled=False))
    started = time.perf_counter()
    cold.refresh()
    cold_seconds = time.perf_counter() - started
    ProjectIndex(root, settings).refresh()  # make sure the cache is written
    warm = ProjectIndex(root, settings)
    started = time.perf_counter()
    warm.refresh()
    warm_seconds = time.perf_counter() - started
    graph = graph_of(warm)
    upstream = upstream_of(warm)
    summary = warm.counts()
    summary.update(
        graph_files_resolved=graph.stats.resolved,
        graph_files_reused=graph.stats.reused,
        graph_seconds=round(graph.stats.seconds, 3),
        upstream={p.name: f"{p.version} ({p.located.folder})" for p in upstream.packages()},
        upstream_missing=upstream.missing,
        cold_seconds=round(cold_seconds, 3),
        warm_seconds=round(warm_seconds, 3),
        warm_files_reread=warm.stats.scanned,
        cache=str(warm._cache_path()) if settings.cache_enabled else "disabled",
        cache_problem=warm.cache_note,
    )
    if as_json:
        json.dump(summary, out, indent=2)
        print(file=out)
        return 0
    print(f"project root: {summary['root']}", file=out)
    print("files: " + ", ".join(f"{k} {v}" for k, v in summary["files_by_kind"].items()), file=out)
    print(f"definitions: {summary['definitions']}; registries: {summary['registries']}", file=out)
    print(f"cold build: {cold_seconds:.2f} s; warm build: {warm_seconds:.2f} s ({warm.stats.scanned} files re-read)", file=out)
    print(f"cache: {summary['cache']}" + (f" ({warm.cache_note})" if warm.cache_note else ""), file=out)
    print(f"reference graph: {graph.stats.resolved} files resolved, {graph.stats.reused} reused, {graph.stats.seconds:.2f} s", file=out)
    for name, where in summary["upstream"].items():
        print(f"upstream: {name} {where}", file=out)
    for name, weakens in missing_upstreams(warm):
        print(f"upstream: {name} imported by the project but not installed (nor in omni-upstream-paths): {weakens}", file=out)
    if summary["templated"]:
        print(f"templated YAML (Helm/Jinja) read as text: {len(summary['templated'])} files", file=out)
    for rel, reason in summary["problems"].items():
        print(f"input problem: {rel}: {reason}", file=out)
    return 0


def _prog() -> str:
    """`pylint-omni` for the console script, `python -m pylint_omni` for the module."""
    return "python -m pylint_omni" if Path(sys.argv[0]).name == "__main__.py" else "pylint-omni"


def _version() -> str:
    return (f"pylint-omni {__version__} (pylint {pylint.__version__}, astroid {astroid.__version__}, "
            f"Python {platform.python_version()})")


def _add_lint_options(command: argparse.ArgumentParser) -> None:
    """pylint options the commands that lint pass through (any other `--name=value` passes through too)."""
    command.add_argument("-j", "--jobs", type=int, default=1, help="pylint worker processes")
    command.add_argument("--confidence", help="pylint's --confidence, e.g. HIGH (only high-confidence findings)")
    command.add_argument("--omni-root", help="project root for the index (default: nearest pyproject.toml/setup.py/.git)")


def _pylint_args(args: argparse.Namespace, extra: list[str]) -> list[str]:
    passed = [f"--jobs={args.jobs}"] if args.jobs != 1 else []
    passed += [f"--confidence={args.confidence}"] if args.confidence else []
    passed += [f"--omni-root={args.omni_root}"] if getattr(args, "omni_root", None) else []
    return passed + extra


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=_prog(), description=__doc__.splitlines()[0],
                                     epilog="Commands that lint also pass any other pylint option written as --name=value.")
    parser.add_argument("--version", action="version", version=_version())
    commands = parser.add_subparsers(dest="command", required=True)
    p_explain = commands.add_parser("explain", help="every consumer the index knows for a name; the finding of an id")
    p_explain.add_argument("name", help="a symbol, key or dotted path, or a finding id (16 hex digits)")
    p_explain.add_argument("--root", help="project root (default: nearest pyproject.toml/setup.py/.git)")
    p_explain.add_argument("--findings", action="store_true",
                           help="also lint the project to list the findings about NAME (cached until a file changes)")
    p_index = commands.add_parser("index", help="what the index scanned, and cold/warm build times")
    p_index.add_argument("--root", help="project root to index (default: nearest folder with pyproject.toml, setup.py "
                                        "or .git above the working folder, as `report` chooses)")
    p_index.add_argument("--json", action="store_true", help="print the summary as JSON instead of text")
    p_hook = commands.add_parser("precommit", help="advisory pre-commit hook: print findings, exit 0 unless pylint breaks")
    p_hook.add_argument("files", nargs="*")
    p_hook.add_argument("--project", action="store_true", help="lint every top-level package instead of FILES")
    p_report = commands.add_parser("report", help="run pylint with the plugin and write the audit report")
    p_report.add_argument("paths", nargs="*", help="what to audit (default: the top-level packages here)")
    p_report.add_argument("-o", "--output", help="Markdown report file (default: stdout)")
    p_report.add_argument("--json", help="also write the JSON report there")
    p_report.add_argument("--sarif", help="also write the SARIF 2.1.0 report there")
    p_report.add_argument("--by", choices=("contract", "owner"), help="group candidates by design contract or by owner")
    _add_lint_options(p_report)
    p_baseline = commands.add_parser("baseline", help="record today's findings: later runs with --omni-baseline show only new ones")
    p_baseline.add_argument("action", choices=("write",))
    p_baseline.add_argument("file", help="the baseline file to write (JSON)")
    p_baseline.add_argument("paths", nargs="*", help="what to lint (default: the top-level packages of the project)")
    _add_lint_options(p_baseline)
    p_diff = commands.add_parser("diff", help="findings added and resolved since the merge base (a temporary worktree)")
    p_diff.add_argument("paths", nargs="*", help="what to lint on both sides (default: the top-level packages)")
    p_diff.add_argument("--base", help="base commit or ref (default: git merge-base HEAD origin/main)")
    p_diff.add_argument("--head", help="head commit or ref (default: the working tree)")
    p_diff.add_argument("--json", help="also write the comparison as JSON there")
    p_diff.add_argument("--exit-zero", action="store_true", help="exit 0 when findings were added (2 still means it could not run)")
    p_diff.add_argument("-j", "--jobs", type=int, default=1, help="pylint worker processes")
    p_diff.add_argument("--confidence", help="pylint's --confidence, e.g. HIGH")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    lints = args.command in ("report", "baseline", "diff")
    if extra and (not lints or any(not item.startswith("--") or "=" not in item for item in extra)):
        parser.error(f"unrecognized arguments: {' '.join(extra)} (pylint options pass through as --name=value)")
    register_scanners()  # the same facts (and cache) as a pylint run
    if args.command == "report":
        passed = _pylint_args(args, extra) + ([f"--omni-report-by={args.by}"] if args.by else [])
        return report.run(args.paths, args.output, args.json, args.sarif, passed)
    if args.command == "precommit":
        return precommit.run(args.files, args.project)
    if args.command in ("baseline", "diff"):
        root = Path(args.omni_root).resolve() if getattr(args, "omni_root", None) else find_project_root(Path.cwd())
        paths = [Path(os.path.relpath(Path(p).resolve(), root)).as_posix() for p in args.paths]
        if args.command == "baseline":
            return baseline.write(args.file, root, paths, _pylint_args(args, extra))
        status = diff.run(root, args.base, args.head, paths, _pylint_args(args, extra), args.json)
        return 0 if args.exit_zero and status == 1 else status
    root = _root(getattr(args, "root", None))
    if not root.is_dir():
        print(f"pylint-omni: usage error: --root {root}: {'no such folder' if not root.exists() else 'not a folder'}", file=sys.stderr)
        return 2
    try:
        if args.command == "explain":
            return explain_command(args.name, root, args.findings)
        return index_summary(root, args.json)
    except InputProblem as exc:  # pragma: no cover - scanners report problems per file
        print(f"pylint-omni: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
