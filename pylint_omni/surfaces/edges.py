"""What each surface uses: the edges of the reachability, read from the reference graph.

Each resolved reference of a file (`ReferenceGraph.resolutions`) is owned by the
innermost surface whose span holds its line (module-level code by the module;
decorators, which run when their container runs, by the container) and becomes:
- a use of a module, class or function surface;
- a use of a member `(class, name)` for `Cls.meth`, `self.meth`, `obj.meth` on a
  receiver of known class (the method that runs is found on the class's lineage);
- for an `import`, the execution of the imported module (an import is not a use
  of the imported name: a re-export consumes nothing);
- a store (`obj.x = v`) is no use, but for a property with a setter it runs the setter;
- for a call through a held object (`self.mask_builder.get_mask()`), a use of the
  member on every class the holder's lineage assigns to that attribute
  (`self.mask_builder = MaskBuilder310(...)` in a subclass's `__init__`): the base's
  call runs the subclass's object, duck-typed or not;
- strings that name code (qualnames in code, YAML, TOML, entry points) are uses too.
A mention of a surface's name that the graph did not resolve on that line — an
attribute on an object of unknown class, `getattr(x, "name")`, a string, a YAML
value — is a *name mention*: weaker, but a method named so may be the one called.
Not a mention: an attribute read off a module (`dist.barrier()` is torch's function),
a name bound by an import from outside the project (`from vllm.ops import l2norm_fwd`),
a word of prose in a docs line (only a name in backticks, after a dot or called), or a docs
mention of another package's name (`namesakes`).
Qualnames built over a module (`f"{_PROC}.{name}"`), attribute names built at run
time (`getattr(self, f"_on_{kind}")`) and computed imports with a known head
(`import_module(f"{__name__}.{name}")`, a walk over `__path__`) reach every surface
they can produce.
Files other than Python (YAML, TOML, docs) own their references as `file:<path>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Built
from pylint_omni.index.graph import ReferenceGraph
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.tokens import decode_hits
from pylint_omni.surfaces.lines import file_line, names_as_code
from pylint_omni.surfaces.namesakes import namesake_in_docs
from pylint_omni.surfaces.table import SURFACE_FACTS, SurfaceTable

SKIPPED_VIAS = frozenset({"hop", "store", "attr-store"})
STORE_VIAS = frozenset({"store", "attr-store"})  # `Cls.prop = v` (a code chain) and `obj.prop = v` (a known receiver)
# How an unresolved name is mentioned: attribute-like (may name a method) or a bare name (classes, functions).
ATTRIBUTE_VIAS = frozenset({"attr", "getattr", "str", "fstr", "resolver", "import_module", "yaml-key", "yaml-value", "json", "toml", "doc"})
BARE_VIAS = frozenset({"name"})

_EDGES: Built[Edges] = Built("surfaces.edges")
_NOTHING: frozenset[Any] = frozenset()  # a sealed owner's empty kind of use (`Edges.seal`)


@dataclass
class Outgoing:
    """What one surface (or non-Python file) uses."""

    nodes: set[str] = field(default_factory=set)
    members: set[tuple[str, str]] = field(default_factory=set)
    names: set[str] = field(default_factory=set)  # attribute-like mentions
    bare: set[str] = field(default_factory=set)  # bare-name mentions (never a method)
    prefixes: set[str] = field(default_factory=set)  # method-name prefixes built at run time
    patterns: set[tuple[str, str]] = field(default_factory=set)  # (module, qualname shape) built over a module
    module_prefixes: set[str] = field(default_factory=set)  # computed imports: any module starting so may load


_OUTGOING_FIELDS = tuple(f.name for f in fields(Outgoing))


@dataclass
class Edges:
    """Outgoing uses by owner (a surface's dotted name, or `file:<path>` for a non-Python file)."""

    out: dict[str, Outgoing] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # `file:<path>` owner -> relpath

    def of(self, owner: str) -> Outgoing:
        found = self.out.get(owner)
        if found is None:
            found = self.out[owner] = Outgoing()
        return found

    def seal(self) -> None:
        """After the build: every empty set becomes one shared empty frozenset. Most owners use few kinds of
        thing, and an empty set is 216 bytes: 17 MB of them on a 1,500-module project."""
        for out in self.out.values():
            for name in _OUTGOING_FIELDS:
                if not getattr(out, name):
                    setattr(out, name, _NOTHING)


def module_of(table: SurfaceTable, dotted: str) -> str | None:
    """The module surface that defines `dotted` (itself when it is a module)."""
    current = dotted
    while current:
        surface = table.surfaces.get(current)
        if surface is not None and surface.kind == "module":
            return current
        current = current.rpartition(".")[0]
    return None


class _FileReader:
    """Turns one file's resolved references and name tokens into edges."""

    def __init__(self, table: SurfaceTable, edges: Edges, names: frozenset[str], index: ProjectIndex, graph: ReferenceGraph) -> None:
        self.table = table
        self.graph = graph
        self.edges = edges
        self.names = names
        # Properties with a setter: assigning `obj.name = v` runs the setter, so a store is a use of them.
        self.setters = frozenset(s.name for s in table.surfaces.values() if s.kind in ("method", "shadowed")
                                 and f"{s.name}.setter" in s.decorators)
        self.index = index
        self._mapped: dict[tuple[str, bool], tuple[str, str, str] | None] = {}

    def names_code(self, rel: str, line: int, token: str) -> bool:
        """A docs line names `token` as code (in backticks, after a dot, or called), not as a word of prose:
        "the experts" or "create a connection" in a README is no use of `experts` or `create`."""
        return names_as_code(file_line(self.index, rel, line), token)

    def mapping(self, target: str, imported: bool) -> tuple[str, str, str] | None:
        """What one resolved target is, memoised: `("node", dotted, "")`, `("member", class, name)`, or None
        when it reaches no project surface or class member (an attribute of a function's result, of a
        third-party class: the name may still be ours). An import reaches the imported module."""
        key = (target, imported)
        if key in self._mapped:
            return self._mapped[key]
        found: tuple[str, str, str] | None = None
        surface = self.table.surfaces.get(target)
        if imported:
            module = module_of(self.table, target)
            found = ("node", module, "") if module is not None else None
        elif surface is not None:
            found = ("member", surface.container or "", surface.name) if surface.kind == "method" else ("node", target, "")
        else:
            parent, _, attr = target.rpartition(".")
            owner = self.table.surfaces.get(parent)
            if owner is not None and owner.kind == "class":
                found = ("member", parent, attr)
            elif owner is not None and owner.kind == "module":
                found = ("node", parent, "")  # `pkg.templates.dockerfile`: a module's variable read uses the module
        self._mapped[key] = found
        return found

    def target(self, out: Outgoing, target: str, via: str) -> bool:
        """Record one resolved reference in `out`; False when it reaches no project surface (`mapping`)."""
        found = self.mapping(target, via == "import")
        if found is None:
            return False
        if found[0] == "node":
            out.nodes.add(found[1])
        else:
            out.members.add((found[1], found[2]))
        return True

    def read(self, rel: str, refs: dict[str, str], tokens: dict[str, str], owners: list[str | None] | None,
             chains: dict[str, str]) -> None:
        resolved_tails: dict[int, set[str]] = {}
        for chain, encoded in chains.items():
            if chain.partition(".")[0] not in self.graph.tops:  # `from vllm.ops import l2norm_fwd`: theirs, not ours
                for line, _ in decode_hits(encoded):
                    resolved_tails.setdefault(line, set()).add(chain.rpartition(".")[2])
        file_owner = f"file:{rel}"
        if owners is None:
            self.edges.files[file_owner] = rel
        last = len(owners) - 1 if owners is not None else 0
        out_of = self.edges.of
        for target, encoded in refs.items():
            tail = target.rpartition(".")[2]
            plain = self.mapping(target, False)
            for item in encoded.split("|"):
                line_text, _, via = item.partition(",")
                found = self.mapping(target, True) if via == "import" else plain
                if found is None:
                    continue
                line = int(line_text)
                resolved_tails.setdefault(line, set()).add(tail)
                if via in SKIPPED_VIAS and not (via in STORE_VIAS and tail in self.setters):
                    continue
                owner = (owners[line if line <= last else last] or file_owner) if owners is not None else file_owner
                out = out_of(owner)
                if found[0] == "node":
                    out.nodes.add(found[1])
                else:
                    out.members.add((found[1], found[2]))
        for token, encoded in tokens.items():
            if token not in self.names:
                continue
            for line, via in decode_hits(encoded):
                if token in resolved_tails.get(line, ()):
                    continue
                if via == "doc" and (not self.names_code(rel, line, token) or namesake_in_docs(self.index, rel, line, token)):
                    continue  # a word of prose, or another package's name (`diffusers.PatchEmbed`)
                if via == "attr" and self.graph.module_member(rel, line, token):
                    continue  # `dist.barrier()`: a module's function of that name
                if via in ATTRIBUTE_VIAS or (via == "attr-store" and token in self.setters):
                    self.edges.of(self.owner_at(owners, line, file_owner, rel)).names.add(token)
                elif via in BARE_VIAS:
                    self.edges.of(self.owner_at(owners, line, file_owner, rel)).bare.add(token)

    def owner_at(self, owners: list[str | None] | None, line: int, file_owner: str, rel: str) -> str:
        if owners is None:
            self.edges.files[file_owner] = rel
            return file_owner
        owner = owners[line] if 0 <= line < len(owners) else owners[-1]
        return owner or file_owner


def build_edges(index: ProjectIndex, graph: ReferenceGraph, table: SurfaceTable) -> Edges:
    """The edges of every file of the index (memoised per index state)."""
    return _EDGES.of(index, lambda: _build_edges(index, graph, table))


def _build_edges(index: ProjectIndex, graph: ReferenceGraph, table: SurfaceTable) -> Edges:
    edges = Edges()
    reader = _FileReader(table, edges, frozenset(table.by_name) | frozenset(table.methods_by_name), index, graph)
    held: list[tuple[str, str, str, str]] = []  # (owner, holder class, attribute, member name)
    assigned: dict[str, dict[str, list[str]]] = {}  # class -> attribute -> class chains assigned to it
    for rel, entry in index.entries.items():
        if entry.get("problem"):
            continue
        facts = entry.get("facts", {})
        resolved = graph.resolutions.get(rel, {})
        owners = None
        if rel in table.module_of_path:
            extra = facts.get("extra", {}).get(SURFACE_FACTS) or {}
            owners = table.owners(rel, int(extra.get("lines") or 1))
            for prefix, line in extra.get("attr_prefixes", []):
                edges.of(reader.owner_at(owners, line, "", rel)).prefixes.add(prefix)
            for line, prefix in extra.get("dyn_imports", []):
                if prefix:
                    edges.of(reader.owner_at(owners, line, "", rel)).module_prefixes.add(prefix)
            for module, line in extra.get("enumerated", []):  # every top-level member is reached by its name
                edges.of(reader.owner_at(owners, line, "", rel)).patterns.add((module, f"{module}.*"))
            for target, line in extra.get("entry_specs", []):
                found = graph.resolve(target.replace(":", "."))
                if found.kind != "external":
                    reader.target(edges.of(reader.owner_at(owners, line, "", rel)), found.dotted, "str")
        for module, shape, line in resolved.get("patterns", []):
            edges.of(reader.owner_at(owners, line, f"file:{rel}", rel)).patterns.add((module, shape))
        links = facts.get("links") or {}
        reader.read(rel, resolved.get("refs", {}), facts.get("refs", {}), owners, links.get("chains", {}))
        assigned.update(links.get("held_types", {}))
        for key, encoded in links.get("held", {}).items():
            holder, attr, name = key.split("|")
            held.extend((reader.owner_at(owners, line, f"file:{rel}", rel), holder, attr, name) for line, _ in decode_hits(encoded))
    _held_members(index, graph, table, edges, held, assigned)
    edges.seal()
    return edges


def _held_members(index: ProjectIndex, graph: ReferenceGraph, table: SurfaceTable, edges: Edges,
                  held: list[tuple[str, str, str, str]], assigned: dict[str, dict[str, list[str]]]) -> None:
    """Calls through a held object use the member on each class the holder's lineage assigns to the attribute."""
    classes = class_graph(index)
    known: dict[str, str | None] = {}

    def project_class(chain: str) -> str | None:
        if chain not in known:
            found = graph.resolve(chain)
            known[chain] = found.dotted if table.surfaces.get(found.dotted, None) and table.surfaces[found.dotted].kind == "class" else None
        return known[chain]

    for owner, holder, attr, name in held:
        holder = project_class(holder) or holder
        related = [holder, *classes.ancestors(holder), *classes.descendants(holder)] if holder in classes.nodes else [holder]
        for value in {v for c in related for v in assigned.get(c, {}).get(attr, ())}:
            target = project_class(value)
            if target is not None:
                edges.of(owner).members.add((target, name))


def pattern_targets(table: SurfaceTable, module: str, shape: str) -> list[str]:
    """Surfaces under `module` a built qualname of that shape can name: each hole is one name
    (`pkg.models.*.*` names modules two levels down and the top-level definitions of `pkg.models.*`)."""
    wanted = re.compile("^" + "[^.]*".join(re.escape(part) for part in shape.replace(":", ".").split("*")) + "$")
    return [d for d in [module, *table.contained(module)] if wanted.match(d)]
