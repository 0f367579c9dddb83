"""Who reads an option: `readers_of(index, option)`, the one query behind `unread-config-option`.

Readers are the production reads of the option's name — `.name`, a literal
`getattr(x, "name")`, string keys read (`cfg["name"]`, `cfg.get("name")`, `"name" in cfg`)
— conservatively: a read counts unless the reference graph says it belongs to
something else. For each `.name` read the graph gives its owners
(`ReferenceGraph.attribute_reads`: `self`, annotated parameters, constructor results,
class and module paths); the read is not the option's when every owner on that line is
- a project class outside the option's class hierarchy that declares or assigns the
  name itself (a CLI, environment or config-file option has no class: any such class), or
- a module's own attribute (`torch.backends.xnnpack.enabled`), unless it is the module
  that declares the option.
A receiver of unknown class keeps the read a reader, exactly as without the graph;
so does a class outside the project (the graph cannot tell what it holds). A string
that is only written (a dict literal key, `d["name"] = v`) is not a read.
Reads that copy the value into another owner (`Other(name=cfg.name)`,
`self.name = cfg.name`) are kept apart as copies, so the judgment can follow them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pylint_omni.evidence.consumers import CONFIG_VIAS, Consumer, ConsumerKind, consumer_of
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Derived
from pylint_omni.index.graph import AttributeRead, graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Hit, ProjectIndex

SCANNER_KEY = "configuration.options"
READ_VIAS = frozenset({"attr", "getattr", "str", "call", "fstr"})
SPECIFIC = re.compile(r"[_\-\d]|[a-z][A-Z]")  # snake_case, kebab-case, digits, camelCase: a name, not a word
NEAR_LINES = 5  # lines around a plain word in the docs where its owner must be named for it to document the option


@dataclass(frozen=True)
class Option:
    """One option surface: what is read by which name, and where it is declared."""

    kind: str  # "field", "cli", "env", "yaml"
    name: str  # the name a reader uses (field, dest, constant, key)
    relpath: str
    line: int
    owner: str = ""  # dotted class of a field; the parser module of a CLI option
    spellings: tuple[str, ...] = ()  # other names users write (`--max-batch`, the env var)


@dataclass
class Readers:
    """What reads one option, by kind."""

    production: list[Consumer] = field(default_factory=list)
    validation: list[Consumer] = field(default_factory=list)
    copies: list[tuple[Consumer, str, str]] = field(default_factory=list)  # (where, target class, target field)
    documented: list[Consumer] = field(default_factory=list)
    configured: list[Consumer] = field(default_factory=list)  # set in YAML/JSON/TOML (a writer, not a reader)
    forwarded: list[Consumer] = field(default_factory=list)  # production lists of field names handing it on by name
    discounted: list[str] = field(default_factory=list)  # reads of the name on unrelated classes


class ReaderIndex:
    """Per-run lookups over the configuration facts of every file."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self.graph = class_graph(index)
        self.references = graph_of(index)
        self._writers: dict[str, set[tuple[str, int]]] = {}
        self._copies: dict[str, dict[tuple[str, int], list[list[Any]]]] = {}
        self._related: dict[str, set[str]] = {}
        self._holds: dict[tuple[str, str], bool] = {}
        self._reads: dict[tuple[str, int, str], list[AttributeRead]] = {}
        self.fields: dict[str, str] = {}  # field name -> "Class.field (path:line)" of the first config class declaring it
        self.field_owners: dict[str, list[str]] = {}  # field name -> the dotted config classes declaring it
        self.cli: dict[str, str] = {}  # CLI destination -> "--flag (path:line)" of a production parser
        self.model_fields: set[str] = set()  # field names of the other data models (`scan.model_fields`)
        for rel, _ in index.python_files():
            facts = index.extra(rel, SCANNER_KEY) or {}
            module = index.entries.get(rel, {}).get("module", "")
            if index.location(rel) is Location.PRODUCTION:
                self.model_fields.update(facts.get("model_fields", ()))
            for klass in facts.get("classes", []):
                for name, line, *_ in klass["fields"]:
                    self.fields.setdefault(name, f"{klass['name']}.{name} ({rel}:{line})")
                    self.field_owners.setdefault(name, []).append(f"{module}.{klass['name']}")
            if index.location(rel) is Location.PRODUCTION:
                for dest, flags, line, *_ in facts.get("cli", []):
                    self.cli.setdefault(dest, f"{flags[0]} ({rel}:{line})")

    def facts(self, relpath: str) -> dict[str, Any]:
        return self.index.extra(relpath, SCANNER_KEY) or {}

    def writers(self, relpath: str) -> set[tuple[str, int]]:
        """(key, line) where a string key is only written: a line that also reads the key reads it."""
        found = self._writers.get(relpath)
        if found is None:
            facts = self.facts(relpath)
            read = {(key, line) for key, line in facts.get("reader_keys", [])}
            found = self._writers[relpath] = {(key, line) for key, line in facts.get("writer_keys", [])} - read
        return found

    def name_lists(self, relpath: str) -> set[tuple[str, int]]:
        """(name, line) of the strings of a file's literal lists of field names (`scan`: `name_lists`)."""
        return {(name, line) for name, line in self.facts(relpath).get("name_lists", [])}

    def copies(self, relpath: str) -> dict[tuple[str, int], list[list[Any]]]:
        found = self._copies.get(relpath)
        if found is None:
            found = self._copies[relpath] = {}
            for attr, encoded in self.facts(relpath).get("copies", {}).items():
                for item in encoded.split(","):
                    line, target, keyword = item.split(":")
                    found.setdefault((attr, int(line)), []).append([target, keyword])
        return found

    def attribute_reads(self, relpath: str, line: int, attr: str) -> list[AttributeRead]:
        """The reference graph's reads of `.attr` on one line, once: options of many classes share a field name,
        so the same line is asked for each of them."""
        key = (relpath, line, attr)
        found = self._reads.get(key)
        if found is None:
            found = self._reads[key] = self.references.attribute_reads(relpath, line, attr)
        return found

    def related(self, owner: str) -> set[str]:
        """Dotted classes of the option's class hierarchy (the class, its ancestors and descendants)."""
        found = self._related.get(owner)
        if found is None:
            found = self._related[owner] = {owner, *self.graph.ancestors(owner), *self.graph.descendants(owner)}
        return found

    def elsewhere(self, read: AttributeRead, option: Option) -> bool:
        """Whether a resolved read belongs to something other than the option (see the module docstring)."""
        if read.kind == "module":
            return read.owner != option.owner
        if read.kind != "class":
            return False  # a receiver of unknown class, or a class outside the project
        if option.kind == "field" and read.owner in self.related(option.owner):
            return False
        return self.holds(read.owner, option.name)

    def holds(self, dotted: str, name: str) -> bool:
        """Whether the project class `dotted` (or a project base) declares or assigns `name`."""
        key = (dotted, name)
        if key not in self._holds:
            lineage = [self.graph.nodes[d].definition for d in (dotted, *self.graph.ancestors(dotted)) if d in self.graph.nodes]
            self._holds[key] = any(
                name in self.facts(d.path).get("owned", {}).get(f"{d.data['name']}:{d.data['line']}", ()) for d in lineage
            )
        return self._holds[key]


