"""The report header's facts that do not come from findings: audit base and versions.

The audit base is what the findings should be compared against: `git merge-base HEAD
origin/main` when that works, else HEAD, else nothing (not a git checkout, or no
commit yet). Each note says why in words, never git's raw error text. Only
read-only git commands run, with optional locks off, so the analysed tree is never
written.
"""

from __future__ import annotations

import platform
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any

import astroid
import pylint

from pylint_omni.index.git import git
from pylint_omni.version import __version__

BASE_BRANCH = "origin/main"


def _base(method: str, commit: str | None, ref: str | None, note: str) -> dict[str, Any]:
    return {"method": method, "commit": commit, "ref": ref, "note": note}


def _why_no_merge_base(root: Path, ref: str) -> str:
    """Why `git merge-base HEAD <ref>` failed, in words (git's own stderr is not for a report)."""
    exists, _ = git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if not exists:
        return f"there is no {ref} to compare with"
    return f"HEAD and {ref} share no history"


@lru_cache(maxsize=8)
def _audit_base(root: Path) -> dict[str, Any]:
    if shutil.which("git") is None:
        return _base("none", None, None, "git is not installed: the report covers the files as they are")
    inside, _ = git(root, "rev-parse", "--is-inside-work-tree")
    if not inside:
        return _base("none", None, None, "not a git checkout: the report covers the files as they are")
    head_ok, head = git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    if not head_ok:
        return _base("none", None, None, "a git checkout with no commit yet: the report covers the files as they are")
    merged, base = git(root, "merge-base", "HEAD", BASE_BRANCH)
    if merged and base:
        same = "; HEAD is that commit" if head == base else f"; HEAD is {head[:12]}"
        return _base("merge-base", base, BASE_BRANCH, f"git merge-base HEAD {BASE_BRANCH}{same}")
    return _base("head", head, "HEAD", f"HEAD, because `git merge-base HEAD {BASE_BRANCH}` found none: "
                 + _why_no_merge_base(root, BASE_BRANCH))


def audit_base(root: Path) -> dict[str, Any]:
    """{method: merge-base|head|none, commit, ref, note} for the project root (git asked once per root)."""
    return dict(_audit_base(Path(root)))


def tool_versions() -> dict[str, str]:
    return {
        "name": "pylint-omni",
        "version": __version__,
        "pylint": pylint.__version__,
        "astroid": astroid.__version__,
        "python": platform.python_version(),
    }
