"""Code copied from upstream on purpose: a file whose header says it was adapted or copied from elsewhere.

SPEC §3: a finding in code copied from upstream on purpose says so and is not high
by default — the layer may be kept so that the copy stays easy to resync. Only the
file's first lines are read (the license and provenance header).
"""

from __future__ import annotations

import re

from pylint_omni.index.project_index import ProjectIndex

HEADER_LINES = 20
COPIED = re.compile(r"\b(?:adapted|copied|ported|borrowed|modified|taken)\s+from\s+(\S+)", re.IGNORECASE)


def copied_from(index: ProjectIndex, relpath: str) -> str | None:
    """Where the file's header says it comes from (`https://github.com/...`), else None."""
    memo: dict[str, str | None] = index.derived.setdefault("copied_from", {})
    if relpath not in memo:
        text = index.overrides.get(relpath)
        if text is None:
            try:
                with open(index.root / relpath, encoding="utf-8", errors="replace") as handle:
                    text = "".join(handle.readline() for _ in range(HEADER_LINES))
            except OSError:
                text = ""
        head = "\n".join(text.splitlines()[:HEADER_LINES])
        match = COPIED.search(head)
        memo[relpath] = match.group(1).rstrip(".,;:") if match else None
    return memo[relpath]
