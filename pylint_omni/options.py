"""The `omni-*` options: declared once on an options-only checker and validated before linting.

Settable on the command line (`--omni-root=...`) or in the analysed project's
`pyproject.toml` under `[tool.pylint.pylint-omni]` (any `[tool.pylint.*]` table works,
as pylint reads them all); `index/run_options.py` reads them per project.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from pylint.checkers import BaseChecker

from pylint_omni.evidence.baseline import BaselineError, load_baseline
from pylint_omni.evidence.keep import KEEP_KEY, keep_list
from pylint_omni.index.collector import during_run
from pylint_omni.index.external import external_problems
from pylint_omni.index.live import prefetch_indexes
from pylint_omni.index.paths import find_project_root, glob_spec
from pylint_omni.index.run_options import OptionError, RunOptions
from pylint_omni.index.settings import OPTION_DECLARATIONS, PER_CANDIDATE, PER_MEMBER, OmniSettings

USAGE_ERROR = 32  # pylint's exit status for a usage error

# `keep` is declared only so that pylint accepts the key; its value is read from the file (evidence.keep).
OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    *OPTION_DECLARATIONS,
    (KEEP_KEY, {"type": "string", "default": "", "metavar": "<list of tables>",
                "help": "The keep list: set only in the project's pyproject.toml as a list of tables "
                        "{symbol, name, reason, until} under [tool.pylint.pylint-omni]; read from that file."}),
)
REPORT_BY = ("contract", "owner")
GRANULARITY = (PER_CANDIDATE, PER_MEMBER)


class OmniOptions(BaseChecker):
    """Holds the `omni-*` options; emits nothing itself (pylint never opens it: it has no messages)."""

    name = "pylint-omni"
    msgs: dict[str, Any] = {}
    options = OPTIONS


def problems_of(settings: OmniSettings, sources: dict[str, str]) -> list[str]:
    """What makes these settings unusable, each naming the option, its value and where it was set."""
    def where(name: str) -> str:
        return sources.get(name, "default")

    found = []
    if settings.max_file_bytes <= 0:
        found.append(f"omni-max-file-bytes={settings.max_file_bytes} ({where('omni-max-file-bytes')}): must be a positive number of bytes")
    for name, globs in (("omni-validation-globs", settings.validation_globs), ("omni-production-globs", settings.production_globs),
                        ("omni-exclude-globs", settings.exclude_globs)):
        for glob in globs:
            if glob.startswith("/") or glob.startswith("../") or "/../" in glob:
                found.append(f"{name} entry {glob!r} ({where(name)}): globs are relative to the project root and cannot leave it")
            elif glob.count("[") != glob.count("]"):
                found.append(f"{name} entry {glob!r} ({where(name)}): unbalanced brackets, the glob cannot match")
            elif not _compiles(glob):
                found.append(f"{name} entry {glob!r} ({where(name)}): not a valid glob")
    for folder in settings.upstream_paths:
        if not Path(folder).is_dir():
            found.append(f"omni-upstream-paths entry {folder!r} ({where('omni-upstream-paths')}): no such folder")
    for pattern in settings.external_key_patterns:
        if not pattern or pattern.count("[") != pattern.count("]"):
            found.append(f"omni-external-key-patterns entry {pattern!r} ({where('omni-external-key-patterns')}): not a usable name pattern")
    if settings.report_by not in REPORT_BY:
        found.append(f"omni-report-by={settings.report_by!r} ({where('omni-report-by')}): expected one of {', '.join(REPORT_BY)}")
    for name, patterns in (("omni-hot-path-names", settings.hot_path_names), ("omni-cold-path-names", settings.cold_path_names)):
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                found.append(f"{name} entry {pattern!r} ({where(name)}): not a regular expression ({exc})")
    if settings.granularity not in GRANULARITY:
        found.append(f"omni-granularity={settings.granularity!r} ({where('omni-granularity')}): expected one of {', '.join(GRANULARITY)}")
    if settings.baseline is not None:
        try:
            load_baseline(settings.baseline)
        except BaselineError as exc:
            found.append(f"omni-baseline ({where('omni-baseline')}): {exc}")
    found += [f"omni-external-roots ({where('omni-external-roots')}): {problem}" for problem in external_problems(settings.external_roots)]
    return found


def _compiles(glob: str) -> bool:
    try:
        glob_spec((glob,))
    except (ValueError, TypeError):  # pathspec's pattern errors derive from ValueError
        return False
    return True


def _linted_paths(files: Iterable[str]) -> list[Path]:
    """The linted arguments that name files or folders (module names are left out)."""
    return [Path(item).resolve() for item in files if Path(item).exists()]


def root_problems(root: Path, files: Iterable[str]) -> list[str]:
    """A root that holds none of the linted paths makes every project check go quiet."""
    paths = _linted_paths(files)
    if not paths or any(path == root or root in path.parents or path in root.parents for path in paths):
        return []
    shown = ", ".join(str(p) for p in paths[:3])
    return [f"omni-root={root} holds none of the linted paths ({shown}): the project checks would have no facts; "
            "point --omni-root at the project that contains them"]


def keep_problems(root: Path, symbols: Iterable[str] = ()) -> list[str]:
    """What is wrong with the keep list of the project at `root` (`symbols`: the known messages, when given)."""
    keep = keep_list(root)
    known = set(symbols)
    unknown = [f"{e.where}: symbol {e.symbol!r} is not a pylint-omni message (one of {', '.join(sorted(known))})"
               for e in keep.entries if known and e.symbol not in known]
    return [*keep.problems, *unknown]


def project_roots(config: Any) -> list[Path]:
    """The project roots a run covers: `omni-root`, else the roots of the linted paths, else the working folder's."""
    base = RunOptions.of(config).base()
    files = getattr(config, "files", ()) or ()
    roots = [base.root] if base.root is not None else [find_project_root(p) for p in _linted_paths(files)]
    return list(dict.fromkeys(roots or [find_project_root(Path.cwd())]))


