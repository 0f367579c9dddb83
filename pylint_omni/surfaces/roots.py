"""Where the walk starts: production roots, validation roots, and names users outside may reach.

Production roots:
- configuration and packaging files (YAML, TOML, JSON, `setup.cfg`): every
  qualname, console script and entry point they name (their references);
- modules that run on their own: a top-level package (what users import), a
  module outside any package (a script), a module with an `if __name__ ==
  "__main__":` block, a `__main__` module;
- the public API of a top-level package: what its `__init__` imports, lazily
  exports or lists in `__all__` (a library's users call it);
- the targets of registry entries (`index.registries()`): registered code is
  judged, entry by entry, by `unused-registry-entry`;
- what a widely used framework loads by name (`evidence.frameworks`): pytest's
  `pytest_*` hooks in `conftest.py` and `pytest11` plugins, classes an `auto_map`
  names, Ray Serve deployments, Django `AppConfig` subclasses;
- modules run by their file path: a production file that calls a path loader
  (`spec_from_file_location`, `runpy.run_path`) and names the module's file
  (`"encoding_dsv4.py"`, a name no other module of the project has) makes the module
  and its public top-level definitions used (what the loader calls is not known);
- scripts of a support folder (`scripts/train.py`) that the docs, the README or a shell
  script run by their path (`surfaces.scripts`): the product's documented entry points;
- the extra roots the user declares (`omni-extra-roots`), as knip's `entry`: a
  list of path globs (`.gitignore` semantics, `!` excludes) makes every definition
  of the matching files used (code outside loads them), a pattern of dotted names
  (`pkg.plugins.*`) the matching surfaces.
A *library* — its top-level packages export nothing, and it declares no console
script, entry point or `__main__` — is used by importing its modules: then every
public module (no `_` segment) and its public top-level classes and functions are
roots too (its public API), and only private names, methods and unreached private
modules are judged.
Validation roots: every surface of a validation file (tests, benchmarks, examples,
tools) and what docs and other validation files name. Archived design pages are
history, not roots.
Names a subpackage exports (its `__init__` imports them or lists them in `__all__`), or
a module that only re-exports names, may be used by outside code: such surfaces, and
the public methods of such classes, are candidates of medium confidence at most
(`capped`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from pylint_omni.evidence.contracts import contracts_of
from pylint_omni.evidence.frameworks import framework_roots
from pylint_omni.index.graph import ReferenceGraph
from pylint_omni.index.paths import Location, matches_any
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.vocabulary import PATH_LOADERS
from pylint_omni.surfaces.broken import broken_import
from pylint_omni.surfaces.edges import Edges
from pylint_omni.surfaces.scripts import documented_script_roots
from pylint_omni.surfaces.table import SURFACE_FACTS, SurfaceTable


@dataclass
class Roots:
    """The roots of both walks, and the surfaces outside users may reach."""

    production: list[tuple[str, str]] = field(default_factory=list)
    production_owners: list[str] = field(default_factory=list)
    validation: list[tuple[str, str]] = field(default_factory=list)
    validation_owners: list[str] = field(default_factory=list)
    capped: dict[str, str] = field(default_factory=dict)
    registered: dict[str, list[str]] = field(default_factory=dict)  # registry name -> the surfaces it registers


def _exports(index: ProjectIndex, graph: ReferenceGraph, table: SurfaceTable, module: str, rel: str) -> list[str]:
    """Surfaces a package's `__init__` exports: imports, aliases, lazy exports, `__all__` names and what its star
    imports bind."""
    links = index.facts(rel).get("links") or {}
    names = [n for n, binding in (links.get("bindings") or {}).items() if n != "*" and binding[0] in ("import", "alias")]
    names += list((links.get("lazy") or {}).keys()) + list(links.get("all") or [])
    found = []
    for name in dict.fromkeys(names):
        target = graph.resolve(f"{module}.{name}")
        if target.dotted in table.surfaces:
            found.append(target.dotted)
    for starred in (links.get("bindings") or {}).get("*", ()):  # `from .utils import *`: what `utils` exports
        found += [d for d in _star_names(index, table, starred) if d not in found]
    return found


def _star_names(index: ProjectIndex, table: SurfaceTable, module: str) -> list[str]:
    """The definitions `from module import *` binds: its `__all__`, else its public classes and functions."""
    rel = index.module_file(module)
    if rel is None:
        return []
    listed = (index.facts(rel).get("links") or {}).get("all")
    if listed:
        return [f"{module}.{name}" for name in listed if f"{module}.{name}" in table.surfaces]
    return [child for child in table.children.get(module, ()) if table.surfaces[child].kind in ("class", "function")
            and not table.surfaces[child].name.startswith("_")]


def _module_roots(index: ProjectIndex, graph: ReferenceGraph, table: SurfaceTable, roots: Roots) -> None:
    for rel, module in table.module_of_path.items():
        surface = table.surfaces.get(module)
        if surface is None or not surface.production:
            continue
        extra = index.extra(rel, SURFACE_FACTS) or {}
        why = None
        if module.rpartition(".")[2] == "__main__" or extra.get("main"):
            why = "runs as a script (__main__)"
        elif surface.container is None:
            why = "a top-level package users import" if rel.endswith("__init__.py") else "a module outside any package (a script)"
        if why is not None:
            roots.production.append((module, why))
        if rel.endswith("__init__.py") or _only_reexports(index, rel):
            exported = _exports(index, graph, table, module, rel)
            if surface.container is None:
                roots.production += [(d, f"public API of {module}") for d in exported]
                # A submodule the package exports as a module (`from model_navigator import package`: users call
                # `nav.package.set_verified(...)`): its public classes and functions are the API too.
                roots.production += [(d, f"public API of {module} (through {sub.rpartition('.')[2]})")
                                     for sub in exported if table.surfaces[sub].kind == "module"
                                     for d in _star_names(index, table, sub)]
            else:
                for dotted in exported:
                    roots.capped.setdefault(dotted, f"exported by {module}: code outside may import it")


def _only_reexports(index: ProjectIndex, rel: str) -> bool:
    """A module whose top level only imports names (`handlers.py`: `from .client import ImageHandle as
    ImageModelHandle`): an export table under a public name, as a package's `__init__` is."""
    return bool((index.facts(rel).get("links") or {}).get("only_imports"))


