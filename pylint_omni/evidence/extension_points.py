"""Open extension mechanisms: ways an abstraction gets implementations the index cannot count.

`open_mechanisms(index, named)` asks every finder about an abstraction (`named[0]`)
and the classes of its family (its implementation, the chain between). Each answer
is a `Found`: *resolved* (the reference graph, the upstream index or the external
roots prove the path: the finding is rejected, naming it) or not (a name-only
mention: the finding stays a candidate, medium, naming it). Resolved:
- a string names the class or loads its module: a dotted path in code, deploy
  YAML/JSON/TOML, a resolver or `import_module` argument, `getattr(module, "Name")`,
  a qualname pattern built over its module (`f"{_PKG}.{name}"`);
- a `*_cls` slot or a registry with a read path picks it (`class_flows`);
- an entry-point group names it, or a module of its package loads plugins
  (`entry_points(group=...)`, `load_*plugins`) and uses the family;
- `__subclasses__()` on it or an ancestor (the call resolves to one of them);
- an active design contract or user documentation names it as an extension point
  (by dotted path, or by a name no other project or upstream class has);
- an upstream base whose hooks are exactly its abstract methods, or it is
  assigned over an upstream name (the upstream index);
- parallel hardware backends: it sits among vendor folders or modules, or its
  implementation is one vendor's code beside another vendor's;
- an out-of-tree consumer (`omni-external-roots`) names it.
Unresolved too: a type contract other modules check (`isinstance(x, Base)`) or declare
(a field typed with the base): implementations may be handed in from outside.
A same-named key or parameter elsewhere, the surface's own registration, or a test
subclass is never evidence (`abstractions` counts test doubles apart).
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from pylint_omni.evidence.class_flows import Found, class_slots, registered, subclass_hook_table
from pylint_omni.evidence.consumers import external_root_consumers
from pylint_omni.evidence.design_docs import doc_mentions
from pylint_omni.evidence.upstream_readers import upstream_kinds, upstream_readers
from pylint_omni.index.class_graph import ClassGraph, abstract_methods, class_graph
from pylint_omni.index.derived import Table
from pylint_omni.index.graph import ReferenceGraph, graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Definition, ProjectIndex
from pylint_omni.index.upstream import upstream_of
from pylint_omni.index.vocabulary import Vocabulary

__all__ = ["Found", "open_mechanisms", "loaded_by_string", "entry_point_groups", "hardware_backends"]

# How a resolved string reaches code (`graph.resolve`); documentation is judged apart.
STRING_VIAS = frozenset({"str", "fstr", "yaml-value", "yaml-key", "json", "toml", "resolver", "import_module", "getattr"})
# A bare class name counts (weakly) only in configuration and dynamic lookups: in Python
# strings it is most often a forward-reference annotation.
BARE_NAME_VIAS = frozenset({"yaml-value", "yaml-key", "json", "toml", "resolver", "import_module", "fstr", "getattr"})
PLUGIN_LOADER = re.compile(r"(^|_)entry_points$|^load_\w*plugins?\w*$|^load_plugins")
REGISTRY_DECORATOR = re.compile(r"regist|REGIST")
REGISTER_CALL = re.compile(r"^_?register\w*$|\w+_register$")

_VENDOR_CHILDREN: Table[str, list[tuple[str, str, str]]] = Table("evidence.vendor_children")


def _production(index: ProjectIndex, path: str) -> bool:
    return index.location(path) is not Location.VALIDATION


def loaded_by_string(index: ProjectIndex, graph: ReferenceGraph, named: list[Definition]) -> list[Found]:
    """Strings that resolve to a class of the family or to its module; bare names in config, weaker."""
    found: list[Found] = []
    for definition in named:
        for ref in graph.refs_to(definition.dotted):
            if ref.via in STRING_VIAS and _production(index, ref.path):
                return [Found(f"{definition.data['name']} is loaded by name at {ref.path}:{ref.line} ({ref.via})", True)]
    for module in dict.fromkeys(d.module for d in named):
        for ref in graph.refs_to(module):
            if ref.via not in STRING_VIAS or not _production(index, ref.path):
                continue
            # `pkg.mod.Other` in a string also reaches `pkg.mod`: only the module itself loads all of it.
            if not any(t.startswith(module + ".") for t in graph.targets_on_line(ref.path, ref.line)):
                return [Found(f"module {module} is loaded by name at {ref.path}:{ref.line} ({ref.via})", True)]
        for path, line, shape in graph.patterns_over(module):
            if _production(index, path):
                return [Found(f"names under {module} are loaded by the pattern '{shape}' at {path}:{line}", True)]
    for definition in named:
        hits = [h for h in graph.name_only(definition.data["name"], {definition.dotted})
                if h.via in BARE_NAME_VIAS and _production(index, h.path)]
        if hits:
            found.append(Found(f"the name {definition.data['name']} appears in {hits[0].path}:{hits[0].line} ({hits[0].via}), "
                               "which the index cannot resolve to it", False))
    return found


def entry_point_groups(index: ProjectIndex, graph: ReferenceGraph, named: list[Definition]) -> list[Found]:
    """Entry points naming the family; plugin loaders of its package that use the family."""
    for target in dict.fromkeys([*(d.dotted for d in named), *(d.module for d in named)]):
        for ref in graph.refs_to(target):
            if ref.via.startswith("entry-point:"):
                return [Found(f"entry-point group '{ref.via.partition(':')[2]}' names {target} ({ref.path}:{ref.line})", True)]
    family = {d.dotted for d in named}
    folder = named[0].path.rpartition("/")[0] + "/"
    found: list[Found] = []
    for path, resolved in graph.resolutions.items():
        if path.rpartition("/")[0] + "/" != folder or not _production(index, path):
            continue
        for callee, line, *_ in resolved.get("calls", ()):
            if not PLUGIN_LOADER.search(callee.rpartition(".")[2]):
                continue
            where = f"`{callee.rpartition('.')[2]}` ({path}:{line})"
            if family & set(resolved.get("refs", {})):
                return [Found(f"its package loads plugins through {where}, in a module that uses it", True)]
            found.append(Found(f"its package loads plugins through {where}", False))
    return found[:1]


def subclass_enumeration(index: ProjectIndex, graph: ReferenceGraph, classes: ClassGraph, base: Definition) -> list[Found]:
    """`__subclasses__()` called on the base or an ancestor (resolved on that line, or inside the base)."""
    lineage = {base.dotted, *classes.ancestors(base.dotted)}
    names = {classes.nodes[d].definition.data["name"] for d in lineage if d in classes.nodes}
    found: list[Found] = []
    for hit in index.hits("__subclasses__"):
        if not _production(index, hit.path):
            continue
        where = f"__subclasses__() at {hit.path}:{hit.line}"
        inside = hit.path == base.path and base.data["line"] <= hit.line <= base.data["end"]
        if inside or lineage & graph.targets_on_line(hit.path, hit.line):
            return [Found(f"its subclasses are enumerated with {where}", True)]
        if names & {tok for tok, occ in index.file_occurrences(hit.path) if any(line == hit.line for line, _ in occ)}:
            found.append(Found(f"a class named like it enumerates its subclasses with {where}", False))
    return found[:1]


def registry_mechanisms(index: ProjectIndex, graph: ReferenceGraph, named: list[Definition]) -> list[Found]:
    """Registries holding the family (resolved when read), subclass-registering bases, name-only registrations."""
    hook = subclass_hook_table(graph, named[0])
    found = [hook] if hook is not None else []
    found += registered(index, graph, named)
    for definition in named:
        decorators = [d for d in definition.data.get("decorators", []) if REGISTRY_DECORATOR.search(d)]
        if decorators and not found:
            found.append(Found(f"{definition.data['name']} carries @{decorators[0]}, a registration the index cannot follow", False))
        for ref in graph.refs_to(definition.dotted):
            if ref.via != "load" or not _production(index, ref.path):
                continue
            calls = [tok for tok, occ in index.file_occurrences(ref.path)
                     if REGISTER_CALL.match(tok) and any(line == ref.line and via == "call" for line, via in occ)]
            if calls:
                found.append(Found(f"{definition.data['name']} is passed to {calls[0]}() at {ref.path}:{ref.line}, "
                                   "which the index cannot follow to a registry", False))
                break
    return sorted(found, key=lambda f: not f.resolved)


def documented_extension_point(index: ProjectIndex, graph: ReferenceGraph, base: Definition) -> list[Found]:
    """Active design contracts and user documentation that name the base as an extension point."""
    name = base.data["name"]
    dotted_docs = {(r.path, r.line) for r in graph.refs_to(base.dotted) if r.via == "doc"}
    unique = sum(1 for d in index.definitions_named(name) if d.kind == "class") == 1
    found: list[Found] = []
    for mention in doc_mentions(index, name):
        if not mention.extension_wording:
            continue
        where = "an active design contract" if mention.design else "the documentation"
        text = f"{where} names it as an extension point ({mention.describe()})"
        if (mention.path, mention.line) in dotted_docs or (unique and not upstream_of(index).classes_named(name)):
            return [Found(text, True)]
        found.append(Found(f"{text}, by a name other classes share", False))
    return found[:1]


def upstream_hooks(index: ProjectIndex, base: Definition) -> list[Found]:
    """The interface is upstream's: every abstract method is a hook of an indexed upstream base, or the
    base is assigned over an upstream name (upstream code then creates or extends it)."""
    kinds = upstream_kinds(index, base.dotted)
    for kind, why in kinds.why.items():
        if why.startswith("assigned over"):
            return [Found(f"upstream code uses it in place of {kind} ({why})", True)]
    methods = abstract_methods(base.data)
    if not methods or not kinds.classes:
        return []
    hooks = []
    for method in methods:
        readers = upstream_readers(index, base.dotted, method)
        if not readers:
            return []
        hooks.append(readers[0])
    ref, why = hooks[0]
    names = ", ".join(methods[:3])
    return [Found(f"its abstract methods ({names}) are hooks of upstream code ({ref.describe()}: {why})", True)]


def _vendor_of(child: str, folder: bool, words: Vocabulary) -> tuple[str, str] | None:
    """(platform, the rest of the name) of a folder named for a platform of the vocabulary or a module named
    `<platform>_<rest>` / `<rest>_<platform>`; None otherwise."""
    name = child.lower()
    if folder:
        return (name, "") if words.is_platform(name) else None
    head, _, rest = name.partition("_")
    if words.is_platform(head) and rest:
        return head, rest
    rest, _, tail = name.rpartition("_")
    return (tail, rest) if words.is_platform(tail) and rest else None


def _vendor_children(index: ProjectIndex, folder: str) -> list[tuple[str, str, str]]:
    """(vendor, rest, child path) of the vendor folders and modules directly inside `folder`."""
    memo = _VENDOR_CHILDREN.values(index)
    if folder not in memo:
        prefix = f"{folder}/" if folder else ""
        children: dict[str, tuple[str, str, str]] = {}
        for path, entry in index.entries.items():
            if not path.startswith(prefix) or entry.get("kind") != "python":
                continue
            child, slash, _ = path[len(prefix):].partition("/")
            found = _vendor_of(child if slash else child.removesuffix(".py"), bool(slash), index.settings.vocabulary)
            if found and child not in children:
                children[child] = (*found, prefix + child)
        memo[folder] = list(children.values())
    return memo[folder]


def _parallel_to(index: ProjectIndex, folder: str, vendor: str, rest: str) -> str | None:
    """Another vendor's folder, or its module of the same name, inside `folder`."""
    return next((path for other, other_rest, path in _vendor_children(index, folder)
                 if other != vendor and other_rest in ("", rest)), None)


