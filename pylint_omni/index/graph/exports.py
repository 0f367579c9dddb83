"""Export tables of modules, and the resolver that walks dotted paths through them.

A module's export table is what its top level binds (`scan.bindings`): classes,
functions, variables, imports and aliases (re-exports), the names `__all__` lists,
the names a lazy-export `__getattr__` serves, and `from x import *` sources.
`Resolver.resolve("pkg.mod.Name.attr")` finds the longest prefix that is a known
module, then follows each name through the tables — re-exports, module aliases,
submodules, lazy exports, star imports — to the definition it reaches.
Every module the walk consults (found or not) is noted, so that a cached
resolution can be reused while those modules' tables are unchanged.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

MAX_RESOLVE_HOPS = 12  # imports, aliases and lazy or star exports followed to resolve one dotted name
ABSENT = "-"


@dataclass(frozen=True)
class Target:
    """Where a dotted path leads.

    kind: `module`, `class`, `def`, `var` (a module-level variable), `member` (an
    attribute of a project class: method, class attribute or field), `attribute` (a
    name a module does not bind: served by `__getattr__`, set from outside, or
    missing), `external` (outside the project's modules).
    """

    dotted: str
    kind: str
    hops: tuple[str, ...] = ()  # re-exports and lazy exports passed on the way (`pkg.Name`)
    # what the other branches of a conditional re-export reach (`if nvtx: from .nvtx import mark` / `else: from
    # .base import mark`): which one runs depends on the machine, so a use of the name uses each of them
    alternatives: tuple[str, ...] = ()


@dataclass
class ModuleTable:
    """One module's export table."""

    bindings: dict[str, list[str]]
    lazy: dict[str, str]
    stars: list[str]
    digest: str
    alternatives: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, links: dict[str, Any], digest: str | None = None) -> "ModuleTable":
        """The table of a module's link facts (`digest`: a known digest of the same facts, skips hashing)."""
        bindings = links.get("bindings") or {}
        stars = bindings.get("*", [])
        if stars:
            bindings = {k: v for k, v in bindings.items() if k != "*"}
        lazy = links.get("lazy") or {}
        alternatives = links.get("alternatives") or {}
        if digest is None:
            text = json.dumps([bindings, lazy, stars, alternatives], sort_keys=True, separators=(",", ":"))
            digest = hashlib.sha1(text.encode()).hexdigest()[:12]
        return cls(bindings, lazy, list(stars), digest, alternatives)


@dataclass
class Resolver:
    """Resolves dotted paths against a set of module tables (a project's or an upstream package's)."""

    tables: dict[str, ModuleTable]
    consulted: dict[str, str] = field(default_factory=dict)  # module -> digest (ABSENT when probed and missing)

    def digest_of(self, module: str) -> str:
        table = self.tables.get(module)
        return table.digest if table is not None else ABSENT

    def _table(self, module: str) -> ModuleTable | None:
        table = self.tables.get(module)
        self.consulted[module] = table.digest if table is not None else ABSENT
        return table

    def module_prefix(self, parts: list[str]) -> int:
        """Length of the longest prefix of `parts` that names a known module (0: none)."""
        for size in range(len(parts), 0, -1):
            if self._table(".".join(parts[:size])) is not None:
                return size
        return 0

    def resolve(self, dotted: str) -> Target:
        """The target of a dotted path (`pkg.mod.Cls.meth`, `pkg.Name`)."""
        hops: list[str] = []
        alternatives: list[str] = []
        target = self._resolve(dotted, hops, 0, alternatives)
        if not hops and not alternatives:
            return target
        return Target(target.dotted, target.kind, tuple(hops), tuple(a for a in alternatives if a != target.dotted))

    def _resolve(self, dotted: str, hops: list[str], depth: int, alternatives: list[str] | None = None) -> Target:
        parts = dotted.split(".")
        size = self.module_prefix(parts)
        if size == 0:
            return Target(dotted, "external")
        if size == len(parts) > 1 and depth < MAX_RESOLVE_HOPS:
            # `pkg/__init__.py: from .rope import rope`: the package's attribute `rope` is the function, which
            # the import rebinds over the submodule (Python's own rule); `pkg.rope` is that function.
            parent = self._table(".".join(parts[:-1]))
            binding = parent.bindings.get(parts[-1]) if parent is not None else None
            if binding is not None and binding[0] in ("import", "alias") and binding[1] and binding[1] != dotted:
                return self._walk(".".join(parts[:-1]), parts[-1:], hops, depth, alternatives)
        return self._walk(".".join(parts[:size]), parts[size:], hops, depth, alternatives)

    def _walk(self, module: str, rest: list[str], hops: list[str], depth: int, alternatives: list[str] | None = None) -> Target:
        if not rest:
            return Target(module, "module")
        table = self._table(module)
        assert table is not None
        name, tail = rest[0], rest[1:]
        here = f"{module}.{name}"
        binding = table.bindings.get(name)
        if binding is None:
            if self._table(here) is not None:
                return self._walk(here, tail, hops, depth)
            if name in table.lazy and depth < MAX_RESOLVE_HOPS:
                hops.append(here)
                return self._resolve(".".join([table.lazy[name], *tail]), hops, depth + 1)
            for star in table.stars:
                if depth < MAX_RESOLVE_HOPS and self._table(star) is not None:
                    found = self._walk(star, rest, hops, depth + 1)
                    if found.kind != "attribute":
                        return found
            return Target(".".join([module, *rest]), "attribute")
        kind, target = binding
        if kind in ("import", "alias") and target and depth < MAX_RESOLVE_HOPS:
            if target == here:
                return Target(".".join([module, *rest]), "attribute")
            hops.append(here)
            if alternatives is not None:
                for other in table.alternatives.get(name, ()):
                    reached = self._resolve(".".join([other, *tail]), hops, depth + 1, alternatives)
                    if reached.kind != "external" and reached.dotted not in alternatives:
                        alternatives.append(reached.dotted)
            return self._resolve(".".join([target, *tail]), hops, depth + 1, alternatives)
        if kind == "class":
            if tail:
                return Target(f"{here}.{tail[0]}", "member")
            return Target(here, "class")
        if kind == "def":
            return Target(here, "def")
        return Target(here, "var")

    def canonical_class(self, dotted: str) -> str:
        """A class's defining path when `dotted` reaches a project class, else `dotted` itself."""
        target = self.resolve(dotted)
        return target.dotted if target.kind == "class" else dotted
