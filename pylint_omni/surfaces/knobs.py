"""A dead setter of a field live code reads: a knob code outside the repository turns, not dead code.

Megatron-LM's `Timer.set_barrier_group(group)` (round 15) is the only code that sets
`self._barrier_group`, which the live `start()` reads: the class offers the setting, and
plugins outside the repository call it. Deleting the setter leaves the read and drops the
setting; the finding is medium and says so.
"""

from __future__ import annotations

import re

from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import SurfaceAnalysis, short_name
from pylint_omni.surfaces.lines import NOT_CODE, file_lines
from pylint_omni.surfaces.reach import PRODUCTION
from pylint_omni.surfaces.table import Surface

SELF_STORE = re.compile(r"^\s*self\.(\w+)\s*(?::[^=]*)?=(?!=)")
MAX_SETTER_LINES = 4  # body lines (docstring aside) of a method that only sets a field


def knob_doubt(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> str | None:
    """The doubt of a method that only sets a field a reached method of its class reads (module docstring)."""
    if root.kind != "method" or not root.container:
        return None
    lines = file_lines(index, root.path)
    body = [line for line in lines[root.line:root.end] if line.strip() and not line.strip().startswith(NOT_CODE)]
    stored = {m.group(1) for line in body if (m := SELF_STORE.match(line))}
    if not stored or len(body) > MAX_SETTER_LINES:
        return None
    others = [analysis.table.surfaces[d] for d in analysis.table.methods(root.container)
              if d != root.dotted and analysis.table.surfaces[d].name != "__init__"]
    for field in sorted(stored):
        read, written = re.compile(rf"\bself\.{field}\b(?!\s*(?::[^=]*)?=(?!=))"), re.compile(rf"\bself\.{field}\s*(?::[^=]*)?=(?!=)")
        if any(written.search(text) for m in others for text in lines[m.line:m.end]):
            continue  # set elsewhere too: not the knob's only setter
        reader = next((m for m in others if analysis.reach.phase.get(m.dotted) == PRODUCTION
                       and any(read.search(text) for text in lines[m.line:m.end])), None)
        if reader is not None:
            return (f"the only setter of `self.{field}`, which production reads ({short_name(analysis, reader.dotted)}): "
                    "a setting code outside the repository may turn; keep it, or drop the setting with its reads")
    return None
