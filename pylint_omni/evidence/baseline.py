"""The baseline: the findings a project already knows, by id, so a run shows only new ones.

`python -m pylint_omni baseline write FILE` records the current candidates; a run
with `--omni-baseline=FILE` emits only candidates whose id is not in it and records
the others as known, so the report can say how many known ones remain and which
disappeared. The file is JSON (`"format": "pylint-omni-baseline/1"`), one object per
finding with its id, symbol, subject, path, line and message: the ids decide, the
rest is for people reading a diff of the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

FORMAT = "pylint-omni-baseline/1"
ENTRY_KEYS = ("id", "symbol", "subject", "path", "line", "message")


class BaselineError(ValueError):
    """A baseline file that cannot be used; the text names the file and the reason."""


@dataclass(frozen=True)
class Baseline:
    path: str
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> entry

    def __contains__(self, finding_id: str) -> bool:
        return finding_id in self.entries


def _parse(text: str, source: str) -> Baseline:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{source} is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("findings"), list):
        raise BaselineError(f"{source} is not a pylint-omni baseline (expected \"format\": \"{FORMAT}\" and a findings list); "
                            "write one with `python -m pylint_omni baseline write FILE`")
    entries: dict[str, dict[str, Any]] = {}
    for number, item in enumerate(data["findings"]):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise BaselineError(f"{source}: findings[{number}] has no id")
        entries[item["id"]] = item
    return Baseline(source, entries)


@lru_cache(maxsize=8)
def _load(path: Path, stamp: int) -> Baseline:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"{path} cannot be read: {exc}") from None
    return _parse(text, str(path))


def load_baseline(path: Path) -> Baseline:
    """The baseline at `path`, read once per version of the file."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        raise BaselineError(f"{path}: no such file (write it with `python -m pylint_omni baseline write {path}`)") from None
    return _load(path, stamp)


def baseline_document(findings: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The baseline file's content for candidate findings (JSON report rows), sorted for stable diffs."""
    rows = [{key: finding.get(key) for key in ENTRY_KEYS} for finding in findings]
    rows.sort(key=lambda row: (row["path"] or "", row["line"] or 0, row["symbol"] or "", row["id"]))
    return {"format": FORMAT, "findings": rows}
