"""Which version of an upstream package the project says it builds on, read from its own files.

A project built on vLLM pins it somewhere a person installs from: a requirements file
(`vllm==0.12.0`), `pyproject.toml` dependencies, a Dockerfile (`ARG VLLM_VERSION=v0.12.0`,
`VLLM_TAG=v0.27.1`, `pip install vllm==...`) or a CI script. When the version indexed
(`omni-upstream-paths` or the installed package) is another one, every judgement made
against upstream (hooks, readers, copies of upstream code) may be wrong, and the
findings must say so. Comments are skipped (a commented-out pin is not a pin); docs
are not read (they show many versions); the version most files agree on wins, install
files before scripts. `packaging` normalises versions (`v0.12.0` and `0.12.0` are one).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from packaging.version import InvalidVersion, Version

from pylint_omni.index.discovery import read_text
from pylint_omni.index.scan.data_scan import InputProblem

# Files that install the project, strongest first; scripts only when none of these pins it.
INSTALL_FILES = ("requirements*.txt", "requirements/*.txt", "pyproject.toml", "setup.py", "setup.cfg",
                 "Dockerfile*", "docker/Dockerfile*", "*.Dockerfile")
SCRIPT_FILES = (".buildkite/**/*.sh", ".github/workflows/*.yml", ".github/workflows/*.yaml", "scripts/*.sh",
                "tools/*.sh", "*.sh")
MAX_PIN_FILES = 200
MAX_PIN_FILE_BYTES = 500_000
VERSION = r"v?(\d+(?:\.\d+){1,3}(?:(?:rc|a|b|\.post|\.dev)\d+)?)"


@dataclass(frozen=True)
class Pin:
    """A version of an upstream package one project file installs."""

    version: str
    path: str
    line: int

    def describe(self) -> str:
        return f"{self.version} ({self.path}:{self.line})"


def _patterns(name: str) -> list[re.Pattern[str]]:
    """`name==1.2.3`, `NAME_VERSION=1.2.3`, `NAME_TAG=v1.2.3`, `NAME_VERSION: "1.2.3"` (YAML env)."""
    upper = re.escape(name.upper().replace("-", "_"))
    return [
        re.compile(rf"(?<![\w.-]){re.escape(name)}\s*(?:\[[^\]]*\])?\s*===?\s*{VERSION}(?![\w.])", re.IGNORECASE),
        re.compile(rf"\b{upper}_(?:VERSION|TAG|REF|BRANCH)\s*[=:]\s*[\"']?{VERSION}[\"']?(?![\w.])"),
    ]


def _uncommented(line: str) -> str:
    """The line without a shell/TOML/requirements comment (a `#` at the start or after a space)."""
    return re.split(r"(?:^|\s)#", line, maxsplit=1)[0]


def _pins_in(root: Path, rel: str, patterns: list[re.Pattern[str]]) -> list[Pin]:
    try:
        text = read_text(root / rel, MAX_PIN_FILE_BYTES)
    except InputProblem:
        return []
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        code = _uncommented(line)
        for pattern in patterns:
            for match in pattern.finditer(code):
                found.append(Pin(match.group(1), rel, number))
    return found


def _files(root: Path, globs: tuple[str, ...]) -> list[str]:
    found: dict[str, None] = {}
    for glob in globs:
        for path in sorted(root.glob(glob)):
            if path.is_file() and not path.is_symlink():
                found[path.relative_to(root).as_posix()] = None
            if len(found) >= MAX_PIN_FILES:
                return list(found)
    return list(found)


def project_pins(root: Path, name: str) -> list[Pin]:
    """Every pin of `name` in the project's install files, else in its scripts (file order)."""
    patterns = _patterns(name)
    for globs in (INSTALL_FILES, SCRIPT_FILES):
        found = [pin for rel in _files(root, globs) for pin in _pins_in(root, rel, patterns)]
        if found:
            return found
    return []


def _normal(version: str) -> Version | None:
    try:
        return Version(version)
    except InvalidVersion:
        return None


def pinned_version(root: Path, name: str) -> Pin | None:
    """The version most of the project's pins of `name` agree on (the first such pin), or None."""
    pins = [(pin, _normal(pin.version)) for pin in project_pins(root, name)]
    counted = Counter(version for _, version in pins if version is not None)
    if not counted:
        return None
    wanted = counted.most_common(1)[0][0]
    return next(pin for pin, version in pins if version == wanted)


def version_mismatch(root: Path, name: str, indexed: str) -> str | None:
    """Why the indexed upstream may not be the one the project runs on (None: same version, or no pin found)."""
    pin = pinned_version(root, name)
    if pin is None:
        return None
    mine, theirs = _normal(pin.version), _normal(indexed)
    if mine is None or theirs is None or (mine.major, mine.minor) == (theirs.major, theirs.minor):
        return None
    return f"the project pins {name} {pin.describe()}, not the indexed {indexed}"
