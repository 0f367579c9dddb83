"""`UpstreamIndex`: which upstream packages a project builds on, and questions across them.

A package is indexed when the project imports it (production or not) and it is
listed in `omni-upstream-packages` or found in an `omni-upstream-paths` folder.
One listed, imported but not found is an unknown: findings that depend on it
say so and stay medium at most. Indexes live for the process (a long-lived
editor process asks once per package and version).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from pylint_omni.index import cache
from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream.locate import Located, locate, names_in_paths
from pylint_omni.index.upstream.package import UpstreamClass, UpstreamPackage, UpstreamRef
from pylint_omni.index.upstream.pins import version_mismatch


@dataclass
class UpstreamIndex:
    """The upstream packages of one project, loaded on demand."""

    wanted: list[str]
    missing: list[str]
    found: dict[str, UpstreamPackage] = field(default_factory=dict)

    def packages(self) -> Iterator[UpstreamPackage]:
        yield from self.found.values()

    def package(self, name: str) -> UpstreamPackage | None:
        return self.found.get(name)

    def unknowns(self) -> list[str]:
        """One sentence per package the project imports that could not be indexed."""
        return [
            f"upstream {name} is imported but not installed where pylint runs (nor in omni-upstream-paths): "
            "what it reads or calls is unknown"
            for name in self.missing
        ]

    def owning(self, dotted: str) -> UpstreamPackage | None:
        return self.found.get(dotted.partition(".")[0])

    def classes_named(self, name: str) -> list[tuple[UpstreamPackage, UpstreamClass]]:
        return [(p, c) for p in self.packages() for c in p.classes_named(name)]

    def canonical(self, dotted: str) -> str:
        package = self.owning(dotted)
        return package.canonical(dotted) if package is not None else dotted

    def ancestors(self, dotted: str) -> list[str]:
        """Indexed upstream classes `dotted` descends from, itself first (empty when not indexed)."""
        package = self.owning(dotted)
        if package is None:
            return []
        found = package.ancestors(dotted)
        for base in list(found):
            other = self.owning(base)
            if other is not None and other is not package:
                found += [a for a in other.ancestors(base) if a not in found]
        return found

    def attribute_uses(self, owners: list[str], attr: str) -> list[UpstreamRef]:
        """Uses of `attr` on objects of any of the `owners` classes, across indexed packages."""
        found: list[UpstreamRef] = []
        for package in self.packages():
            for owner in owners:
                found += package.attribute_uses(owner, attr)
        return found

    def reading_attribute(self, name: str) -> UpstreamPackage | None:
        """The first indexed package that reads `name` as an attribute of some object (duck typing), else None."""
        return next((p for p in self.packages() if name in p.attribute_names()), None)

    def op_uses(self, namespace: str, name: str) -> list[UpstreamRef]:
        return [ref for package in self.packages() for ref in package.op_uses(namespace, name)]

    def reads(self, name: str) -> UpstreamRef | None:
        """The first place an indexed package reads `.name` off any object (a name, not an owner: weak evidence)."""
        return next((ref for package in self.packages() if (ref := package.reads(name)) is not None), None)

    def defines(self, module: str, name: str) -> UpstreamRef | None:
        """Where the indexed package owning `module` binds `module.name` (None: not indexed, or not bound there)."""
        package = self.owning(module)
        return package.defines(module, name) if package is not None else None

    def accepts(self, name: str) -> UpstreamRef | None:
        """The first parameter or class-body field named `name` in an indexed package."""
        return next((ref for package in self.packages() if (ref := package.accepts(name)) is not None), None)


_LIVE: dict[tuple[tuple[str, ...], tuple[str, ...], bool, Path | None, frozenset[str], tuple[frozenset[str], ...]], UpstreamIndex] = {}
_PACKAGES: dict[tuple[Located, Path | None, frozenset[str]], UpstreamPackage] = {}


def _package(located: Located, cache_dir: Path | None, seeds: frozenset[str]) -> UpstreamPackage:
    """The one package object of a located version, cache folder and project imports in this process. Every
    project root of a run (a monorepo's applications, each with its own index) asks the same versions: one object
    loads each part once, where one per root held a copy of transformers' summary (some 60 MB) per root."""
    found = _PACKAGES.get((located, cache_dir, seeds))
    if found is None:
        found = _PACKAGES[(located, cache_dir, seeds)] = UpstreamPackage(located, cache_dir, seeds)
    return found


def imported_names(index: ProjectIndex, name: str) -> frozenset[str]:
    """Every dotted name of package `name` that a project file imports (`from transformers import LlamaModel`,
    `import vllm.v1.engine`) or reaches through an import (`eng.fast_path` after `import eng`): what the package's
    summary is built from (`upstream.build`)."""
    found: set[str] = set()
    for _, facts in index.python_files():
        links = facts.get("links") or {}
        named = [*facts.get("imports", {}).values(), *(d for d, _ in links.get("imported", [])), *links.get("chains", {})]
        found.update(d for d in named if d == name or d.startswith(name + "."))
    return frozenset(found)


def imported_packages(index: ProjectIndex, names: list[str]) -> set[str]:
    """The names the project imports (`import vllm`, `from vllm.x import y`)."""
    return {name for name in names if any(hit.via == "import" for hit in index.hits(name))}


def upstream_of(index: ProjectIndex) -> UpstreamIndex:
    """The upstream index of the project (once per process and configuration)."""
    return _UPSTREAM.of(index)


def _upstream(index: ProjectIndex) -> UpstreamIndex:
    settings = index.settings
    listed = list(dict.fromkeys([*settings.upstream_packages, *names_in_paths(settings.upstream_paths)]))
    imported = imported_packages(index, listed)
    project_tops = {module.partition(".")[0] for module in (e.get("module", "") for e in index.entries.values()) if module}
    wanted = [name for name in listed if name in imported and name not in project_tops]
    cache_dir = (settings.cache_dir or cache.default_cache_dir()) if settings.cache_enabled else None
    seeds = tuple(imported_names(index, name) for name in wanted)
    key = (tuple(wanted), settings.upstream_paths, settings.upstream_installed, cache_dir, frozenset(imported), seeds)
    upstream = _LIVE.get(key)
    if upstream is None:
        missing: list[str] = []
        packages: dict[str, UpstreamPackage] = {}
        for name, imports in zip(wanted, seeds):
            located = locate(name, settings.upstream_paths, settings.upstream_installed)
            if located is None:
                missing.append(name)
            else:
                packages[name] = _package(located, Path(cache_dir) if cache_dir else None, imports)
        upstream = _LIVE[key] = UpstreamIndex(wanted, missing, packages)
    return upstream


_UPSTREAM: Derived[UpstreamIndex] = Derived("upstream.index", _upstream)


def build_upstream(index: ProjectIndex) -> None:
    """Every upstream package of the project built into the cache, when it is not there yet: registered to run in a
    cold run's child beside pylint's own tree building (`plugin.register_scanners`), where the main process would
    otherwise build each package after that build, on the first question; it then reads the parts, or waits for the
    one the child is building (`UpstreamPackage._part`)."""
    for package in upstream_of(index).packages():
        package.summary()


STALE_IMPORTS = 5  # project imports of upstream names the indexed version lacks, before it counts as another version


def version_doubts(index: ProjectIndex) -> dict[str, str]:
    """Package -> why the indexed version may not be the one the project runs on (memoised per index state).

    Either the project pins another version in its install files (`pins`), or its
    production code imports at least `STALE_IMPORTS` names the indexed version does not
    define: newer hooks may call what the indexed version never does, and code copied
    from upstream may match the version the project runs on, not this one.
    """
    return _VERSION_DOUBTS.of(index)


def _version_doubts(index: ProjectIndex) -> dict[str, str]:
    found: dict[str, str] = {}
    upstream = upstream_of(index)
    packages = {p.name: p for p in upstream.packages()}
    missing: dict[str, set[str]] = {}
    for rel, facts in index.python_files():
        if index.location(rel) is not Location.PRODUCTION:
            continue
        for dotted in facts.get("imports", {}).values():
            top = dotted.partition(".")[0]
            module, _, name = dotted.rpartition(".")
            if top in packages and module and upstream.defines(module, name) is None:
                missing.setdefault(top, set()).add(dotted)
    for name, package in packages.items():
        pinned = version_mismatch(index.root, name, package.version)
        if pinned:
            found[name] = pinned
        elif len(missing.get(name, ())) >= STALE_IMPORTS:
            names = sorted(missing[name])
            found[name] = (f"the project imports {len(names)} names {name} {package.version} does not define "
                           f"(e.g. {names[0]}), so it runs on another version")
    return found


_VERSION_DOUBTS: Derived[dict[str, str]] = Derived("upstream.version_doubts", _version_doubts)