def _library_roots(index: ProjectIndex, table: SurfaceTable, roots: Roots) -> None:
    """A library without a curated API or a program entry: its public modules are its API."""
    program = ("runs as a script (__main__)", "public API of ")
    if any(why.startswith(program) for _, why in roots.production) or _declares_entry(index, table):
        return
    for module in table.module_of_path.values():
        surface = table.surfaces[module]
        if not surface.production or any(part.startswith("_") and part != "__init__" for part in module.split(".")):
            continue
        if broken_import(index, surface.path):
            continue  # users cannot import it either
        roots.production.append((module, "a public module of a library (no curated exports, no entry points)"))
        for child in table.children.get(module, ()):
            if table.surfaces[child].kind in ("class", "function") and not table.surfaces[child].name.startswith("_"):
                roots.production.append((child, f"public API of the library module {module}"))


def _declares_entry(index: ProjectIndex, table: SurfaceTable) -> bool:
    """Console scripts or entry points (pyproject, setup.py strings) name code of the project."""
    for rel, entry in index.entries.items():
        if entry.get("kind") == "toml" and entry.get("facts", {}).get("entry_points"):
            return True
        if rel in table.module_of_path and (index.extra(rel, SURFACE_FACTS) or {}).get("entry_specs"):
            return True
    return False


def _registry_roots(index: ProjectIndex, graph: ReferenceGraph, table: SurfaceTable, roots: Roots) -> None:
    for rel, registry in index.registries():
        if index.location(rel) is not Location.PRODUCTION:
            continue
        for entry in registry["entries"]:
            target = entry.get("target")
            if not target:
                continue
            definition = index.resolve_target(target, entry.get("suffix", False))
            dotted = definition.dotted if definition is not None else graph.resolve(target.replace(":", ".")).dotted
            if dotted in table.surfaces:
                roots.production.append((dotted, f"registered in {registry['name']} ({rel}:{entry['line']}); judged by unused-registry-entry"))
                roots.registered.setdefault(f"{rel}:{registry['name']}", []).append(dotted)


def _path_loaded_roots(index: ProjectIndex, table: SurfaceTable, roots: Roots) -> None:
    """Modules a production file runs by their path: it calls a path loader and names the module's file."""
    loaders = {hit.path for name in PATH_LOADERS for hit in index.hits(name) if index.location(hit.path) is Location.PRODUCTION}
    if not loaders:
        return
    by_file: dict[str, list[str]] = {}
    for rel, module in table.module_of_path.items():
        if not rel.endswith("__init__.py"):
            by_file.setdefault(rel.rpartition("/")[2], []).append(module)
    for loader in sorted(loaders):
        for token, mentions in index.file_occurrences(loader):
            named = by_file.get(token, ())
            if len(named) != 1 or not any(via == "str" for _, via in mentions):
                continue  # `"utils.py"` names no one module of the project
            for module in named:
                line = next(line for line, via in mentions if via == "str")
                why = f"run by its file path ({loader}:{line} names {token})"
                roots.production.append((module, why))
                roots.production += [(child, why) for child in table.children.get(module, ())  # its public API
                                     if table.surfaces[child].kind in ("class", "function")
                                     and not table.surfaces[child].name.startswith("_")]


def _extra_roots(index: ProjectIndex, table: SurfaceTable, roots: Roots) -> None:
    patterns = index.settings.extra_roots
    by_path = tuple(p for p in patterns if "/" in p or p.endswith(".py"))
    by_name = [p for p in patterns if p not in by_path]
    if not patterns:
        return
    for dotted, surface in table.surfaces.items():
        if by_path and matches_any(surface.path, by_path):
            roots.production.append((dotted, f"an extra root (omni-extra-roots: {', '.join(by_path)})"))
            continue
        pattern = next((p for p in by_name if fnmatchcase(dotted, p)), None)
        if pattern is not None:
            roots.production.append((dotted, f"an extra root (omni-extra-roots: {pattern})"))


def find_roots(index: ProjectIndex, graph: ReferenceGraph, table: SurfaceTable, edges: Edges) -> Roots:
    """Both walks' roots (see the module docstring)."""
    roots = Roots()
    history = contracts_of(index).history
    for owner, rel in edges.files.items():
        if rel in history:
            continue
        production = index.location(rel) is Location.PRODUCTION and index.entries[rel].get("kind") != "doc"
        (roots.production_owners if production else roots.validation_owners).append(owner)
    _module_roots(index, graph, table, roots)
    _library_roots(index, table, roots)
    _registry_roots(index, graph, table, roots)
    # A test's conftest hooks are validation roots already: every surface of a validation file is one.
    roots.production += [(dotted, why) for dotted, why in framework_roots(index)
                         if dotted in table.surfaces and table.surfaces[dotted].production]
    _path_loaded_roots(index, table, roots)
    _extra_roots(index, table, roots)
    roots.production += documented_script_roots(index, table)
    roots.validation = [(d, "validation code") for d, s in table.surfaces.items() if not s.production]
    return roots
