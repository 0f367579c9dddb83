"""YAML front matter of a Markdown page (`---` ... `---` at the top), read safely.

Design contracts (`docs/design/*.md`) carry their ownership data there: title, kind,
status, owners, primary/related code paths, validation paths and so on.
"""

from __future__ import annotations

import datetime
from typing import Any

import yaml

MAX_FRONT_MATTER_CHARS = 65_536


def _plain(value: Any) -> Any:
    """JSON-ready copy (dates become ISO strings; other scalars stay as they are)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def parse_front_matter(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """(front matter, None), (None, reason) when it is malformed, or (None, None) when absent."""
    if not text.startswith("---"):
        return None, None
    first_newline = text.find("\n")
    if first_newline < 0 or text[:first_newline].strip() != "---":
        return None, None
    end = text.find("\n---", first_newline)
    if end < 0:
        return None, "front matter has no closing '---'"
    block = text[first_newline + 1 : end]
    if len(block) > MAX_FRONT_MATTER_CHARS:
        return None, f"front matter longer than {MAX_FRONT_MATTER_CHARS} characters"
    try:
        value = yaml.safe_load(block)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark is not None else ""
        return None, f"malformed front matter{where}: {getattr(exc, 'problem', None) or exc}"
    if value is None:
        return {}, None
    if not isinstance(value, dict):
        return None, "front matter is not a mapping"
    return _plain(value), None
