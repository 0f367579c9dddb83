"""A file's lines as the surfaces family reads them (docs lines, test lines), read once per index state."""

from __future__ import annotations

import re

from pylint_omni.index.derived import Table
from pylint_omni.index.project_index import ProjectIndex

_LINES: Table[str, list[str]] = Table("surfaces.file_lines")


def file_lines(index: ProjectIndex, path: str) -> list[str]:
    """A file's lines as the family reads them (docs lines, test lines), read once per index state."""
    return _LINES.of(index, path, lambda: (index.text(path) or "").splitlines())


def file_line(index: ProjectIndex, path: str, line: int) -> str:
    """One line of a file (empty past its end)."""
    lines = file_lines(index, path)
    return lines[line - 1] if 0 < line <= len(lines) else ""


def names_as_code(text: str, token: str) -> bool:
    """`token` in a docs line as code: in backticks, after a dot, or called."""
    return re.search(rf"[`.]{re.escape(token)}\b|\b{re.escape(token)}(?:`|\()", text) is not None
