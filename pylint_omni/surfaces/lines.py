"""A file's lines as the surfaces family reads them (docs lines, test lines), kept for the files read last."""

from __future__ import annotations

import re
from collections import OrderedDict

from pylint_omni.index.derived import Built
from pylint_omni.index.project_index import ProjectIndex

NOT_CODE = ("#", '"' * 3, "'" * 3, "@")  # how comment, docstring and decorator lines of a body begin
MAX_FILES_SPLIT = 256  # files whose lines stay split: the doubts read a few files many times, not every file for long


class _SplitFiles(OrderedDict[str, list[str]]):
    """The last files split into lines, most recent last (all of them held: 11.6 MB on FastVideo)."""


_LINES: Built[_SplitFiles] = Built("surfaces.file_lines")


def file_lines(index: ProjectIndex, path: str) -> list[str]:
    """A file's lines as the family reads them (docs lines, test lines)."""
    split = _LINES.of(index, _SplitFiles)
    lines = split.get(path)
    if lines is None:
        lines = split[path] = (index.text(path) or "").splitlines()
        if len(split) > MAX_FILES_SPLIT:
            split.popitem(last=False)
    else:
        split.move_to_end(path)
    return lines


def file_line(index: ProjectIndex, path: str, line: int) -> str:
    """One line of a file (empty past its end)."""
    lines = file_lines(index, path)
    return lines[line - 1] if 0 < line <= len(lines) else ""


def names_as_code(text: str, token: str) -> bool:
    """`token` in a docs line as code: in backticks, after a dot, or called."""
    return re.search(rf"[`.]{re.escape(token)}\b|\b{re.escape(token)}(?:`|\()", text) is not None
