"""A dead function whose call the project keeps commented out: a parked feature, not dead code.

llama-stack's NVIDIA adapter keeps `# await check_health(self._config)` under "# ToDo: check health of NeMo
endpoints and enable this": the helper has no caller because the call was switched off on purpose, and the change
a maintainer makes is to re-enable it or delete both. A production comment line that is a call of the dead
definition's name (`# await check_health(...)`, `# self.warm_up()`, `# x = build(...)`: the commented line starts
with the call) makes the finding medium, naming the line; prose that mentions the name does not. The comments are
read once per index state from the production files' text, never parsed as code.
"""

from __future__ import annotations

import re

from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex

# `# await check_health(cfg)`, `# return self.warm_up()`, `# out = build(x)`: a line of code switched off.
COMMENTED_CALL = re.compile(r"^\s*#\s*(?:await\s+|return\s+|[\w.\[\]]+\s*=\s*)?(?:[A-Za-z_][\w.]*\.)?([A-Za-z_]\w*)\(")


def _commented_calls(index: ProjectIndex) -> dict[str, tuple[str, int]]:
    """Name -> the first production comment line that calls it (path, line)."""
    found: dict[str, tuple[str, int]] = {}
    for relpath, _ in index.python_files():
        if index.location(relpath) is not Location.PRODUCTION:
            continue
        for number, line in enumerate((index.text(relpath) or "").splitlines(), 1):
            called = COMMENTED_CALL.match(line)
            if called:
                found.setdefault(called.group(1), (relpath, number))
    return found


_COMMENTED_CALLS: Derived[dict[str, tuple[str, int]]] = Derived("surfaces.commented_calls", _commented_calls)


def parked_call(index: ProjectIndex, name: str) -> str | None:
    """Why a dead function may be a parked feature: a production comment calls it, or None."""
    where = _COMMENTED_CALLS.of(index).get(name)
    if where is None:
        return None
    return (f"a call to it is commented out at {where[0]}:{where[1]}: a parked feature, re-enable that call or delete "
            "both")
