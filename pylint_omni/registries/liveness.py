"""Is a registry entry used? The evidence pass of `unused-registry-entry`.

First, how the registry itself is read across the project (`RegistryReading`):
keyed by class name (`REG[type(x).__name__]`), by module attribute name (a module
`__getattr__` reading the table), keyed by outside data
(`REG[config.architectures[0]]`), keyed by user input (env vars, CLI args), keyed by
f-strings or concatenation (`REG[f"{kind}_attn"]`: a key matching the shape is
built, not named), enumerated or handed out whole (every key becomes reachable),
copied into another table, or reached as an attribute of another object.
Then, for each entry, the consumers of its key and of its target, outside the
registry's own lines, the target's own definition and re-exports.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from pylint_omni.evidence.contracts import contracts_of
from pylint_omni.evidence.consumers import Consumer, ConsumerKind, Status, Verdict, consumers_of, first_consumer, judge
from pylint_omni.index.facts import PythonFacts, RegistryEntryFact, RegistryFact
from pylint_omni.index.project_index import Definition, ProjectIndex
from pylint_omni.index.paths import Location, key_matches_patterns
from pylint_omni.index.settings import OmniSettings


@dataclass
class RegistryReading:
    """How a registry's keys are looked up, with the place that shows it."""

    class_name_keys: str | None = None
    external_keys: str | None = None
    user_keys: str | None = None
    patterns: list[tuple[str, str]] = field(default_factory=list)
    exposed: str | None = None
    copied: str | None = None
    attribute_access: str | None = None
    outside_keys: str | None = None
    attribute_keys: str | None = None


MIN_ENTRIES_FOR_DOMAIN = 3


def _all_entries(index: ProjectIndex, relpath: str, registry: RegistryFact) -> list[tuple[str, RegistryFact, RegistryEntryFact]]:
    """Every entry of the registry: a decorator or register() registry spans many files."""
    if registry["form"] in ("dict", "table", "enum"):
        return [(relpath, registry, entry) for entry in registry["entries"]]
    spread = index.derived.get("spread_registries")
    if spread is None:
        spread = index.derived["spread_registries"] = {}
        for rel, reg in index.registries():
            if reg["form"] not in ("dict", "table", "enum"):
                spread.setdefault((reg["name"], reg["form"]), []).extend((rel, reg, entry) for entry in reg["entries"])
    return spread.get((registry["name"], registry["form"]), [])


def _keys_come_from_outside(index: ProjectIndex, relpath: str, registry: RegistryFact) -> str | None:
    """When most keys of a registry are named by no production code, the keys are chosen
    by outside data (checkpoints, user configs, CLI text): the repo cannot see that domain.

    Judged once per registry and run (a decorator registry spans many modules)."""
    memo: dict[tuple[str, str, str], str | None] = index.derived.setdefault("key_domains", {})
    scope = relpath if registry["form"] in ("dict", "table", "enum") else ""
    key = (scope, registry["name"], registry["form"])
    if key not in memo:
        memo[key] = _judge_key_domain(index, relpath, registry)
    return memo[key]


def _judge_key_domain(index: ProjectIndex, relpath: str, registry: RegistryFact) -> str | None:
    entries = _all_entries(index, relpath, registry)
    if len(entries) < MIN_ENTRIES_FOR_DOMAIN:
        return None
    named = 0
    for rel, reg, entry in entries:
        if first_consumer(index, entry["key"], [_registry_span(rel, reg, entry)], wanted=ConsumerKind.PRODUCTION):
            named += 1
    if named * 2 >= len(entries):
        return None
    return (
        f"only {named} of {len(entries)} keys of {registry['name']} are named by production code, "
        "so its keys are chosen by outside data (configs, checkpoints, CLI text)"
    )