def hardware_backends(index: ProjectIndex, named: list[Definition]) -> list[Found]:
    """Parallel hardware backends: vendor folders beside the base, or one vendor's implementation
    (a vendor folder or `<vendor>_x.py`) beside another vendor's."""
    base_folder = named[0].path.rpartition("/")[0]
    folders = [path for _, rest, path in _vendor_children(index, base_folder) if not rest]
    inside = any(d.path.startswith(f + "/") for f in folders for d in named[1:])
    if len(folders) >= 2 or (folders and inside):
        return [Found(f"vendor backends live beside it ({', '.join(sorted(folders)[:2])}): other hardware plugs in "
                      "in parallel", True)]
    for definition in named[1:]:
        parts = definition.path.split("/")
        for depth in range(len(parts) - 1, -1, -1):
            if f"{named[0].path}/".startswith("/".join(parts[: depth + 1]) + ("/" if depth < len(parts) - 1 else "")):
                break  # the base is that vendor's own code too: an abstraction inside one backend
            found = _vendor_of(parts[depth].removesuffix(".py"), depth < len(parts) - 1, index.settings.vocabulary)
            other = _parallel_to(index, "/".join(parts[:depth]), *found) if found else None
            if found and other:
                return [Found(f"{definition.data['name']} is {found[0]} code ({definition.path}) beside another "
                              f"vendor's ({other}): hardware backends in parallel", True)]
    return []


