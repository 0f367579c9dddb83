"""When the last caller went: one `git log -S` per lost feature, capped and cached.

When only one commit ever changed how often `name(` occurs, the definition came in that
commit and no call was ever added or removed after: the feature was never wired (half
landed), not orphaned by a refactor (Megatron-LM's varlen dataset helpers, added days before
the checkout while the rest of the feature was still in review).

Optional, never required and never slow: outside a git checkout, when git is missing
or a lookup takes too long, the finding simply does not say. A run asks at most
`MAX_LOOKUPS` times, each within `LOOKUP_S` seconds; answers are kept in the cache
folder per HEAD commit, so the next run asks git nothing.
"""

from __future__ import annotations

import shutil

from pylint_omni.index import cache
from pylint_omni.index.git import git
from pylint_omni.index.project_index import ProjectIndex

MAX_LOOKUPS = 8  # git lookups one run may make (the rest say nothing)
LOOKUP_S = 2.0  # seconds one lookup may take


class History:
    """Commits that last changed how often `name(` occurs in the checkout, per HEAD (see the module docstring)."""

    def __init__(self, index: ProjectIndex) -> None:
        self.root = index.root
        self.lookups = 0
        self.head = ""
        self.known: dict[str, str] = {}
        self.single: set[str] = set()  # names whose `name(` count one commit alone ever changed
        self.path = None
        if shutil.which("git") is None or not (index.root / ".git").exists():
            return
        found, head = git(index.root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", timeout=LOOKUP_S)
        if not found:
            return
        self.head = head
        self.path = index.derived_cache("history", head)
        document = cache.load_document(self.path) if self.path is not None else None
        if document is not None and isinstance(document.get("commits"), dict):
            self.known = {str(k): str(v) for k, v in document["commits"].items()}
            self.single = {str(n) for n in document.get("single", []) if isinstance(n, str)}

    def last_change(self, name: str) -> str:
        """`abc1234 (2025-11-02: subject)` of the commit that last changed the calls of `name`, or ""."""
        if not self.head:
            return ""
        if name in self.known:
            return self.known[name]
        if self.lookups >= MAX_LOOKUPS:
            return ""
        self.lookups += 1
        found, text = git(self.root, "log", "-S", f"{name}(", "--format=%h (%ad: %s)", "--date=short", "-n", "2",
                          "--no-merges", "HEAD", "--", ".", timeout=LOOKUP_S)
        lines = text.splitlines() if found and text else []
        self.known[name] = lines[0][:120] if lines else ""
        if len(lines) == 1:
            self.single.add(name)
        if self.path is not None:
            cache.save_document(self.path, {"commits": self.known, "single": sorted(self.single)})
        return self.known[name]

    def never_called(self, name: str) -> bool:
        """Whether one commit alone ever changed the calls of `name` (its own): it came uncalled (`last_change` first)."""
        return bool(self.last_change(name)) and name in self.single