def _documented_sibling(index: ProjectIndex, relpath: str, registry: RegistryFact) -> str | None:
    """Where the docs name a key of this registry as a choice (once per registry and run).

    When the docs list some keys, the registry is a user-facing surface (CLI values,
    config names): a key the docs do not list is more likely a missing line of docs
    than dead code, and removing it would break the users who type it.
    """
    memo: dict[tuple[str, str, str], str | None] = index.derived.setdefault("documented_siblings", {})
    scope = relpath if registry["form"] in ("dict", "table", "enum") else ""
    memo_key = (scope, registry["name"], registry["form"])
    if memo_key not in memo:
        memo[memo_key] = None
        for rel, reg, entry in _all_entries(index, relpath, registry):
            doc = first_consumer(index, entry["key"], [_registry_span(rel, reg, entry)], via="doc")
            if doc is not None:
                memo[memo_key] = f"{entry['key']!r} at {doc.path}:{doc.line}"
                break
    return memo[memo_key]


def _storage_names(index: ProjectIndex, registry: RegistryFact) -> list[tuple[str, str | None]]:
    """Names whose uses reveal how the registry is read, with the module that owns each.

    A table is read through its own name. A decorator or `register(...)` call writes
    into some table inside the registering function: find the constant-style names
    that function's module writes with `TABLE[key] = ...`.
    """
    if registry["form"] in ("dict", "table", "enum", "setitem"):
        return [(registry["name"], None)]
    memo: dict[str, list[tuple[str, str | None]]] = index.derived.setdefault("storage_names", {})
    if registry["name"] not in memo:
        memo[registry["name"]] = _written_tables(index, registry["name"].rpartition(".")[2])
    return memo[registry["name"]]


def _written_tables(index: ProjectIndex, func: str) -> list[tuple[str, str | None]]:
    """Constant-style tables that the registering function `func` writes into."""
    names: list[tuple[str, str | None]] = []
    for definition in index.definitions_named(func):
        for use in index.facts(definition.path).get("registry_uses", []):
            if use["role"] == "write" and definition.data["line"] <= use["line"] <= definition.data["end"]:
                names.append((use["name"], definition.path))
    return names


def _imports_name(facts: PythonFacts, module: str, name: str) -> bool:
    return facts.get("imports", {}).get(name) == f"{module}.{name}"


def read_registry(index: ProjectIndex, relpath: str, registry: RegistryFact) -> RegistryReading:
    """How the registry is read; once per run for a registry spread over many modules."""
    if registry["form"] in ("dict", "table", "enum", "setitem"):
        return _read_registry(index, relpath, registry)
    memo: dict[tuple[str, str], RegistryReading] = index.derived.setdefault("registry_readings", {})
    key = (registry["name"], registry["form"])
    if key not in memo:
        memo[key] = _read_registry(index, relpath, registry)
    return memo[key]


def _read_registry(index: ProjectIndex, relpath: str, registry: RegistryFact) -> RegistryReading:
    reading = RegistryReading()
    for name, owner in _storage_names(index, registry):
        owner = owner or relpath
        module = index.entries.get(owner, {}).get("module", "")
        for path, use in index.registry_uses(name):
            if path != owner and not _imports_name(index.facts(path), module, name):
                continue
            if index.location(path) is Location.VALIDATION:
                continue
            where = f"{path}:{use['line']}"
            role, detail = use["role"], use["detail"]
            if role == "lookup":
                if detail == "attribute":
                    reading.attribute_keys = reading.attribute_keys or where
                elif detail == "classname":
                    reading.class_name_keys = reading.class_name_keys or where
                elif detail == "external":
                    reading.external_keys = reading.external_keys or where
                elif detail == "user":
                    reading.user_keys = reading.user_keys or where
                elif detail.startswith("pattern:"):
                    reading.patterns.append((detail.partition(":")[2], where))
            elif role == "enumerate":
                if detail == "passed":
                    reading.exposed = reading.exposed or where
                elif detail == "transfer":
                    reading.copied = reading.copied or where
        for hit in index.hits(name):
            if hit.via == "attr" and index.location(hit.path) is Location.PRODUCTION:
                reading.attribute_access = reading.attribute_access or f"{hit.path}:{hit.line}"
                break
    if not reading.class_name_keys and not reading.attribute_keys:
        reading.outside_keys = _keys_come_from_outside(index, relpath, registry)
    return reading