def outside_consumer(index: ProjectIndex, base: Definition) -> list[Found]:
    """An out-of-tree plugin or fork (an external consumer root) that names the abstraction."""
    for token in (base.dotted, base.data["name"]):
        found = external_root_consumers(index, token)
        if found:
            return [Found(f"code outside this repository uses it: {found[0].describe()}", True)]
    return []


ISINSTANCE = re.compile(r"\bisinstance\s*\(|\bissubclass\s*\(")
FIELD_ANNOTATION = re.compile(r"^\s*[A-Za-z_]\w*\s*:(?!=)")  # `tokenizer: Optional[Base] = None` in a class body


def _in_class_body(index: ProjectIndex, path: str, line: int) -> bool:
    """The line sits in a class body, outside every method: a field's annotation."""
    facts = index.facts(path)
    in_class = any(c["line"] < line <= c["end"] for c in facts.get("classes", []))
    return in_class and not any(f["line"] <= line <= f["end"] for f in facts.get("functions", []))


def type_contracts(index: ProjectIndex, graph: ReferenceGraph, base: Definition, family: set[str]) -> list[Found]:
    """The base is a type contract other code checks or declares: an `isinstance(x, Base)` on objects handed in,
    or a field typed with it (a config or a public class whose users may hand another implementation). Name-only
    evidence (who passes what is unknown): the finding stays a candidate, medium, naming it."""
    spans = [(d.path, d.data["line"], d.data["end"]) for d in (index.resolve_target(f) for f in family) if d is not None]
    for ref in graph.refs_to(base.dotted):
        if not _production(index, ref.path) or any(p == ref.path and a <= ref.line <= b for p, a, b in spans):
            continue  # the family's own classes naming it are no contract with the outside
        text = (index.text(ref.path) or "").splitlines()
        line = text[ref.line - 1] if 0 < ref.line <= len(text) else ""
        if ISINSTANCE.search(line):
            return [Found(f"other code checks objects against it ({ref.path}:{ref.line}: isinstance): a contract "
                          "implementations may come to from outside", False)]
        if FIELD_ANNOTATION.match(line) and _in_class_body(index, ref.path, ref.line):
            return [Found(f"a field is typed with it ({ref.path}:{ref.line}): its users may hand another implementation", False)]
    return []


