"""What the project supports: the oldest Python and dependency versions it can run on, and its hard imports.

`Support` answers three questions for the checker, each with the declaration that
decides it and a confidence:
- `floor(dist)`: the oldest allowed version of a distribution. Project declarations
  first (`requirements.txt`, `pyproject.toml`, `setup.py`, `setup.cfg`; the lowest
  lower bound among them, since every declaration must make a branch dead); a
  declaration without any version says nothing. Else the runtime metadata (medium):
  the version of an undeclared distribution (the dist-info beside an upstream package
  found in `omni-upstream-paths`, else the installed one),
  or the pin another distribution's `Requires-Dist` puts on it.
- `python_floor()`: the lower bound of `requires-python`.
- `guaranteed(module, names)`: importing it cannot fail on a supported install: a
  module of the project (whose own module-level imports cannot fail), a standard
  library module (and name) present since the Python floor, on every platform the
  project declares and in every build (`platforms`: `fcntl` is POSIX only), or a hard
  dependency's top-level package. Submodules and names of third-party packages may be newer
  than the floor, so they never count.
Only lower bounds decide: a branch for a version newer than the floor may be the
supported future, not the unsupported past.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from typing import Any

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from pylint_omni.compat.runtime import DistMetadata, RuntimeMetadata
from pylint_omni.compat.platforms import DeclaredPlatforms, declared_platforms, platform_doubt, platform_guarantee
from pylint_omni.compat.stdlib import name_added, stdlib_module_since
from pylint_omni.index.declarations import Declarations, declarations_of
from pylint_omni.index.floors import Floor, declared_floor, floor_of_specifiers
from pylint_omni.index.project_index import ProjectIndex

SCANNER_KEY = "compat.conditions"
MAX_IMPORT_DEPTH = 30  # project modules followed through imports before an import's safety is unknown


@dataclass(frozen=True)
class Guarantee:
    """Why an import cannot fail on a supported install."""

    reason: str
    confidence: str


class Support:
    """The supported environment of one project, for one run."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self.declarations: Declarations = declarations_of(index)
        self.runtime = RuntimeMetadata(index)
        self._floors: dict[str, Floor | None] = {}
        self._frameworks: list[DistMetadata] | None = None
        self._guaranteed: dict[tuple[str, tuple[str, ...] | None, str, bool], Guarantee | None] = {}
        self.platforms: DeclaredPlatforms | None = declared_platforms(self.declarations.classifiers)

    # -- floors ------------------------------------------------------------------------
    def python_floor(self) -> Floor | None:
        return declared_floor(list(self.declarations.python))

    def floor(self, dist: str) -> Floor | None:
        dist = canonicalize_name(dist)
        if dist not in self._floors:
            self._floors[dist] = declared_floor(self.declarations.runtime(dist)) or self._extras_floor(dist) or self._runtime_floor(dist)
        return self._floors[dist]

    def _extras_floor(self, dist: str) -> Floor | None:
        """The floor every extra (or marker-bound line) that installs `dist` declares: the code using it runs with
        one of them installed, but a hand-installed older `dist` is not bounded, so it is medium."""
        declared = self.declarations.of(dist)
        if not declared or any(not d.optional and not d.conditional for d in declared):
            return None  # a hard declaration without a lower bound leaves every older version possible
        found = declared_floor(declared)
        if found is None:
            return None
        return replace(found, confidence="medium",
                       note=f"{dist} is declared only by extras or environment markers; an older {dist} installed by hand is not bounded")

    def _runtime_floor(self, dist: str) -> Floor | None:
        declared = self.declarations.of(dist)
        head = f"{dist} is declared without a lower bound" if declared else f"{dist} is not declared by the project"
        own = self.runtime.of(dist)
        if own is not None:
            try:
                version = Version(own.version)
            except InvalidVersion:
                return None
            return Floor(version, True, True, f"{own.describe()}", "medium", f"{head}; the version is the installed one")
        lowest: Floor | None = None
        for framework in self.frameworks():
            for req in framework.hard_requirements():
                if canonicalize_name(req.name) != dist:
                    continue
                found = floor_of_specifiers(req.specifier)
                if found and (lowest is None or found[0] < lowest.version):
                    lowest = Floor(found[0], found[1], found[2], f"{framework.describe()} requires `{req}`", "medium", head)
        return lowest

    def frameworks(self) -> list[DistMetadata]:
        """Distributions whose own requirements bind the project: given metadata, installed hard dependencies
        and installed distributions the project imports without declaring them; never one it declares as an extra."""
        if self._frameworks is None:
            names = list(self.runtime.given)
            names += [d.name for d in self.declarations.deps if not d.optional and not d.conditional]
            names += self._imported_distributions()
            # A distribution the project declares only as an extra (`trl[vllm]`) binds who installs it, not the rest,
            # who may run an older torch: its pins are no floor.
            hard = {d.name for d in self.declarations.deps if not d.optional and not d.conditional}
            optional = {d.name for d in self.declarations.deps} - hard
            found = [self.runtime.of(n) for n in dict.fromkeys(names) if canonicalize_name(n) not in optional]
            self._frameworks = [m for m in found if m is not None]
        return self._frameworks

    def _imported_distributions(self) -> list[str]:
        heads: set[str] = set()
        for _, facts in self.index.python_files():
            heads.update(target.partition(".")[0] for target in facts.get("imports", {}).values())
        found = []
        for head in sorted(heads):
            if not head or self.index.module_file(head) is not None or head in sys.stdlib_module_names:
                continue
            found += [d for d in self.runtime.distributions_of(head) if self.runtime.of(d) is not None][:1]
        return found

    # -- hard imports ------------------------------------------------------------------
    def hard(self, dist: str) -> Guarantee | None:
        """Why `dist` is always installed with the project, or None."""
        declared = self.declarations.hard(dist)
        if declared:
            primary = [d for d in declared if d.primary]
            item = (primary or declared)[0]
            if primary:
                return Guarantee(f"{dist} is a hard dependency (`{item.text}`, {item.source})", "high")
            return Guarantee(f"{dist} is listed in {item.source} (`{item.text}`), which may list one device's or extra's requirements", "medium")
        if self.declarations.of(dist):
            return None  # an extra, or behind an environment marker
        given = self.runtime.given.get(canonicalize_name(dist))
        if given is not None:
            return Guarantee(f"{dist} is not declared; the project runs on {given.describe()} (omni-upstream-paths)", "medium")
        for framework in self.frameworks():
            for req in framework.hard_requirements():
                if canonicalize_name(req.name) == canonicalize_name(dist):
                    return Guarantee(f"{dist} is not declared by the project; {framework.describe()} requires `{req}`", "medium")
        return None

    def guaranteed(self, module: str, names: list[str] | None, importer: str = "", strict: bool = True) -> Guarantee | None:
        """Why `import module` / `from module import names` (written in `importer`) cannot fail, or None.

        `strict`: the import is the guarded one, so a standard-library name must be known
        to exist since the Python floor; inside a project module that is imported (not
        guarded), names the tables do not know are taken as old.
        """
        return self._guarded(module, names, importer, strict, 0)

    def _guarded(self, module: str, names: list[str] | None, importer: str, strict: bool, depth: int) -> Guarantee | None:
        key = (module, tuple(names) if names is not None else None, importer.rpartition(".")[0], strict)
        if key not in self._guaranteed:
            # An import cycle among project modules is as safe as the rest of the cycle.
            self._guaranteed[key] = Guarantee("an import cycle", "high")
            self._guaranteed[key] = self._guarantee(module, names, importer, strict, depth)
        return self._guaranteed[key]

    def _guarantee(self, module: str, names: list[str] | None, importer: str, strict: bool, depth: int) -> Guarantee | None:
        if not module or depth > MAX_IMPORT_DEPTH:
            return None
        if self.index.module_file(module) is not None:
            return self._project_module(module, names, importer, depth)
        if self.index.module_file(module.partition(".")[0]) is not None:
            return None  # a module of the project that is not there (a compiled extension, a removed file)
        since = stdlib_module_since(module)
        if since is not None:
            python = self.python_floor()
            if python is None or since > python.version or self.platform_doubt(module):
                return None
            for name in names or ():
                added = name_added(module, name, strict)
                if added is None or added > python.version:
                    return None
            what = module + (f" ({', '.join(names)})" if names else "")
            platform = platform_guarantee(module, self.platforms)  # says the declaration that decides it
            return Guarantee(platform or f"{what} is in the standard library of every Python the project allows ({python.source})",
                             python.confidence)
        if names is not None or "." in module:
            if strict:
                return None  # a submodule or a name of a third-party package may be newer than its floor
            module = module.partition(".")[0]
        for dist in self.runtime.distributions_of(module):
            found = self.hard(dist)
            if found is not None:
                return found
        return None

    def platform_doubt(self, module: str) -> str:
        """Why the standard-library `module` may be missing where the project runs ("" when it cannot be)."""
        return platform_doubt(module, self.platforms) if stdlib_module_since(module) is not None else ""

    def _project_module(self, module: str, names: list[str] | None, importer: str, depth: int) -> Guarantee | None:
        """A project module imports when its not-yet-imported packages, itself and its own imports do."""
        weakest: list[Guarantee] = []
        parts = module.split(".")
        loaded = importer.split(".")[:-1]  # the importer's packages are already imported
        for end in range(1, len(parts)):
            package = ".".join(parts[:end])
            if parts[:end] != loaded[:end] and self.index.module_file(package) is not None:
                found = self._module_imports(package, depth)
                if found is None:
                    return None
                weakest.append(found)
        found = self._module_imports(module, depth)
        if found is None:
            return None
        weakest.append(found)
        relpath = self.index.module_file(module)
        bound = set((self.index.extra(relpath, SCANNER_KEY) or {}).get("bound", [])) if relpath else set()
        for name in names or ():
            if name != "*" and name not in bound and self.index.module_file(f"{module}.{name}") is None:
                return None
            if self.index.module_file(f"{module}.{name}") is not None:
                sub = self._guarded(f"{module}.{name}", None, importer, False, depth + 1)
                if sub is None:
                    return None
                weakest.append(sub)
        medium = [g for g in weakest if g.confidence != "high"]
        if medium:
            return Guarantee(f"{module} is a project module; importing it needs {medium[0].reason}", "medium")
        return Guarantee(f"{module} is a project module whose own imports cannot fail", "high")

    def _module_imports(self, module: str, depth: int) -> Guarantee | None:
        """The module's own unconditional imports cannot fail (weakest reason), or None."""
        relpath = self.index.module_file(module)
        facts: dict[str, Any] = (self.index.extra(relpath, SCANNER_KEY) or {}) if relpath else {}
        if "imports" not in facts or facts.get("raises"):
            return None  # no facts (a file the scanner could not read), or the module raises ImportError itself
        weakest = Guarantee("", "high")
        for target, imported, *_ in facts.get("imports", []):
            found = self._guarded(target, imported, module, False, depth + 1)
            if found is None:
                return None
            if found.confidence != "high" and weakest.confidence == "high":
                weakest = found
        return weakest