@dataclass
class EntryEvidence:
    """An entry's verdict plus what the message needs to say about it."""

    verdict: Verdict
    target: Definition | None
    key_consumers: list[Consumer]
    target_consumers: list[Consumer]


def _registry_span(relpath: str, registry: RegistryFact, entry: RegistryEntryFact) -> tuple[str, int, int]:
    if registry["form"] in ("dict", "table", "enum"):
        return (relpath, registry["line"], registry["end"])
    return (relpath, entry["span"][0], entry["span"][1])


def judge_entry(
    index: ProjectIndex,
    settings: OmniSettings,
    relpath: str,
    registry: RegistryFact,
    entry: RegistryEntryFact,
    reading: RegistryReading,
) -> EntryEvidence | None:
    """Evidence for one entry; None when the entry's target is not project code (a data map)."""
    target = index.resolve_target(entry["target"], entry["suffix"]) if entry["target"] else None
    if entry["target"] and target is None and not entry["suffix"]:
        return None
    own = [_registry_span(relpath, registry, entry)]
    key = entry["key"]
    key_consumers = consumers_of(index, [key], own)
    target_consumers: list[Consumer] = []
    if target is not None:
        spans = [*own, (target.path, target.data["line"], target.data["end"])]
        target_consumers = consumers_of(index, [target.data["name"], target.dotted], spans)
    seen = {(c.path, c.line) for c in key_consumers}
    consumers = key_consumers + [c for c in target_consumers if (c.path, c.line) not in seen]

    externally_keyed = bool(reading.external_keys or reading.outside_keys) or key_matches_patterns(
        key, settings.external_key_patterns
    )
    reject: list[str] = []
    medium: list[str] = []
    names = [key, *([target.data["name"], target.dotted] if target is not None else [])]
    declaring = next((c for n in names if (c := contracts_of(index).declaring_extension_point(n))), None)
    if declaring is not None:
        reject.append(f"the active design contract {declaring.describe()} declares it a boundary or extension point")
    # Keys read as module attributes (`envs.X` through `__getattr__`) are named by code, not typed by users.
    self_documented = any(c.via == "doc" for c in key_consumers)
    documented = None if reading.attribute_keys or self_documented else _documented_sibling(index, relpath, registry)
    if documented and not key_matches_patterns(key, settings.external_key_patterns):
        reject.append(
            f"the docs list keys of {registry['name']} as user-facing choices ({documented}); "
            "an unlisted key is more likely missing from the docs than dead"
        )
    if reading.exposed:
        reject.append(f"the whole registry is handed out or enumerated at {reading.exposed}; every key is reachable")
    for pattern, where in reading.patterns:
        if pattern.strip("*") == "" or fnmatch.fnmatchcase(key, pattern):
            reject.append(f"keys are built dynamically (shape '{pattern}') at {where}; this key may be built")
    if reading.class_name_keys:
        if any(d.kind == "class" for d in index.definitions_named(key)):
            live = Verdict(Status.LIVE, None, f"keyed by class name at {reading.class_name_keys}; class {key} exists")
            return EntryEvidence(live, target, key_consumers, target_consumers)
        if not consumers and not reject and not externally_keyed:
            proof = f"keyed by class name at {reading.class_name_keys}, and no class named {key} exists in the project"
            return EntryEvidence(Verdict(Status.CANDIDATE, "high", proof), target, key_consumers, target_consumers)
    if reading.outside_keys:
        medium.append(reading.outside_keys)
    if reading.user_keys:
        medium.append(f"keys may come from an environment variable or CLI argument at {reading.user_keys}")
    if reading.copied:
        medium.append(f"entries are copied into another table at {reading.copied}; its lookups were not followed")
    if reading.attribute_access:
        medium.append(f"the registry is also reached as an attribute at {reading.attribute_access}; those lookups were not analysed")
    verdict = judge(
        consumers,
        externally_keyed=externally_keyed,
        documented_rejects=self_documented,
        reject_reasons=reject,
        medium_reasons=medium,
    )
    return EntryEvidence(verdict, target, key_consumers, target_consumers)