def reader_index(index: ProjectIndex) -> ReaderIndex:
    return _READERS.of(index)


_READERS: Derived[ReaderIndex] = Derived("configuration.readers", ReaderIndex)


def _attribute_read(lookups: ReaderIndex, hit: Hit, option: Option) -> str | None:
    """None when an `attr` hit may read the option; else what the reads on that line belong to."""
    reads = lookups.attribute_reads(hit.path, hit.line, option.name)
    if not all(lookups.elsewhere(read, option) for read in reads):
        return None
    return ", ".join(sorted({f"{'module ' if r.kind == 'module' else ''}{r.owner}" for r in reads}))


def _documents(index: ProjectIndex, hit: Hit, token: str, option: Option) -> bool:
    """A docs mention documents the option when the name is specific (`lora_path`, `log-file`), or when a plain
    word (`process`) appears near its owner (the class, the parent section) in the same page."""
    sections = option.owner.split(".")
    if SPECIFIC.search(token) or not option.owner or (option.kind == "yaml" and len(sections) < 2):
        return True  # a top-level key has no section to be near
    owner = option.owner.rpartition(".")[2].removesuffix("[]") if option.kind != "yaml" else sections[-2].removesuffix("[]")
    return any(abs(line - hit.line) <= NEAR_LINES for line, _ in index.occurrences(hit.path, owner))


def readers_of(index: ProjectIndex, option: Option, exclude: tuple[int, int] | None = None) -> Readers:
    """Every reader of `option` the index can see (`exclude`: the declaration's own lines)."""
    lookups = reader_index(index)
    found = Readers()
    seen: set[tuple[str, int]] = set()
    for token in (option.name, *option.spellings):
        for hit in index.hits(token):
            if (hit.path, hit.line) in seen:
                continue
            if hit.path == option.relpath and exclude and exclude[0] <= hit.line <= exclude[1]:
                continue
            # Where a hit is no reader at all, its kind is never asked (half a million hits on FastVideo).
            if hit.via == "doc":
                if _documents(index, hit, token, option):
                    found.documented.append(consumer_of(index, hit, token))
                continue
            if hit.via in CONFIG_VIAS:
                found.configured.append(consumer_of(index, hit, token))
                continue
            if hit.via not in READ_VIAS or (token != option.name and hit.via not in ("str", "fstr")):
                continue
            if hit.via == "str" and (token, hit.line) in lookups.writers(hit.path):
                continue  # a key written, not read
            consumer = consumer_of(index, hit, token)
            if (option.kind == "field" and hit.via == "str" and consumer.kind is ConsumerKind.PRODUCTION
                  and (token, hit.line) in lookups.name_lists(hit.path)):
                found.forwarded.append(consumer)  # handed on by name: read only if where it lands is read
            elif hit.via in ("attr", "call") and (other := _attribute_read(lookups, hit, option)) is not None:
                found.discounted.append(f"{hit.path}:{hit.line} reads `.{token}` of {other}")
            else:
                seen.add((hit.path, hit.line))
                copies = lookups.copies(hit.path).get((token, hit.line), []) if hit.via == "attr" else []
                if copies and consumer.kind is ConsumerKind.PRODUCTION:
                    found.copies += [(consumer, target, keyword) for target, keyword in copies]
                elif consumer.kind is ConsumerKind.VALIDATION:
                    found.validation.append(consumer)
                else:
                    found.production.append(Consumer(hit.path, hit.line, hit.via, ConsumerKind.PRODUCTION, token))
    return found
