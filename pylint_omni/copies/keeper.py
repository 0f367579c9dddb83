"""Which copy of a group to keep: the one the others would reuse.

In order: a copy outside platform, vendor and model-specific paths (a neutral layer
importing from `kernels/cuda/` breaks on the other platforms) and outside experimental ones
(`experimental/`, `contrib/`: stable code must not depend on what may go without notice); the copy most other
modules already import by name (a function or class;
a method counts none, since importing its class is not reusing the method: a shared
utility function beats the methods pasted beside it); a copy in a module other modules import from (a library module, not a leaf
loaded by name from a registry or a config); a copy in a common place
(`common/`, `base`, `utils`, `layers/`...) before a neutral one, and both before one
under a platform, vendor or model-specific path (`platforms/npu/`, `_310p/`,
`ascend_attn.py`, `models/<name>`); the original before a copy named as derived from
it (`async`, `legacy`, `_old`...); then the shallowest path, then by name
(`groups.general_first`: the tool reads no history, but a module sorts before its
variants and a lower version before a higher one, the older first).
A method pasted into sibling classes belongs in the project base they share, when
most of that base's subclasses hold a copy (`shared_base`): the message names it
instead of "call it here".
"""

from __future__ import annotations

from typing import Callable, Iterable

from pylint_omni.copies.groups import Keep
from pylint_omni.copies.members import Member
from pylint_omni.index.class_graph import abstract_methods, class_graph
from pylint_omni.index.derived import Table
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.vocabulary import DEFAULT_VOCABULARY, Vocabulary

COMMON = frozenset({"common", "base", "bases", "utils", "util", "helpers", "layers", "core", "shared", "interface",
                    "interfaces", "abstract", "generic", "default"})
SPECIFIC_FOLDERS = frozenset({"models", "platforms", "model_zoo", "vendors"})  # each child is one model or vendor
UNSTABLE_FOLDERS = frozenset({"experimental", "contrib", "sandbox", "prototype", "prototypes", "incubator"})
DERIVED_WORDS = ("async", "legacy", "_old", "deprecated", "backup", "_copy",  # names of a copy made from another
                 "_mtp", "eagle", "draft")  # a draft model of speculative decoding reuses its target's code

_DESCENDANTS: Table[str, set[str]] = Table("copies.descendants")


def place(path: str, words: Vocabulary = DEFAULT_VOCABULARY) -> int:
    """0: a common place; 1: neutral; 2: under a platform (a part the vocabulary names), vendor, model-specific or
    experimental path."""
    parts = [p.removesuffix(".py") for p in path.split("/")]
    if any(part in UNSTABLE_FOLDERS for part in parts[:-1]):
        return 2  # stable code must not import from a package that may change or go without notice
    for position, part in enumerate(parts):
        if words.platform_part.search(part) and (position or len(parts) == 1):
            return 2  # the top package may be named after its vendor (`vllm_ascend`): every copy is there
        if part in SPECIFIC_FOLDERS and position + 1 < len(parts):
            child = parts[position + 1]
            if child not in COMMON and child != "__init__" and not child.startswith(("base_", "common_")):
                return 2
    if any(p in COMMON or p.startswith(("base_", "common_")) or p.endswith(("_utils", "_common", "_base")) for p in parts):
        return 0
    return 1


def _imported(index: ProjectIndex, paths: Iterable[str]) -> dict[str, set[str]]:
    """Dotted module (or name) -> the files among `paths` that import it or from it."""
    found: dict[str, set[str]] = {}
    for relpath in paths:
        for dotted in index.facts(relpath).get("imports", {}).values():
            parts = dotted.split(".")
            for end in range(1, len(parts) + 1):
                found.setdefault(".".join(parts[:end]), set()).add(relpath)
    return found


def preference(index: ProjectIndex, paths: Iterable[str]) -> Keep:
    """The ranks of a copy (smaller: keep it first), by the rules of the module docstring; `paths`: the production
    files, whose imports say which copy is shared already (the copy groups' cache follows their content)."""
    imported = _imported(index, paths)

    def ranks(member: Member) -> tuple[int, ...]:
        module = index.entries.get(member.path, {}).get("module", "")
        # The copy other modules already import by name is shared: keeping it changes the fewest files.
        if member.kind == "module":
            importers = len(imported.get(module, set()) - {member.path})
        elif member.kind in ("function", "class") and "." not in member.qual:
            importers = len(imported.get(f"{module}.{member.qual}", set()) - {member.path})
        else:
            importers = 0  # a method, a nested definition, a block
        shared = bool(imported.get(module, set()) - {member.path})
        derived = any(w in f"{member.path} {member.qual}".lower() for w in DERIVED_WORDS)
        where = place(member.path, index.settings.vocabulary)
        return int(where == 2), -importers, int(not shared), where, int(derived)

    return ranks


def shared_base(index: ProjectIndex, group: list[Member], other: Member) -> str | None:
    """The nearest project class all classes holding the group's copies derive from, when at least half of that
    class's subclasses hold a copy: where a method pasted into sibling classes belongs (neither sibling's copy can
    be called on the other's instances). A broader base (a mixin every model derives from) is no home for it."""
    if other.kind != "method" or any(m.kind != "method" for m in group):
        return None
    graph = class_graph(index)
    owners = {owner_of(index, m) for m in group}
    if any(owner not in graph.nodes for owner in owners):
        return None
    common = [base for base in graph.ancestors(next(iter(owners)))
              if all(base in graph.ancestors(owner) for owner in owners)]
    name = other.qual.rpartition(".")[2]
    for base in common:
        data = graph.nodes[base].definition.data
        if name in data.get("methods", []) or abstract_methods(data):
            return None  # the base declares it, or is an interface: each subclass implements its own
        below = _descendants(index, base)
        if len(below & owners) * 2 >= len(below):
            return base.rpartition(".")[2]
    return None


def _descendants(index: ProjectIndex, base: str) -> set[str]:
    memo = _DESCENDANTS.values(index)
    if base not in memo:
        graph = class_graph(index)
        memo[base] = {node for node in graph.nodes if base in graph.ancestors(node)}
    return memo[base]


def nearest_definer(index: ProjectIndex, member: Member) -> str | None:
    """The nearest project ancestor of a method copy's class defining the method: the one `super()` reaches, the one
    that runs if the copy is deleted."""
    if member.kind != "method":
        return None
    graph = class_graph(index)
    owner, name = owner_of(index, member), member.qual.rpartition(".")[2]
    if owner not in graph.nodes:
        return None
    return next((base for base in graph.ancestors(owner) if name in graph.nodes[base].definition.data.get("methods", [])),
                None)


def owner_of(index: ProjectIndex, member: Member) -> str:
    """The dotted class of a method copy (or of the method enclosing a block)."""
    return f"{index.entries.get(member.path, {}).get('module', '')}.{member.qual.rpartition('.')[0]}"


def inherited_copy(index: ProjectIndex, group: list[Member], member: Member, same: Callable[[Member], bool]
                   ) -> Member | None:
    """The copy of the group this method inherits, when `same` (identical to it) holds: the override can go."""
    definer = nearest_definer(index, member)
    found = next((m for m in group if m is not member and m.kind == "method" and owner_of(index, m) == definer
                  and m.qual.rpartition(".")[2] == member.qual.rpartition(".")[2]), None)
    return found if found is not None and same(found) else None
