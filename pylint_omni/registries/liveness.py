"""Is a registry entry used? The evidence pass of `unused-registry-entry`, judged per key.

The registry's read paths (`read_paths`) say where it is stored and how it is read;
each key is then judged against those reads (`keys.reach`), never against its
target (an alias key is not alive because its class is used through another key)
and never against a same-named key of a sibling table:
- a read that can produce the key, fed by code or configuration -> live;
- the registry handed out whole, or keys built by a pattern the key fits -> rejected;
- a documented key, a design contract's extension point, an entry-point plugin
  target, an upstream framework reading it (`torch.ops.NS.KEY`), a table a widely
  used framework reads by name (`evidence.frameworks`: ComfyUI's
  `NODE_CLASS_MAPPINGS`) -> rejected;
- keys from outside data or user input, reads the index cannot follow, classes
  that may live in an upstream package that is not indexed, tests only, or
  name-only mentions that reach no read -> medium, naming them;
- no read at all (a write-only registry), or reads none of which can produce the
  key -> high, with the reads that were checked.
Forms with their own read path: lazy-export maps (only `from pkg import Name`,
`pkg.Name` or a `"pkg.Name"` string consume an entry), custom ops (`torch.ops.NS.KEY`),
Enum members (`Enum.MEMBER`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypeVar

from pylint_omni.evidence.contracts import contracts_of
from pylint_omni.evidence.consumers import Consumer, Status, Verdict, external_root_consumers, judge
from pylint_omni.evidence.frameworks import framework_table
from pylint_omni.index.derived import Derived, Table
from pylint_omni.index.facts import RegistryEntryFact, RegistryFact
from pylint_omni.index.graph import ReferenceGraph, graph_of
from pylint_omni.index.paths import key_matches_patterns
from pylint_omni.index.project_index import Definition, ProjectIndex
from pylint_omni.index.settings import OmniSettings
from pylint_omni.index.upstream import upstream_of
from pylint_omni.registries.keys import KeyReach, key_mentions, own_classes_keyed, reach, reads_summary, attribute_consumers, consumer_at
from pylint_omni.registries.ops import op_consumers
from pylint_omni.registries.read_paths import TABLE_FORMS, ReadPaths, read_paths

MIN_ENTRIES_FOR_DOMAIN = 3  # entries a registry needs before its unnamed keys say outside data chooses them
SPAN_FORMS = frozenset({"dict", "table", "enum", "merged"})

_KEY_DOMAINS: Table[tuple[str, str, str], str | None] = Table("registries.key_domains")
_DOCUMENTED_SIBLINGS: Table[tuple[str, str, str], str | None] = Table("registries.documented_siblings")
_OWN_CLASSES_KEYED: Table[tuple[str, str, str], bool] = Table("registries.own_classes_keyed")
V = TypeVar("V")


@dataclass
class EntryEvidence:
    """An entry's verdict plus what the message needs to say about it."""

    verdict: Verdict
    target: Definition | None
    key_consumers: list[Consumer]
    target_consumers: list[Consumer]
    paths: ReadPaths | None = None


def read_registry(index: ProjectIndex, relpath: str, registry: RegistryFact) -> ReadPaths:
    """How the registry is read (memoised per registry and run)."""
    return read_paths(index, graph_of(index), relpath, registry)


def _registry_span(relpath: str, registry: RegistryFact, entry: RegistryEntryFact) -> tuple[str, int, int]:
    if registry["form"] in SPAN_FORMS:
        return (relpath, registry["line"], registry["end"])
    return (relpath, entry["span"][0], entry["span"][1])


def _all_entries(index: ProjectIndex, relpath: str, registry: RegistryFact) -> list[tuple[str, RegistryFact, RegistryEntryFact]]:
    """Every entry of the registry: a decorator or register() registry spans many files."""
    if registry["form"] in TABLE_FORMS:
        return [(relpath, registry, entry) for entry in registry["entries"]]
    return _SPREAD.of(index).get((registry["name"], registry["form"]), [])


def _spread_registries(index: ProjectIndex) -> dict[tuple[str, str], list[tuple[str, RegistryFact, RegistryEntryFact]]]:
    """(name, form) -> every entry of a registry spread over modules (decorators, register() calls)."""
    spread: dict[tuple[str, str], list[tuple[str, RegistryFact, RegistryEntryFact]]] = {}
    for rel, reg in index.registries():
        if reg["form"] not in TABLE_FORMS:
            spread.setdefault((reg["name"], reg["form"]), []).extend((rel, reg, entry) for entry in reg["entries"])
    return spread


