"""The `omni-*` options: declared once on an options-only checker, validated, and read per project.

Settable on the command line (`--omni-root=...`) or in the analysed project's
`pyproject.toml` under `[tool.pylint.pylint-omni]` (any `[tool.pylint.*]` table works,
as pylint reads them all).

pylint reads one configuration file, found from the working directory. The index
root may be another folder (`pylint sample_repo/pkg` from a parent checkout), so
the settings of a project are its own `pyproject.toml`'s `omni-*` keys, overridden
only by what the command line sets: a run gives the same findings from any folder.
"""

from __future__ import annotations

import configparser
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from pylint.checkers import BaseChecker
from pylint.config import find_default_config_files

from pylint_omni.evidence.baseline import BaselineError, load_baseline
from pylint_omni.evidence.keep import KEEP_KEY, keep_list
from pylint_omni.index.collector import during_run
from pylint_omni.index.external import external_problems
from pylint_omni.index.live import prefetch_indexes
from pylint_omni.index.paths import find_project_root, glob_spec
from pylint_omni.index.settings import OPTION_DECLARATIONS, OmniSettings, installed_allowed

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

USAGE_ERROR = 32  # pylint's exit status for a usage error

OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    *OPTION_DECLARATIONS,
    (KEEP_KEY, {"type": "string", "default": "", "metavar": "<list of tables>",
                "help": "The keep list: set only in the project's pyproject.toml as a list of tables "
                        "{symbol, name, reason, until} under [tool.pylint.pylint-omni]; read from that file."}),
)
PATH_OPTIONS = ("omni-baseline",)  # relative to the project root in its pyproject.toml, to the working folder on the command line
REPORT_BY = ("contract", "owner")
GRANULARITY = ("candidate", "member")
# `keep` is declared only so that pylint accepts the key; its value is read from the file (evidence.keep).
OPTION_TYPES = {name: spec["type"] for name, spec in OPTIONS if name != KEEP_KEY}
DEFAULTS = {name: spec["default"] for name, spec in OPTIONS if name != KEEP_KEY}
YES = frozenset({"y", "yes", "true", "1", "on"})
NO = frozenset({"n", "no", "false", "0", "off"})


class OmniOptions(BaseChecker):
    """Holds the `omni-*` options; emits nothing itself (pylint never opens it: it has no messages)."""

    name = "pylint-omni"
    msgs: dict[str, Any] = {}
    options = OPTIONS


class OptionError(ValueError):
    """An `omni-*` value that cannot work; the text names the option, the value and the source."""


def _attribute(name: str) -> str:
    return name.replace("-", "_")


def _convert(name: str, value: Any, source: str) -> Any:
    """A raw value (TOML or INI) as pylint's option type would give it."""
    kind = OPTION_TYPES[name]
    if kind == "csv":
        items = value if isinstance(value, (list, tuple)) else str(value).split(",")
        return tuple(str(item).strip() for item in items if str(item).strip())
    if kind == "yn":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text not in YES | NO:
            raise OptionError(f"{name}={value!r} in {source}: expected y or n")
        return text in YES
    if kind == "int":
        try:
            return int(value)
        except (TypeError, ValueError):
            raise OptionError(f"{name}={value!r} in {source}: expected a whole number") from None
    return str(value)


