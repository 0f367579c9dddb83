"""Open extension mechanisms: ways an abstraction gets implementations the index cannot count.

Each finder returns the mechanism it found, named with the place that shows it, or
None. When any is found, one implementation inside the repository proves nothing:
- resolved from a string: the base's, the implementation's or their module's dotted
  path in code strings, YAML/JSON/TOML, resolver or `import_module` arguments, or
  their bare class name in configuration or `getattr`;
- a `*_cls`/`*_class` key named after the abstraction (`worker_cls` for `WorkerBase`) that
  the reference graph shows choosing among its classes (a class of its family flows
  into it, or it is read in its package), never a same-named key elsewhere;
- an entry-point group naming it, or the abstraction's package loading plugins;
- enumeration through `__subclasses__()`;
- a registry (`register*` calls or decorators, `*_REGISTRY` tables, `__init_subclass__`);
- documentation naming it as an extension point or boundary (`design_docs`);
- a third-party base (the abstraction belongs upstream);
- parallel hardware folders (`platforms/<vendor>/`, vendor-named modules or classes);
- an external consumer root (`omni-external-roots`: an out-of-tree plugin or fork) naming it.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from pylint_omni.evidence.consumers import external_root_consumers
from pylint_omni.evidence.design_docs import doc_mentions
from pylint_omni.index.class_graph import ClassGraph
from pylint_omni.index.graph import graph_of
from pylint_omni.index.project_index import Definition, ProjectIndex
from pylint_omni.index.paths import Location

STRING_VIAS = frozenset({"str", "dotted", "yaml-value", "yaml-key", "json", "toml", "resolver", "import_module", "fstr", "getattr"})
# A bare class name in a Python string is often a forward-reference annotation; only
# configuration and dynamic lookups count for bare names.
BARE_NAME_VIAS = frozenset({"yaml-value", "yaml-key", "json", "toml", "resolver", "import_module", "fstr", "getattr"})
GENERIC_WORDS = frozenset({"base", "abstract", "interface", "protocol", "mixin", "impl", "abc", "generic", "default", "i"})
PLUGIN_LOADER = re.compile(r"(^|_)entry_points$|^load_\w*plugins?\w*$|^load_plugins")
REGISTRY_TOKEN = re.compile(r"regist|REGIST")
REGISTER_CALL = re.compile(r"^_?register\w*$|\w+_register$")
REGISTRY_CONSTANT = re.compile(r"^_*[A-Z][A-Z0-9_]*REGISTRY[A-Z0-9_]*$")
VENDOR_WORDS = frozenset({
    "cuda", "rocm", "hip", "npu", "xpu", "hpu", "tpu", "cpu", "ascend", "musa", "mlu",
    "neuron", "gaudi", "mps", "metal", "dcu", "camb", "maca", "habana", "platforms",
})
CAMEL_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|\d+")


def words_of(name: str) -> list[str]:
    """`OmniConnectorBase` -> ['omni', 'connector', 'base']."""
    return [w.lower() for w in CAMEL_WORD.findall(name.replace("_", " "))]


def _production_hits(index: ProjectIndex, token: str, vias: frozenset[str]) -> list[str]:
    return [
        f"{hit.path}:{hit.line} ({hit.via})" for hit in index.hits(token)
        if hit.via in vias and index.location(hit.path) is not Location.VALIDATION
    ]


def _tokens_on_line(index: ProjectIndex, path: str, line: int, vias: frozenset[str] | None = None) -> set[str]:
    return {
        tok for tok, occurrences in index.file_occurrences(path)
        if any(found == line and (vias is None or via in vias) for found, via in occurrences)
    }


def _names_module_itself(index: ProjectIndex, module: str, path: str, line: int) -> bool:
    """True when a string names `module` itself, not a member of it (`pkg.mod.Other` also records `pkg.mod`)."""
    return not any(tok.startswith((module + ".", module + ":")) for tok in _tokens_on_line(index, path, line))


def from_strings(index: ProjectIndex, named: list[Definition]) -> str | None:
    for token in dict.fromkeys(d.dotted for d in named):
        found = _production_hits(index, token, STRING_VIAS)
        if found:
            return f"{token} is named by a string at {found[0]}"
    for module in dict.fromkeys(d.module for d in named):
        # A one-word module name is an ordinary word too: only an import counts for it.
        vias = STRING_VIAS if "." in module else frozenset({"import_module", "resolver"})
        for hit in index.hits(module):
            if hit.via in vias and index.location(hit.path) is not Location.VALIDATION \
                    and _names_module_itself(index, module, hit.path, hit.line):
                return f"module {module} is loaded by a string at {hit.path}:{hit.line} ({hit.via})"
    for definition in named:
        found = _production_hits(index, definition.data["name"], BARE_NAME_VIAS)
        if found:
            return f"{definition.data['name']} is looked up by name at {found[0]}"
    return None


def class_keys(index: ProjectIndex, graph: ClassGraph, named: list[Definition]) -> str | None:
    """`worker_cls: ...` style keys that choose among *this* abstraction's classes.

    The reference graph's class flows say which classes reach a `*_cls` slot (keyword
    arguments, dict and YAML keys, `.get` and parameter defaults) and where the slot
    is read. A slot counts when a class of the abstraction's family flows into it,
    or when it is read in the abstraction's own package; a same-named key of an
    unrelated subsystem is a name collision, never evidence.
    """
    base = named[0]
    family = {d.dotted for d in named} | set(graph.descendants(base.dotted))
    package = base.module.rpartition(".")[0]
    references = graph_of(index)
    stems: list[str] = []
    for definition in named:
        words = [w for w in words_of(definition.data["name"]) if w not in GENERIC_WORDS]
        if words:
            stems += ["_".join(words), words[-1]]
    for stem in dict.fromkeys(stems):
        for key in (f"{stem}_cls", f"{stem}_class", f"{stem}_cls_name", f"{stem}_class_name"):
            flows = [f for f in references.flows(key) if index.location(f.path) is not Location.VALIDATION]
            for flow in flows:
                if flow.value.startswith("c:") and flow.value[2:] in family:
                    return f"the class is chosen by the `{key}` key, which receives {flow.value[2:].rpartition('.')[2]} ({flow.path}:{flow.line})"
                module = references.module_of_path(flow.path)
                if flow.how == "read" and (module == base.module or module.rpartition(".")[0] == package):
                    return f"the class is chosen by the `{key}` key read beside it ({flow.path}:{flow.line})"
    return None


def entry_points(index: ProjectIndex, named: list[Definition]) -> str | None:
    for definition in named:
        for token in (definition.dotted, definition.module):
            for hit in index.hits(token):
                if not hit.via.startswith("entry-point:"):
                    continue
                if token == definition.module and not _names_module_itself(index, token, hit.path, hit.line):
                    continue
                return f"entry-point group '{hit.via.partition(':')[2]}' names {token} ({hit.path}:{hit.line})"
    base = named[0]
    folder = base.path.rpartition("/")[0] + "/"
    for path, _ in index.python_files():
        if path.rpartition("/")[0] + "/" != folder or index.location(path) is Location.VALIDATION:
            continue
        for token, occurrences in index.file_occurrences(path):
            if PLUGIN_LOADER.search(token) and any(via == "call" for _, via in occurrences):
                return f"its package loads plugins through `{token}` ({path}:{occurrences[0][0]})"
    return None


def subclass_enumeration(index: ProjectIndex, graph: ClassGraph, base: Definition) -> str | None:
    names = {base.data["name"], *(graph.nodes[a].definition.data["name"] for a in graph.ancestors(base.dotted))}
    for hit in index.hits("__subclasses__"):
        if index.location(hit.path) is Location.VALIDATION:
            continue
        inside = hit.path == base.path and base.data["line"] <= hit.line <= base.data["end"]
        if inside or names & _tokens_on_line(index, hit.path, hit.line):
            return f"subclasses are enumerated with __subclasses__() at {hit.path}:{hit.line}"
    return None


def registries(index: ProjectIndex, graph: ClassGraph, named: list[Definition]) -> str | None:
    base = named[0]
    hooks = [m for m in base.data.get("methods", []) if m == "__init_subclass__" or m.startswith("register")]
    if hooks:
        return f"{base.data['name']}.{hooks[0]} registers subclasses"
    dotted = {d.dotted for d in named}
    for path, registry in index.registries():
        for entry in registry.get("entries", []):
            target = entry.get("target") or ""
            if not target:
                continue
            hit = any(d.endswith("." + target) or d == target for d in dotted) if entry.get("suffix") else graph.lookup(target) in dotted
            if hit:
                return f"registered in {registry['name']} ({path}:{entry['line']})"
    for definition in named:
        decorators = [d for d in definition.data.get("decorators", []) if REGISTRY_TOKEN.search(d)]
        if decorators:
            return f"{definition.data['name']} is registered by @{decorators[0]} ({definition.path}:{definition.data['line']})"
        for hit in index.hits(definition.data["name"]):
            if hit.via in ("import", "all", "doc") or index.location(hit.path) is Location.VALIDATION:
                continue
            calls = _tokens_on_line(index, hit.path, hit.line, frozenset({"call"}))
            names = _tokens_on_line(index, hit.path, hit.line, frozenset({"name"}))
            if any(REGISTER_CALL.match(t) for t in calls) or any(REGISTRY_CONSTANT.match(t) for t in names):
                return f"{definition.data['name']} is fed to a registry at {hit.path}:{hit.line}"
    return None


def documented_extension_point(index: ProjectIndex, base: Definition) -> str | None:
    for mention in doc_mentions(index, base.data["name"]):
        if mention.extension_wording:
            where = "an active design contract" if mention.design else "documentation"
            return f"{where} names it as an extension point or boundary ({mention.describe()})"
    return None


def upstream_base(graph: ClassGraph, base: Definition) -> str | None:
    upstream = graph.upstream_bases(base.dotted)
    if upstream:
        return f"it extends the third-party {upstream[0]} (the abstraction belongs upstream)"
    return None


def hardware_folders(index: ProjectIndex, named: list[Definition]) -> str | None:
    """Hardware-specific code, or a backend layer with vendor folders beside it."""
    for definition in named:
        folders = definition.path.split("/")[:-1]
        stem_words = definition.path.rpartition("/")[2].rsplit(".", 1)[0].lower().split("_")
        vendor = next((w for w in [*folders, *stem_words, *words_of(definition.data["name"])] if w.lower() in VENDOR_WORDS), None)
        if vendor == "platforms":
            return f"{definition.path} lives under platforms/: hardware vendors plug in in parallel"
        if vendor:
            return f"{definition.path} is hardware-specific code ('{vendor}'): other vendors plug in in parallel"
    base_folder = named[0].path.rpartition("/")[0]
    impl_parent = named[1].path.rpartition("/")[0].rpartition("/")[0]
    for folder in dict.fromkeys((base_folder, impl_parent)):
        prefix = f"{folder}/" if folder else ""
        for path in index.entries:
            child = path[len(prefix):].partition("/")[0] if path.startswith(prefix) and "/" in path[len(prefix):] else ""
            if child in VENDOR_WORDS and child != "platforms":
                return f"vendor backends live beside it in {prefix}{child}/: other vendors plug in in parallel"
    return None


def outside_consumer(index: ProjectIndex, base: Definition) -> str | None:
    """An out-of-tree plugin or fork (an external consumer root) that names the abstraction."""
    for token in (base.dotted, base.data["name"]):
        found = external_root_consumers(index, token)
        if found:
            return f"an external consumer root uses it: {found[0].describe()}"
    return None


def open_mechanisms(index: ProjectIndex, graph: ClassGraph, base: Definition, implementation: Definition) -> list[str]:
    """Every open extension mechanism found for `base` and its single `implementation`."""
    named = [base, implementation]
    finders: Iterable[Callable[[], str | None]] = (
        lambda: entry_points(index, named),
        lambda: from_strings(index, named),
        lambda: registries(index, graph, named),
        lambda: subclass_enumeration(index, graph, base),
        lambda: class_keys(index, graph, named),
        lambda: documented_extension_point(index, base),
        lambda: upstream_base(graph, base),
        lambda: hardware_folders(index, named),
        lambda: outside_consumer(index, base),
    )
    return [found for found in (finder() for finder in finders) if found]
