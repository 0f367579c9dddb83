"""Who acts on a finding: the owning contract's `owners`, else the project's CODEOWNERS.

CODEOWNERS is read as GitHub reads it: the first of `.github/CODEOWNERS`,
`CODEOWNERS` and `docs/CODEOWNERS` that exists; each line is a gitignore-style
pattern followed by owners; the last matching line wins, and a matching line with
no owners leaves the path unowned. Patterns are matched with `pathspec`'s
gitignore (gitwildmatch) patterns, as git does. The file is read from disk once per version (it is not
an input of the index); an unreadable one means no owners, never a failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pathspec

from pylint_omni.evidence.contracts import contracts_of
from pylint_omni.index.project_index import ProjectIndex

CODEOWNERS_PLACES = (".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS")


@dataclass(frozen=True)
class OwnerRule:
    pattern: str
    spec: pathspec.PathSpec
    owners: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class CodeOwners:
    path: str  # root-relative, e.g. ".github/CODEOWNERS"
    rules: tuple[OwnerRule, ...]

    def owners_of(self, relpath: str) -> tuple[tuple[str, ...], OwnerRule | None]:
        """(owners, the rule that decided) for a root-relative path; last match wins."""
        for rule in reversed(self.rules):
            if rule.spec.match_file(relpath):
                return rule.owners, rule
        return (), None


def parse_codeowners(text: str, path: str) -> CodeOwners:
    rules = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        pattern, *owners = line.split()
        try:
            spec = pathspec.PathSpec.from_lines("gitignore", [pattern])
        except ValueError:
            continue  # GitHub skips a line it cannot parse, and so do we
        rules.append(OwnerRule(pattern, spec, tuple(owners), number))
    return CodeOwners(path, tuple(rules))


@lru_cache(maxsize=16)
def _read_codeowners(file: Path, stamp: int, relpath: str) -> CodeOwners | None:
    try:
        return parse_codeowners(file.read_text(encoding="utf-8"), relpath)
    except (OSError, UnicodeDecodeError):
        return None


def codeowners_of(root: Path) -> CodeOwners | None:
    """The project's CODEOWNERS (re-read when it changes), or None."""
    for place in CODEOWNERS_PLACES:
        file = root / place
        try:
            stamp = file.stat().st_mtime_ns
        except OSError:
            continue
        return _read_codeowners(file, stamp, place)
    return None


def owners_of(index: ProjectIndex, relpath: str) -> tuple[list[str], str]:
    """(owners, where they come from) of a path: the contract's `owners`, else CODEOWNERS."""
    owner = contracts_of(index).owner_of(relpath)
    if owner is not None and owner[0].owners:
        return list(owner[0].owners), f"design contract {owner[0].path}"
    codeowners = codeowners_of(index.root)
    if codeowners is not None:
        found, rule = codeowners.owners_of(relpath)
        if rule is not None and found:
            return list(found), f"{codeowners.path}:{rule.line} ({rule.pattern})"
    return [], ""
