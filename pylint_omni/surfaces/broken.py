"""Modules that cannot be imported: a top-level import names a project module the tree no longer has.

DiffSynth-Studio's `models/sd_text_encoder.py` begins with `from .attention import Attention`;
`models/attention.py` went in a rewrite, so importing the module raises and nothing in it
can run or be used, whatever a library's public-module rule says. Only an import statement of
the module body itself counts (one under `try`, `if` or a function may be guarded), and only
one naming the importing module's own top package. A module the build writes (`_version.py` named
by `setuptools_scm`'s `write_to`, a compiled `_C` extension, a protobuf `pb/` folder) is named in a
build file: not missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex

BUILD_FILES = frozenset({"setup.py", "pyproject.toml", "setup.cfg", "CMakeLists.txt", "Makefile", "MANIFEST.in",
                         ".gitignore", "meson.build", "build.py", "hatch_build.py"})


@dataclass(frozen=True)
class BrokenImport:
    """The import statement that makes a module fail at import."""

    line: int
    missing: str  # the project module it names, which no file of the tree provides

    def describe(self) -> str:
        return f"line {self.line} imports {self.missing}, which the project does not have"


def _broken_imports(index: ProjectIndex) -> dict[str, BrokenImport]:
    python = dict(index.python_files())
    modules = {facts.get("module") or "" for facts in python.values()} - {""}
    packages = {m.rsplit(".", depth)[0] for m in modules for depth in range(1, m.count(".") + 1)}
    build = "\n".join(index.text(rel) or "" for rel in index.entries if rel.rpartition("/")[2] in BUILD_FILES)
    found: dict[str, BrokenImport] = {}
    for rel, facts in python.items():
        own = (facts.get("module") or "").partition(".")[0]
        # A package at the root (or under src/): one nested deeper (`extensions/thunder/`) may share its name with
        # an installed distribution that provides what it imports.
        if not own or not rel.startswith((f"{own}/", f"src/{own}/")) or index.location(rel) is not Location.PRODUCTION:
            continue
        for missing, line in facts.get("top_imports", []):
            # Only the module's own top package: `thunder.core` from `extensions/thunder/` is another distribution's.
            if missing in modules or missing in packages or missing.partition(".")[0] != own:
                continue
            parts = missing.split(".")
            first = next(parts[i] for i in range(1, len(parts)) if ".".join(parts[:i + 1]) not in packages)
            if re.search(rf"\b{re.escape(first)}\b", build):  # `--python_out=text_generation_server/pb`
                continue
            found[rel] = BrokenImport(line, missing)
            break
    return found


BROKEN: Derived[dict[str, BrokenImport]] = Derived("surfaces.broken_imports", _broken_imports)


def broken_import(index: ProjectIndex, relpath: str) -> BrokenImport | None:
    """The top-level import that makes this production module fail at import, if one does."""
    return BROKEN.of(index).get(relpath)