_SPREAD: Derived[dict[tuple[str, str], list[tuple[str, RegistryFact, RegistryEntryFact]]]] = Derived(
    "registries.spread", _spread_registries)


def _memo(index: ProjectIndex, table: Table[tuple[str, str, str], V], relpath: str, registry: RegistryFact,
          compute: Callable[[], V]) -> V:
    """A per-registry judgment, once per run (a decorator registry spans many modules)."""
    key = (relpath if registry["form"] in TABLE_FORMS else "", registry["name"], registry["form"])
    return table.of(index, key, compute)


def _keys_come_from_outside(index: ProjectIndex, relpath: str, registry: RegistryFact) -> str | None:
    """When the reads cannot be traced and most keys are named nowhere in production, users or
    checkpoints choose the keys: the repository cannot see that domain."""
    def compute() -> str | None:
        entries = _all_entries(index, relpath, registry)
        if len(entries) < MIN_ENTRIES_FOR_DOMAIN:
            return None
        named = sum(1 for rel, reg, entry in entries if _named_in_production(index, entry["key"], _registry_span(rel, reg, entry)))
        if named * 2 >= len(entries):
            return None
        return (
            f"only {named} of {len(entries)} keys of {registry['name']} are named by production code, "
            "so its keys are chosen by outside data (configs, checkpoints, CLI text)"
        )
    return _memo(index, _KEY_DOMAINS, relpath, registry, compute)


def _named_in_production(index: ProjectIndex, key: str, own: tuple[str, int, int]) -> bool:
    """A production mention of the key as a string, or as a name in code (`Enum.KEY`), outside its entry."""
    feeding, other = key_mentions(index, key, [own])
    return bool(feeding) or any(h.via in ("attr", "name") and index.location(h.path).value == "production" for h in other)


def _documented_sibling(index: ProjectIndex, relpath: str, registry: RegistryFact) -> str | None:
    """Where the docs name a key of this registry as a choice: the registry is user-facing, and an
    unlisted key is more likely a missing line of docs than dead code."""
    def compute() -> str | None:
        for rel, reg, entry in _all_entries(index, relpath, registry):
            _, other = key_mentions(index, entry["key"], [_registry_span(rel, reg, entry)])
            doc = next((h for h in other if h.via == "doc"), None)
            if doc is not None:
                return f"{entry['key']!r} at {doc.path}:{doc.line}"
        return None
    return _memo(index, _DOCUMENTED_SIBLINGS, relpath, registry, compute)


def _target_consumers(index: ProjectIndex, graph: ReferenceGraph, target: Definition, own: list[tuple[str, int, int]]) -> list[Consumer]:
    """Uses of the target itself (for the fix: delete it too, or keep it), and entry points naming it."""
    spans = [*own, (target.path, target.data["line"], target.data["end"])]
    found = []
    for ref in graph.refs_to(target.dotted):
        if ref.via in ("import", "hop") or any(ref.path == p and a <= ref.line <= b for p, a, b in spans):
            continue
        found.append(consumer_at(index, ref.path, ref.line, ref.via, target.data["name"]))
    return found


def _form_consumers(index: ProjectIndex, graph: ReferenceGraph, relpath: str, registry: RegistryFact, key: str,
                    own: list[tuple[str, int, int]]) -> list[Consumer] | None:
    """Consumers of forms with their own read path (None: judged by the registry's reads)."""
    module = index.entries.get(relpath, {}).get("module", "")
    if registry["form"] == "lazy-export":
        return attribute_consumers(index, graph, f"{module}.{key}", [(relpath, 1, 10**9)])
    if registry["form"] == "custom-op":
        return op_consumers(index, key, own)
    return None


def _form_doubts(index: ProjectIndex, relpath: str, registry: RegistryFact) -> list[str]:
    """Upstream packages that are imported but not indexed and could call a custom op by name.

    `direct_register_custom_op` registers into the library of the package that
    provides it (vLLM's helper, vLLM's `torch.ops.vllm`): only that package can call
    the op by name. Other registrations keep every missing package as a doubt.
    """
    if registry["form"] != "custom-op":
        return []
    missing = upstream_of(index).missing
    helper = index.facts(relpath).get("imports", {}).get("direct_register_custom_op", "")
    if helper and "." in helper:
        missing = [name for name in missing if name == helper.split(".")[0]]
    return [f"{name} may call the op by name: it is imported but not indexed" for name in missing]


