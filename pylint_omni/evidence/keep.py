"""The keep list: findings a team keeps on purpose, decided in the project's config, not in the code.

A pragma is lost when a file is resynced from upstream; a keep entry is not. In the
project root's own `pyproject.toml`:

    [tool.pylint.pylint-omni]
    keep = [
      {symbol = "unused-registry-entry", name = "pkg.envs.ENV_VARS['OLD_FLAG']",
       reason = "read by the deploy scripts of team X", until = 2026-06-30},
    ]

`name` is the finding's subject as the report shows it (its qualified name), a glob
over subjects (`pkg.legacy.*`), or a finding id. `reason` is required; `until` (a
TOML date or "YYYY-MM-DD") is optional. A kept candidate is not emitted; the report
lists it as kept, with the reason. After `until` the entry has expired: the finding
is emitted again, and the expired entry is itself reported (on stderr at the start
of the run and in the report). Read directly from the file (pylint turns a list of
tables into text); every malformed entry is a usage error naming the file.
"""

from __future__ import annotations

import datetime
import fnmatch
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

KEEP_KEY = "keep"
ENTRY_KEYS = ("symbol", "name", "reason", "until")
REQUIRED_KEYS = ("symbol", "name", "reason")


@dataclass(frozen=True)
class KeepEntry:
    """One decision to keep findings: which message, which subject, why, until when."""

    symbol: str
    name: str
    reason: str
    until: datetime.date | None
    where: str  # "path/pyproject.toml, keep[2]"

    def expired(self, today: datetime.date) -> bool:
        return self.until is not None and self.until < today

    def matches(self, symbol: str, subject: str, finding_id: str) -> bool:
        if symbol != self.symbol:
            return False
        return self.name in (subject, finding_id) or fnmatch.fnmatchcase(subject, self.name)

    def as_json(self) -> dict[str, Any]:
        return {"symbol": self.symbol, "name": self.name, "reason": self.reason,
                "until": self.until.isoformat() if self.until else None, "where": self.where}


@dataclass(frozen=True)
class KeepList:
    """The keep entries of one project and what is wrong with the ones that could not be read."""

    entries: tuple[KeepEntry, ...] = ()
    problems: tuple[str, ...] = ()

    def match(self, symbol: str, subject: str, finding_id: str) -> KeepEntry | None:
        """The first entry (expired or not) that names this finding."""
        return next((e for e in self.entries if e.matches(symbol, subject, finding_id)), None)

    def expired(self, today: datetime.date | None = None) -> list[KeepEntry]:
        today = today or datetime.date.today()
        return [e for e in self.entries if e.expired(today)]


def _date(value: Any, where: str) -> tuple[datetime.date | None, str | None]:
    if isinstance(value, datetime.datetime):
        return value.date(), None
    if isinstance(value, datetime.date):
        return value, None
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip()), None
        except ValueError:
            pass
    return None, f"{where}: until={value!r} is not a date (write until = 2026-06-30)"


def _entry(item: Any, where: str) -> tuple[KeepEntry | None, list[str]]:
    if not isinstance(item, dict):
        return None, [f"{where}: expected a table like {{symbol = \"...\", name = \"...\", reason = \"...\"}}, got {item!r}"]
    problems = [f"{where}: unknown key {key!r} (expected {', '.join(ENTRY_KEYS)})" for key in item if key not in ENTRY_KEYS]
    for key in REQUIRED_KEYS:
        value = item.get(key)
        if not isinstance(value, str) or not value.strip():
            problems.append(f"{where}: {key} is required and must be a non-empty string")
    until, bad_date = _date(item["until"], where) if "until" in item else (None, None)
    problems += [bad_date] if bad_date else []
    if problems:
        return None, problems
    return KeepEntry(item["symbol"].strip(), item["name"].strip(), item["reason"].strip(), until, where), []


def parse_keep(value: Any, source: str) -> KeepList:
    """The keep list from the raw `keep` value of `source` (a pyproject.toml path)."""
    if value is None:
        return KeepList()
    if not isinstance(value, list):
        return KeepList((), (f"{source}: [tool.pylint.pylint-omni] keep must be a list of tables, got {type(value).__name__}",))
    entries, problems = [], []
    for number, item in enumerate(value):
        entry, found = _entry(item, f"{source}, keep[{number}]")
        problems += found
        if entry is not None:
            entries.append(entry)
    return KeepList(tuple(entries), tuple(problems))


@lru_cache(maxsize=32)
def _read(file: Path, stamp: int) -> KeepList:
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return KeepList()  # the options check reports an unreadable pyproject.toml
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    pylint_tables = tool.get("pylint") if isinstance(tool.get("pylint"), dict) else {}
    table = pylint_tables.get("pylint-omni") if isinstance(pylint_tables.get("pylint-omni"), dict) else {}
    return parse_keep(table.get(KEEP_KEY), str(file))


def keep_list(root: Path) -> KeepList:
    """The keep list of the project at `root` (its own pyproject.toml), re-read when the file changes."""
    file = (root / "pyproject.toml").resolve()
    try:
        stamp = file.stat().st_mtime_ns
    except OSError:
        return KeepList()
    return _read(file, stamp)