def open_mechanisms(index: ProjectIndex, named: list[Definition]) -> list[Found]:
    """Every way `named[0]` (with its family `named[1:]`) can get implementations the index cannot count.

    The first resolved mechanism alone (the caller rejects, naming it), else every
    unresolved one (the caller names them as doubts).
    """
    graph, classes = graph_of(index), class_graph(index)
    base = named[0]
    family = {d.dotted for d in named} | set(classes.descendants(base.dotted)) if base.dotted in classes.nodes else {d.dotted for d in named}
    finders: Iterable[Callable[[], list[Found]]] = (
        lambda: entry_point_groups(index, graph, named),
        lambda: class_slots(index, graph, family),
        lambda: loaded_by_string(index, graph, named),
        lambda: registry_mechanisms(index, graph, named),
        lambda: subclass_enumeration(index, graph, classes, base) if base.kind == "class" else [],
        lambda: documented_extension_point(index, graph, base),
        lambda: upstream_hooks(index, base) if base.kind == "class" else [],
        lambda: hardware_backends(index, named),
        lambda: outside_consumer(index, base),
        lambda: type_contracts(index, graph, base, family) if base.kind == "class" else [],
    )
    found: list[Found] = []
    for finder in finders:
        for item in finder():
            if item.resolved:
                return [item]  # one resolved path is enough to reject
            found.append(item)
    return found