def judge_entry(
    index: ProjectIndex,
    settings: OmniSettings,
    relpath: str,
    registry: RegistryFact,
    entry: RegistryEntryFact,
    paths: ReadPaths,
) -> EntryEvidence | None:
    """Evidence for one entry; None when the entry's target is not project code (a data map)."""
    graph = graph_of(index)
    form = registry["form"]
    target = index.resolve_target(entry["target"], entry["suffix"]) if entry["target"] else None
    if entry["target"] and target is None and not entry["suffix"] and form not in ("lazy-export", "custom-op"):
        return None
    key, module = entry["key"], index.entries.get(relpath, {}).get("module", "")
    own = [_registry_span(relpath, registry, entry)]
    target_consumers = _target_consumers(index, graph, target, own) if target is not None else []
    reject: list[str] = []
    medium: list[str] = []
    names = [key, *([target.data["name"], target.dotted] if target is not None else [])]
    declaring = next((c for n in names if (c := contracts_of(index).declaring_extension_point(n))), None)
    if declaring is not None:
        reject.append(f"the active design contract {declaring.describe()} declares it a boundary or extension point")
    framework = framework_table(relpath, registry["name"])
    if framework is not None:
        reject.append(f"the framework reads {registry['name']} by name ({framework.name}, a framework convention)")
    upstream_store = _upstream_storage(index, relpath, registry)
    if upstream_store:
        reject.append(upstream_store)
    # An entry-point group loading the target is a plugin contract: an external consumer of the entry.
    plugins = [c for c in target_consumers if c.via.startswith("entry-point:")]
    consumers = _form_consumers(index, graph, relpath, registry, key, own)
    if form == "custom-op" and consumers is not None:
        # `@torch.library.custom_op` returns the op itself: calling the decorated function calls it too.
        consumers += [c for c in target_consumers if c.via in ("call", "load", "getattr")]
    medium.extend(_form_doubts(index, relpath, registry))
    found = KeyReach()
    if consumers is None:
        own_keyed = _memo(index, _OWN_CLASSES_KEYED, relpath, registry,
                          lambda: own_classes_keyed(index, [e["key"] for e in registry["entries"]]))
        found = reach(index, graph, paths, key, module, own, own_keyed)
        consumers = list(found.consumers)
        if form == "enum":
            consumers += attribute_consumers(index, graph, f"{module}.{registry['name']}.{key}", own)
        _path_reasons(index, relpath, registry, paths, found, reject, medium)
    _, other = key_mentions(index, key, own)
    typed = _user_facing(paths, form)
    docs = [consumer_at(index, h.path, h.line, h.via, key) for h in other if h.via == "doc"] if typed else []
    if docs and found.other_fields and not found.consumers:
        # The shipped data holds the key as another field's value: prose naming it may mean that other thing.
        medium.append(f"the docs name {key!r} ({docs[0].path}:{docs[0].line}), but the shipped data holds it only as "
                      f"another field's value: {found.other_fields[0]}")
        docs = []
    documented_elsewhere = None if not typed or docs or found.other_fields else _documented_sibling(index, relpath, registry)
    if documented_elsewhere and not key_matches_patterns(key, settings.external_key_patterns) and form not in ("lazy-export", "custom-op"):
        reject.append(f"the docs list keys of {registry['name']} as user-facing choices ({documented_elsewhere}); an unlisted key is more likely missing from the docs than dead")
    externally_keyed = bool(found.outside) or (typed and key_matches_patterns(key, settings.external_key_patterns))
    if found.outside:
        medium.append(f"keys come from outside data at {', '.join(found.outside[:2])}")
    production_mentions = [h for h in found.unrelated if h.via != "doc" and index.location(h.path).value == "production"]
    # A table nothing reads at all: a string naming the key elsewhere cannot reach the entry through it.
    unread = not reading_of(paths)
    if production_mentions and not consumers and not unread:
        medium.append("named elsewhere without reaching a read: " + ", ".join(f"{h.path}:{h.line} ({h.via})" for h in production_mentions[:3]))
    seen = {(c.path, c.line) for c in consumers}
    # Out-of-tree plugins and forks (`omni-external-roots`) naming the key or the target use the entry.
    outside = [c for token in dict.fromkeys(names) for c in external_root_consumers(index, token)]
    all_consumers = [*plugins, *consumers, *(c for c in docs if (c.path, c.line) not in seen), *outside]
    verdict = judge(all_consumers, externally_keyed=externally_keyed, documented_rejects=bool(docs), reject_reasons=reject, medium_reasons=medium)
    if verdict.status is Status.CANDIDATE and verdict.confidence == "high":
        verdict.reason = _high_reason(registry, paths, found, form)
    return EntryEvidence(verdict, target, consumers, target_consumers, paths)


