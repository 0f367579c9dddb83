"""`python -m pylint_omni explain ClassName`: the class's lifecycle mechanisms and where each one moves.

The same map the `lifecycle-mechanism` judgement reads (`mechanisms.class_mechanisms`), so the
table and the verdict never disagree. The file is parsed, never imported.
"""

from __future__ import annotations

from pathlib import Path

import astroid
from astroid import nodes

from pylint_omni.lifecycle.mechanisms import Mechanism, class_mechanisms

COLUMNS = (("set",), ("clear",), ("wait", "read"), ("abort",))


def _cell(mechanism: Mechanism, kinds: tuple[str, ...]) -> str:
    """`method:line` of each move of these kinds; a wait bounded by a timeout says so."""
    moves = sorted({(t.method, t.line, t.timed) for t in mechanism.transitions if t.kind in kinds}, key=lambda m: m[1])
    return ", ".join(f"{method}:{line}" + (" (timeout)" if timed else "") for method, line, timed in moves) or "-"


def ownership_lines(path: Path, line: int) -> list[str]:
    """The ownership table of the class defined at `path:line`, or nothing when it holds no mechanism."""
    try:
        module = astroid.parse(path.read_text(encoding="utf-8", errors="replace"), path=str(path))
    except (OSError, astroid.AstroidSyntaxError):
        return []
    cls = next((c for c in module.nodes_of_class(nodes.ClassDef) if c.lineno == line), None)
    mechanisms = {n: m for n, m in (class_mechanisms(cls) if cls is not None else {}).items() if m.has_lifecycle()}
    if not mechanisms:
        return []
    rows = ["lifecycle ownership: mechanism | kind | created | set/put/acquire/notify | clear/get/release | awaited/joined/read"
            " | cancelled/terminated"]
    for mechanism in sorted(mechanisms.values(), key=lambda m: m.created.lineno):
        created = next((f"{t.method}:{t.line}" for t in mechanism.transitions if t.line == mechanism.created.lineno), "-")
        cells = " | ".join(_cell(mechanism, kinds) for kinds in COLUMNS)
        rows.append(f"  {mechanism.name} | {mechanism.kind} | {created} | {cells}")
    return rows
