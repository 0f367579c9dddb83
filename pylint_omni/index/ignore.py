"""Which files of a project git ignores: `.gitignore` files, `.git/info/exclude`, and what git tracks.

The index skips what the project's `.gitignore` files exclude (build output, local
environments, generated folders), as ruff and black do, with one difference that
matters on real code: a file that git *tracks* is never skipped, even when a
`.gitignore` pattern matches it (git itself keeps tracking such files; vLLM-Omni's
`cache/` rule matches ten tracked production modules under
`vllm_omni/diffusion/cache/`). The tracked list comes from `git ls-files`, run
read-only (`GIT_OPTIONAL_LOCKS=0`, no index refresh, no network); without git or
outside a repository only the ignore files decide.

Patterns are read with `pathspec`'s `GitIgnoreSpec`; a deeper `.gitignore` decides
before a shallower one, and `.git/info/exclude` comes last.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pathspec import GitIgnoreSpec

GIT_TIMEOUT_SECONDS = 20
MAX_IGNORE_FILE_BYTES = 1_000_000


def _list_tracked(root: Path) -> frozenset[str] | None:
    """Root-relative paths git tracks under `root`, or None without git or outside a repository."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--", "."],
            capture_output=True, timeout=GIT_TIMEOUT_SECONDS, env=env, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    names = proc.stdout.decode("utf-8", "surrogateescape").split("\0")
    return frozenset(name for name in names if name)


@lru_cache(maxsize=16)
def _tracked_at(root: Path, stamp: int) -> frozenset[str] | None:
    """`_list_tracked`, remembered per git index version (`stamp`: its mtime)."""
    return _list_tracked(root)


def tracked_files(root: Path) -> frozenset[str] | None:
    """What git tracks under `root` (None outside a repository); asked once per git index version."""
    for folder in (root, *root.parents):
        dot_git = folder / ".git"
        if dot_git.is_dir():
            try:
                return _tracked_at(root, (dot_git / "index").stat().st_mtime_ns)
            except OSError:
                return _list_tracked(root)  # a repository without an index yet
        if dot_git.exists():
            return _list_tracked(root)  # a worktree or submodule: its index lives elsewhere
    return None


def _read_patterns(path: Path) -> GitIgnoreSpec | None:
    try:
        if path.stat().st_size > MAX_IGNORE_FILE_BYTES:
            return None
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return GitIgnoreSpec.from_lines(lines)


@dataclass
class GitIgnore:
    """The ignore rules met while walking a project, innermost first, and what git tracks."""

    root: Path
    tracked: frozenset[str] | None
    specs: dict[str, GitIgnoreSpec] = field(default_factory=dict)  # folder ("" = root) -> its .gitignore
    tracked_folders: frozenset[str] = frozenset()

    @classmethod
    def of(cls, root: Path) -> GitIgnore:
        tracked = tracked_files(root)
        folders: set[str] = set()
        for name in tracked or ():
            parts = name.split("/")[:-1]
            folders.update("/".join(parts[: i + 1]) for i in range(len(parts)))
        found = cls(root, tracked, tracked_folders=frozenset(folders))
        exclude = _read_patterns(root / ".git" / "info" / "exclude")
        if exclude is not None:
            found.specs["\0exclude"] = exclude
        return found

    def enter(self, folder: str) -> None:
        """Read the `.gitignore` of a folder the walk enters (`folder`: root-relative, "" for the root)."""
        spec = _read_patterns(self.root / folder / ".gitignore")
        if spec is not None:
            self.specs[folder] = spec

    def _decision(self, relpath: str, is_folder: bool) -> bool:
        """Whether the ignore files exclude `relpath` (deepest `.gitignore` first)."""
        candidates = sorted((f for f in self.specs if not f.startswith("\0")), key=len, reverse=True)
        for folder in [*candidates, "\0exclude"]:
            spec = self.specs.get(folder)
            if spec is None:
                continue
            if folder.startswith("\0") or folder == "":
                local = relpath
            elif relpath.startswith(folder + "/"):
                local = relpath[len(folder) + 1:]
            else:
                continue
            result = spec.check_file(local + ("/" if is_folder else ""))
            if result.include is not None:
                return bool(result.include)
        return False

    def skips_folder(self, relpath: str) -> bool:
        """A folder is skipped when ignored and git tracks nothing below it."""
        return relpath not in self.tracked_folders and self._decision(relpath, True)

    def skips_file(self, relpath: str) -> bool:
        """A file is skipped when ignored and not tracked."""
        return not (self.tracked is not None and relpath in self.tracked) and self._decision(relpath, False)
