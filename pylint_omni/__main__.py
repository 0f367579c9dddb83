"""Command line: `python -m pylint_omni explain NAME`, `index`, `report`, `precommit`.

- `explain NAME`: every consumer the index knows for a symbol, key or dotted path, by
  kind, with file:line; the first thing to ask when a finding surprises you.
- `index`: what was scanned (files by kind, definitions, registries, problems) and
  the cold and warm build times.
- `report [PATHS]`: runs pylint with the plugin and writes the audit report.
- `precommit [FILES]`: the advisory pre-commit hook (see `precommit.py`).
Settings come from the project's `pyproject.toml` (`[tool.pylint.*]` `omni-*` keys).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

from pylint_omni import precommit, report_command
from pylint_omni.plugin import register_scanners
from pylint_omni.evidence.consumers import ConsumerKind, consumer_kind
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.options import settings_for_root
from pylint_omni.index.paths import find_project_root
from pylint_omni.index.scan.data_scan import InputProblem


def _root(arg: str | None) -> Path:
    return Path(arg).resolve() if arg else find_project_root(Path.cwd())


def explain(name: str, root: Path, out: Any = sys.stdout) -> int:
    """Print every consumer of `name` by kind; exit 0 when anything is known of it."""
    index = ProjectIndex(root, settings_for_root(root))
    index.refresh()
    known = False
    definitions = index.definitions_named(name.rpartition(".")[2])
    if definitions:
        known = True
        print(f"definitions of {name}:", file=out)
        for d in definitions:
            print(f"  {d.path}:{d.data['line']}  {d.kind} {d.dotted}", file=out)
    for rel, registry in index.registries():
        for entry in registry["entries"]:
            if entry["key"] == name:
                known = True
                print(f"registry entry: {rel}:{entry['line']}  key of {registry['name']} ({registry['form']})", file=out)
    by_kind: dict[ConsumerKind, list[str]] = {kind: [] for kind in ConsumerKind}
    for hit in index.hits(name):
        by_kind[consumer_kind(index, hit)].append(f"  {hit.path}:{hit.line}  ({hit.via})")
    for kind, rows in by_kind.items():
        print(f"{kind.value} mentions: {len(rows)}", file=out)
        for row in rows:
            print(row, file=out)
        known = known or bool(rows)
    print("(imports and __all__ are listed as mentions but never count as uses)", file=out)
    return 0 if known else 1


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
    summary = warm.counts()
    summary.update(
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
    if summary["templated"]:
        print(f"templated YAML (Helm/Jinja) read as text: {len(summary['templated'])} files", file=out)
    for rel, reason in summary["problems"].items():
        print(f"input problem: {rel}: {reason}", file=out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pylint_omni", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p_explain = commands.add_parser("explain", help="every consumer the index knows for a name")
    p_explain.add_argument("name")
    p_explain.add_argument("--root", help="project root (default: nearest pyproject.toml/setup.py/.git)")
    p_index = commands.add_parser("index", help="what the index scanned, and cold/warm build times")
    p_index.add_argument("--root")
    p_index.add_argument("--json", action="store_true")
    p_hook = commands.add_parser("precommit", help="advisory pre-commit hook: print findings, exit 0 unless pylint breaks")
    p_hook.add_argument("files", nargs="*")
    p_hook.add_argument("--project", action="store_true", help="lint every top-level package instead of FILES")
    p_report = commands.add_parser("report", help="run pylint with the plugin and write the audit report")
    p_report.add_argument("paths", nargs="*", help="what to audit (default: the top-level packages here)")
    p_report.add_argument("-o", "--output", help="Markdown report file (default: stdout)")
    p_report.add_argument("--json", help="also write the JSON report there")
    p_report.add_argument("--sarif", help="also write the SARIF 2.1.0 report there")
    p_report.add_argument("-j", "--jobs", type=int, default=1, help="pylint worker processes")
    args = parser.parse_args(argv)
    register_scanners()  # the same facts (and cache) as a pylint run
    if args.command == "report":
        return report_command.run(args.paths, args.output, args.json, args.sarif, args.jobs)
    if args.command == "precommit":
        return precommit.run(args.files, args.project)
    root = _root(getattr(args, "root", None))
    if not root.is_dir():
        print(f"pylint-omni: usage error: --root {root}: {'no such folder' if not root.exists() else 'not a folder'}", file=sys.stderr)
        return 2
    try:
        if args.command == "explain":
            return explain(args.name, root)
        return index_summary(root, args.json)
    except InputProblem as exc:  # pragma: no cover - scanners report problems per file
        print(f"pylint-omni: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
