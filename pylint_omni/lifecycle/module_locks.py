"""Module-level locks that make no one wait: `_lock = asyncio.Lock()` (or `threading.Lock()`) at module scope.

The same two shapes as a class's locks (`idle`), read over every place that can reach a module global: the
module's own code, and the project files that import the lock by name (`from mod import _lock`), each parsed
(never imported) to read its uses.
- **untaken**: no code loads the name again: dropping it changes nothing.
- **await-free**: an `asyncio` lock whose every use is `async with LOCK:` over a block that cannot suspend.
A name rebound later (`global _lock; _lock = asyncio.Lock()` per loop), named by a string (`__all__`,
`getattr`), or reached as an attribute of its imported module (`mod._lock`) is not judged. A public one is
medium: code outside the repository may import it.
"""

from __future__ import annotations

import astroid
from astroid import nodes

from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.lifecycle.idle import LOCK_FACTORIES, Idle, suspends, taking_block
from pylint_omni.lifecycle.locks import library
from pylint_omni.lifecycle.mechanisms import Mechanism, named_in_string

PUBLIC_DOUBT = "public: code outside the repository may import it"


def _created_locks(module: nodes.Module) -> list[tuple[str, nodes.Assign]]:
    """`NAME = <lock factory>()` statements at module scope."""
    found = []
    for statement in module.body:
        if (isinstance(statement, nodes.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], nodes.AssignName) and isinstance(statement.value, nodes.Call)):
            func = statement.value.func
            factory = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", "")
            if factory in LOCK_FACTORIES:
                found.append((statement.targets[0].name, statement))
    return found


def _loads(tree: nodes.Module, name: str, created: nodes.Assign | None) -> list[nodes.Name] | None:
    """Every load of the global `name` in a module (None: the name is rebound or named by a string there)."""
    own = created.targets[0] if created is not None else None
    if any(node.name == name and node is not own for node in tree.nodes_of_class(nodes.AssignName)):
        return None
    if named_in_string(tree, name):
        return None
    return [node for node in tree.nodes_of_class(nodes.Name)
            if node.name == name and not (created is not None and created.parent_of(node)) and not _shadowed(node, name)]


def _shadowed(node: nodes.Name, name: str) -> bool:
    """A function's own local or parameter of that name is not the global."""
    scope = node.scope()
    return not isinstance(scope, nodes.Module) and name in scope.locals


def _importers(index: ProjectIndex, relpath: str, module: str, name: str) -> list[tuple[str, list[str]]] | None:
    """(path, local names bound to the lock) of each other project file that imports it; None when one reaches it
    some other way (`mod.name` through its imported module, a string naming it)."""
    dotted = f"{module}.{name}"
    found = []
    for rel, facts in index.python_files():
        if rel == relpath:
            continue
        imports: dict[str, str] = facts.get("imports", {})
        local = [alias for alias, target in imports.items() if target == dotted]
        if not local and (dotted in (facts.get("links") or {}).get("chains", {}) or dotted in (facts.get("refs") or {})):
            return None  # `mod.name` (chains are resolved) or a string naming it: reached another way
        if local and rel.endswith("__init__.py"):
            return None  # re-exported by a package: its importers are not found by this name
        if local:
            found.append((rel, local))
    return found


def _sections(uses: list[tuple[nodes.Name, str]]) -> list[str] | None:
    """The functions whose `async with` blocks take the lock (each named with its module's prefix, "" for the
    lock's own), when every use is one and none can suspend."""
    sections = []
    for use, prefix in uses:
        block = taking_block(use)
        if block is None or suspends(block):
            return None
        sections.append(f"{prefix}{block.frame().name}")
    return sections


def _uses_elsewhere(index: ProjectIndex, importers: list[tuple[str, list[str]]]) -> list[tuple[nodes.Name, str]] | None:
    """The loads of the lock in the files that import it, each parsed (None: one cannot be read or rebinds it)."""
    found: list[tuple[nodes.Name, str]] = []
    for rel, local_names in importers:
        text = index.text(rel)
        if text is None:
            return None
        try:
            tree = astroid.parse(text, module_name=index.entries.get(rel, {}).get("module", ""), path=rel)
        except (astroid.AstroidSyntaxError, ValueError, RecursionError):
            return None
        prefix = rel.rpartition("/")[2].removesuffix(".py") + "."
        for local in local_names:
            theirs = _loads(tree, local, None)
            if theirs is None:
                return None
            found.extend((use, prefix) for use in theirs)
    return found


def idle_module_locks(module: nodes.Module, index: ProjectIndex, relpath: str) -> list[Idle]:
    """The module's global locks that never make anyone wait (see the module docstring)."""
    found = []
    module_name = index.entries.get(relpath, {}).get("module", "") or module.name
    for name, created in _created_locks(module):
        own = _loads(module, name, created)
        importers = _importers(index, relpath, module_name, name) if own is not None else None
        elsewhere = _uses_elsewhere(index, importers) if importers is not None else None
        if own is None or elsewhere is None:
            continue
        uses = [*((use, "") for use in own), *elsewhere]
        mechanism = Mechanism(name, "lock", created, ())
        doubt = "" if name.startswith("_") else PUBLIC_DOUBT
        if not uses:
            found.append(Idle(mechanism, "untaken", (), 1, doubt))
            continue
        sections = _sections(uses) if library(mechanism) == "asyncio" else None
        if sections is not None:
            found.append(Idle(mechanism, "await-free", tuple(sorted(set(sections))), 1 + len(sections), doubt))
    return found