def _omni_keys(tables: Iterable[Any]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for table in tables:
        if isinstance(table, dict):
            found.update({key: value for key, value in table.items() if key in OPTION_TYPES})
    return found


def _file_options(path: Path) -> tuple[tuple[str, Any], ...]:
    """The `omni-*` keys a pylint configuration file sets (pyproject/TOML or INI), converted."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return ()
    return _parsed_file_options(path, stamp)


@lru_cache(maxsize=64)
def _parsed_file_options(path: Path, stamp: int) -> tuple[tuple[str, Any], ...]:
    """Parsed once per file version (`stamp`: its mtime), so a long-lived process sees edits."""
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ()
    raw: dict[str, Any] = {}
    if path.suffix == ".toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise OptionError(f"{source} is not valid TOML: {exc}") from None
        tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
        pylint_tables = tool.get("pylint") if isinstance(tool.get("pylint"), dict) else {}
        raw = _omni_keys([pylint_tables, *pylint_tables.values()])
    else:
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text, source=source)
        except configparser.Error:
            return ()  # pylint reports its own configuration file's syntax errors
        raw = _omni_keys(dict(parser[section]) for section in parser.sections())
    return tuple((name, _convert(name, value, source)) for name, value in raw.items())


def _loaded_config_file(config: Any) -> Path | None:
    """The configuration file pylint read for this run (`--rcfile`, else the first one it finds)."""
    given = getattr(config, "rcfile", None)
    if given:
        return Path(given).resolve()
    found = next(find_default_config_files(), None)
    return Path(found).resolve() if found else None


def settings_of(values: dict[str, Any]) -> OmniSettings:
    """OmniSettings from option values by name (`omni-root`, ...); missing ones take their default."""
    def get(name: str) -> Any:
        return values.get(name, DEFAULTS[name])

    root = get("omni-root")
    cache_dir = get("omni-cache-dir")
    baseline = get("omni-baseline")
    return OmniSettings(
        root=Path(root).expanduser().resolve() if root else None,
        validation_globs=tuple(get("omni-validation-globs")),
        production_globs=tuple(get("omni-production-globs")),
        exclude_globs=tuple(get("omni-exclude-globs")),
        external_key_patterns=tuple(get("omni-external-key-patterns")),
        cache_dir=Path(cache_dir).expanduser() if cache_dir else None,
        cache_enabled=bool(get("omni-cache")),
        max_file_bytes=int(get("omni-max-file-bytes")),
        include_rejected=bool(get("omni-include-rejected")),
        copy_min_statements=max(3, int(get("omni-copy-min-statements"))),
        reimplementation_upstreams=tuple(get("omni-reimplementation-upstreams")),
        respect_gitignore=bool(get("omni-respect-gitignore")),
        baseline=Path(baseline).expanduser().resolve() if baseline else None,
        external_roots=tuple(get("omni-external-roots")),
        report_by=str(get("omni-report-by")).strip().lower(),
        granularity=str(get("omni-granularity")).strip().lower(),
        platform_words=tuple(w.lower() for w in get("omni-platform-words")),
        hot_path_names=tuple(get("omni-hot-path-names")),
        cold_path_names=tuple(get("omni-cold-path-names")),
        upstream_packages=tuple(get("omni-upstream-packages")),
        upstream_paths=tuple(_under_root(root, p) for p in get("omni-upstream-paths")),
        upstream_installed=bool(get("omni-upstream-installed")) and installed_allowed(),
        extra_roots=tuple(get("omni-extra-roots")),
    )


def _under_root(root: str, path: str) -> str:
    """An upstream folder as an absolute path (a relative one starts at the project root)."""
    given = Path(path).expanduser()
    return str(given if given.is_absolute() or not root else (Path(root) / given).resolve())


@dataclass(frozen=True)
class RunOptions:
    """What a pylint run says of the `omni-*` options: the command line's and the loaded file's values."""

    command_line: tuple[tuple[str, Any], ...] = ()
    loaded_file: Path | None = None
    from_loaded_file: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, config: Any) -> "RunOptions":
        """Split pylint's merged values: a value that differs from the loaded file's (or the default) came from the command line."""
        loaded = _loaded_config_file(config)
        from_file = dict(_file_options(loaded)) if loaded is not None else {}
        command_line: dict[str, Any] = {}
        for name in OPTION_TYPES:
            value = getattr(config, _attribute(name), DEFAULTS[name])
            value = tuple(value) if isinstance(value, list) else value
            if value != from_file.get(name, DEFAULTS[name]):
                command_line[name] = value
        return cls(tuple(command_line.items()), loaded, tuple(from_file.items()))

    def base(self) -> OmniSettings:
        """The settings before a project root is known (its `omni-root` says where it is)."""
        return settings_of({**dict(self.from_loaded_file), **dict(self.command_line)})

    def _values_for_root(self, root: Path) -> tuple[dict[str, Any], dict[str, str]]:
        """(values, where each came from): the project's own pyproject.toml keys (else the loaded file's), then the command line."""
        own_file = (root / "pyproject.toml").resolve()
        own = dict(_file_options(own_file))
        if own or own_file == self.loaded_file:
            values, source = own, str(own_file)
        else:
            values, source = dict(self.from_loaded_file), str(self.loaded_file)
        sources = {name: source for name in values}
        for name in (*PATH_OPTIONS, "omni-external-roots"):
            if name in values:  # a file's relative paths are relative to the file's folder
                values[name] = _anchored(name, values[name], Path(source).parent)
        values.update(self.command_line)
        sources.update({name: "command line" for name, _ in self.command_line})
        values["omni-root"] = str(root)
        return values, sources

    def for_root(self, root: Path) -> OmniSettings:
        """The settings of the project at `root`."""
        return settings_of(self._values_for_root(root)[0])

    def sources_for_root(self, root: Path) -> dict[str, str]:
        """Option name -> where its value for the project at `root` comes from (default: absent)."""
        return self._values_for_root(root)[1]


def _anchored(name: str, value: Any, folder: Path) -> Any:
    """Relative paths of a configuration file, made absolute against its folder (names stay names)."""
    if name == "omni-external-roots":
        return tuple(str(folder / item) if (folder / item).is_dir() and not Path(item).is_absolute() else item for item in value)
    return str(folder / value) if value and not Path(value).expanduser().is_absolute() else value


def settings_for_root(root: Path) -> OmniSettings:
    """The settings of the project at `root` with no command-line options (the CLI commands)."""
    return RunOptions().for_root(root)


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