def usage_problems(config: Any, symbols: Iterable[str] = ()) -> list[str]:
    """Every reason the `omni-*` options of this run cannot work (empty when they can)."""
    problems: list[str] = []
    try:
        run = RunOptions.of(config)
        base = run.base()
        files = getattr(config, "files", ()) or ()
        if base.root is not None:
            if not base.root.is_dir():
                reason = "no such folder" if not base.root.exists() else "not a folder"
                return [f"omni-root={base.root}: {reason}"]
            problems += root_problems(base.root, files)
        for root in project_roots(config):
            problems += problems_of(run.for_root(root), run.sources_for_root(root))
            problems += keep_problems(root, symbols)
    except OptionError as exc:
        problems.append(str(exc))
    return list(dict.fromkeys(problems))


def refuse_unusable_options(config: Any, symbols: Iterable[str] = ()) -> None:
    """Exit with pylint's usage-error status when the options cannot work, saying why once.

    Expired keep entries are not an error: their findings come back, and the entry is
    named here once per run (and in the report).
    """
    problems = usage_problems(config, symbols)
    if problems:
        for problem in problems:
            print(f"pylint-omni: usage error: {problem}", file=sys.stderr)
        sys.exit(USAGE_ERROR)
    for root in project_roots(config):
        for entry in keep_list(root).expired():
            print(f"pylint-omni: keep entry expired on {entry.until}: {entry.symbol} {entry.name} ({entry.where}); "
                  "its findings are reported again: renew the date or fix the code", file=sys.stderr)


def check_before_linting(linter: Any, starting: Callable[[Sequence[str]], None]) -> None:
    """Check the options before linting starts (from pylint's plugin hook `load_configuration`, called once the
    options are read).

    A bad value is a usage error (exit 32, as pylint's own), said once, instead of a
    crash per module or a quietly partial run. The linted files are not known yet
    when pylint calls this hook (it sets them right after), and a root that holds
    none of them must be refused too; so the check runs at the start of
    `linter.check`, in the main process, before `-j N` workers start. There too the
    index of each project starts refreshing (`prefetch_indexes`): beside pylint's own
    tree building under `-j 1`, once for all workers under `-j N`. `starting` is told
    the linted files or folders first (the plugin hands it the split run's, so that
    the options never import what reads them).
    """
    unchecked = linter.check

    def check(files_or_modules: Any) -> None:
        symbols = [d.symbol for d in linter.msgs_store.messages if d.msgid[1:3] == "73"]
        refuse_unusable_options(linter.config, symbols)
        starting(files_or_modules)
        with during_run(linter):
            if any(linter.is_message_enabled(symbol) for symbol in symbols):
                run = RunOptions.of(linter.config)
                prefetch_indexes([(root, run.for_root(root)) for root in project_roots(linter.config)],
                                 for_workers=linter.config.jobs > 1 and not linter.config.from_stdin,
                                 enabled=linter.is_message_enabled)
            unchecked(files_or_modules)

    linter.check = check