def _upstream_storage(index: ProjectIndex, relpath: str, registry: RegistryFact) -> str | None:
    """Why the entries go into a library's registry (None when the storage is the project's): speculators'
    `ALL_ATTENTION_FUNCTIONS = AttentionInterface()` then `.register("simple_flex_attention", fn)` registers into
    transformers' shared mapping, which transformers reads by the configured name."""
    holder = registry["name"].partition(".")[0]
    facts = index.facts(relpath)
    callee = next((c for c, _, var, func in facts.get("bound_calls", []) if var == holder and func == "<module>"), None)
    built = (facts.get("imports") or {}).get(callee or "", "")
    if not built or index.resolve_target(built) is not None or built.partition(".")[0] in index.top_packages():
        return None
    return f"{holder} is a {callee} of {built.rpartition('.')[0]}: the library keeps and reads what is registered"


def _user_facing(paths: ReadPaths, form: str) -> bool:
    """Whether users or configs can type the keys: only then do the docs make a key a supported name.

    A table keyed by class names or module attribute names is read by code; a
    documented string of the same text (an env var users set, a model name) does
    not reach it.
    """
    if form == "lazy-export":
        return True
    if form == "custom-op":
        return False
    reads = paths.production_reads()
    if not reads:
        return bool(paths.unresolved)
    return any(r.source.partition(":")[0] in ("user", "config", "var", "external") for r in reads)


def _path_reasons(index: ProjectIndex, relpath: str, registry: RegistryFact, paths: ReadPaths, found: KeyReach,
                  reject: list[str], medium: list[str]) -> None:
    """What the read paths add: exposure and patterns reject; untraceable or outside keys downgrade."""
    if paths.exposed:
        reject.append(f"the whole registry is handed out or enumerated at {paths.exposed[0]}; every key is reachable")
    for shape in found.patterns:
        reject.append(f"keys are built dynamically (shape {shape}); this key may be built")
    if found.user:
        medium.append(f"keys may come from user input: {found.user[0]}")
    medium.extend(found.unknown[:1])
    if paths.local_copies:
        medium.append(f"entries are copied into a local table at {paths.local_copies[0]}; its lookups were not followed")
    if paths.unresolved and not paths.reads:
        medium.append(f"{paths.unresolved}: its reads are unknown")
    reads = paths.production_reads()
    untraced = [r for r in reads if not r.source.startswith(("lit:", "pattern:", "classname", "attribute", "external", "user"))]
    if untraced and not found.consumers:
        outside = _keys_come_from_outside(index, relpath, registry)
        if outside:
            medium.append(outside)
        elif all(r.source == "var" for r in reads):
            # Every production read takes a key the index cannot trace at all (LLM Foundry's
            # `build_norm(name=config.norm_type)`): a configuration may choose this entry, whatever code names.
            medium.append(f"every production read takes a key the index cannot trace ({untraced[0].describe()}): a "
                          "configuration may choose it")
    if paths.reads and not reads:
        medium.append(f"only tests read the registry ({paths.reads[0].where})")


def reading_of(paths: ReadPaths) -> bool:
    """Whether anything reads the table at all: a lookup, an iteration, an export, a copy, or a read not traced."""
    return bool(paths.reads or paths.exposed or paths.copies or paths.unresolved)


def _high_reason(registry: RegistryFact, paths: ReadPaths, found: KeyReach, form: str) -> str:
    storage = ", ".join(paths.storage) or registry["name"]
    if form == "lazy-export":
        return "nothing imports it from the package (`from pkg import Name`, `pkg.Name`, or a \"pkg.Name\" string)"
    if form == "custom-op":
        return "no torch.ops call uses the op, in the project or an indexed upstream package"
    if not paths.reads and not paths.exposed and not paths.copies:
        writes = f"; written at {paths.writes[0]}" if paths.writes else ""
        return f"the registry {storage} is never read: no lookup, iteration or export anywhere{writes}"
    if paths.attribute_keyed:
        where = paths.production_reads()[0].where
        return f"no code reads it as a module attribute; the table is read only by the module's __getattr__ at {where}"
    reads = paths.production_reads() or paths.reads
    classname = [m for m in found.no_match if "class name" in m]
    if classname:
        return "no read can produce this key: " + classname[0]
    untraced = any(not r.source.startswith(("lit:", "pattern:")) for r in reads)
    return f"no read of {storage} can produce it ({reads_summary(reads)})" + ("; no code or configuration names it" if untraced else "")
