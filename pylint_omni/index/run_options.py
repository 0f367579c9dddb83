"""How a pylint run's `omni-*` values are read per project: the loaded file's, the project's own `pyproject.toml`'s and the command line's.

pylint reads one configuration file, found from the working directory. The index
root may be another folder (`pylint sample_repo/pkg` from a parent checkout), so
the settings of a project are its own `pyproject.toml`'s `omni-*` keys, overridden
only by what the command line sets: a run gives the same findings from any folder.
"""

from __future__ import annotations

import configparser
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from pylint.config import find_default_config_files

from pylint_omni.index.settings import OPTION_DECLARATIONS, OmniSettings, installed_allowed

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

PATH_OPTIONS = ("omni-baseline",)  # relative to the project root in its pyproject.toml, to the working folder on the command line
OPTION_TYPES = {name: spec["type"] for name, spec in OPTION_DECLARATIONS}
DEFAULTS = {name: spec["default"] for name, spec in OPTION_DECLARATIONS}
YES = frozenset({"y", "yes", "true", "1", "on"})
NO = frozenset({"n", "no", "false", "0", "off"})


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
