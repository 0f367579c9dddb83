"""Which reads of a registry can produce one key: the per-key half of the read-path judgment.

Each read's key source says which keys it can produce (`read_paths.Read.source`):
- `lit:K` only K (a literal at the read, or one every caller passes);
- `pattern:S` keys matching the shape S (`f"{m}_linear"`);
- `classname` keys naming a class whose instances can reach the read: a project
  class of that name, or a class of an indexed upstream package when no key of the
  table names a project class (one a package may define that the index cannot
  read, or read at another version: unknown);
- `attribute` (a module `__getattr__` table) keys that code reads as `module.KEY`,
  `from module import KEY`, `getattr(module, "KEY")` or a `"module.KEY"` string;
- `external` / `user:...` keys chosen outside the repository (checkpoints, users);
- anything else (a config field, an untraced value): keys that production code
  or configuration names as a string — a key of another dict display (a sibling
  table keyed by the same names), the entry's own lines and prose are not; for a
  config field `config:F` that the project's data files hold, a data file names a
  key only as F's value.
Never the target: an alias key is not alive because its class is used elsewhere.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from pylint_omni.evidence.consumers import Consumer, consumer_of
from pylint_omni.index.derived import Derived
from pylint_omni.index.graph import ReferenceGraph
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import Hit, ProjectIndex
from pylint_omni.index.upstream import upstream_of, version_doubts
from pylint_omni.registries.read_paths import Read, ReadPaths

MENTION_VIAS = frozenset({"str", "yaml-value", "yaml-key", "json", "toml", "script", "fstr"})
DATA_VIAS = frozenset({"yaml-value", "json"})  # the data files whose scan keeps each field's values
ATTRIBUTE_VIAS = frozenset({"load", "call", "import", "getattr", "hop", "str", "yaml-value", "json", "toml", "fstr", "resolver", "import_module", "doc"})


@dataclass
class KeyReach:
    """What the reads say of one key."""

    consumers: list[Consumer] = field(default_factory=list)  # places that produce the key and reach a read
    proofs: list[str] = field(default_factory=list)  # why a read reaches it (live)
    outside: list[str] = field(default_factory=list)  # reads keyed from outside data
    user: list[str] = field(default_factory=list)  # reads keyed by user input
    patterns: list[str] = field(default_factory=list)  # shapes it fits
    unknown: list[str] = field(default_factory=list)  # class-name reads whose classes may live upstream, not indexed
    unrelated: list[Hit] = field(default_factory=list)  # name-only mentions that reach no read
    no_match: list[str] = field(default_factory=list)  # reads that cannot produce it, with their key source
    # data files holding the key as another field's value than the one a read is keyed by: `file:line (model_name,
    # not tool_parser)`; prose naming the key may mean that other thing
    other_fields: list[str] = field(default_factory=list)


def consumer_at(index: ProjectIndex, path: str, line: int, via: str, token: str) -> Consumer:
    return consumer_of(index, Hit(path, line, via), token)


def _sibling_key(index: ProjectIndex, hit: Hit, key: str) -> bool:
    return hit.line in (index.facts(hit.path).get("links") or {}).get("dict_keys", {}).get(key, ())


def key_mentions(index: ProjectIndex, key: str, own: list[tuple[str, int, int]]) -> tuple[list[Hit], list[Hit]]:
    """(mentions that can feed an untraced read, name-only ones that cannot: sibling keys, prose)."""
    feeding, other = [], []
    for hit in index.hits(key):
        if any(hit.path == p and a <= hit.line <= b for p, a, b in own):
            continue
        if hit.via in MENTION_VIAS and _sibling_key(index, hit, key):
            continue  # a key of another table keyed by the same names: not a use, not a mention
        if hit.via in MENTION_VIAS:
            feeding.append(hit)
        elif hit.via not in ("import", "all", "store", "attr-store"):
            other.append(hit)
    return feeding, other


def _classes_named(index: ProjectIndex, key: str, own_classes_keyed: bool) -> tuple[str | None, str | None]:
    """(a class of that name that can reach a read, a doubt).

    A project class of that name can. So can a class an indexed upstream package
    defines, when the table is keyed by outside classes (none of its keys names a
    project class): the package hands the project objects of classes it never names
    (llm-compressor's AWQ mappings, keyed by the transformers models `from_pretrained`
    builds). A table whose other keys name the project's own classes is keyed by the
    classes the project builds: an upstream class of a key's name is not one of them
    (vLLM-Omni keys `WanPipeline`, a diffusers class, where its own pipeline is
    `Wan22Pipeline`). A name no indexed package defines may still be a class of a
    package the index cannot read, or of the version the project pins where the index
    read another: a doubt; so is a class the project names that no index places.
    """
    project = next((d for d in index.definitions_named(key) if d.kind == "class"), None)
    if project is not None:
        return f"class {key} exists ({project.path}:{project.data['line']})", None
    upstream = upstream_of(index)
    defined = next(iter(upstream.classes_named(key)), None)
    if defined is not None and not own_classes_keyed:
        package, found = defined
        return (f"{package.name} {package.version} defines {found.dotted}, and objects of its classes reach the project "
                "without it naming each (a factory builds the class a checkpoint or config names)"), None
    named = [h for h in index.hits(key) if h.via in ("import", "name", "attr", "call", "base") and index.location(h.path) is Location.PRODUCTION]
    if defined is not None and named:
        package, found = defined
        return f"{package.name} {package.version} defines {found.dotted} and the project refers to it ({named[0].path}:{named[0].line})", None
    if defined is not None:
        return None, None
    elsewhere = [f"{name} ({why})" for name, why in version_doubts(index).items()] + [
        f"{name} (not installed where pylint runs)" for name in upstream.missing]
    if elsewhere and not own_classes_keyed:
        return None, f"no indexed package defines a class {key}, but {elsewhere[0]} may"
    if named:
        return None, f"the project names a class {key} at {named[0].path}:{named[0].line} that the index cannot place"
    return None, None


def own_classes_keyed(index: ProjectIndex, keys: list[str]) -> bool:
    """Whether some key of a table names a class of the project (a table of the classes the project builds)."""
    return any(d.kind == "class" for key in keys for d in index.definitions_named(key))


def reach(index: ProjectIndex, graph: ReferenceGraph, paths: ReadPaths, key: str, module: str,
          own: list[tuple[str, int, int]], own_keyed: bool = False) -> KeyReach:
    """What the registry's reads say of `key` (see the module docstring)."""
    found = KeyReach()
    feeding: list[Hit] | None = None
    for read in paths.reads:
        kind, _, rest = read.source.partition(":")
        if kind == "lit":
            if rest == key:
                found.consumers.append(consumer_at(index, read.path, read.line, "key", key))
            else:
                found.no_match.append(read.describe())
        elif kind == "pattern":
            if rest.strip("*") == "" or fnmatch.fnmatchcase(key, rest):
                found.patterns.append(f"'{rest}' at {read.where}")
            else:
                found.no_match.append(read.describe())
        elif kind == "classname":
            live, doubt = _classes_named(index, key, own_keyed)
            if live:
                found.proofs.append(f"keyed by class name at {read.where}; {live}")
                if not read.validation:
                    found.consumers.append(consumer_at(index, read.path, read.line, "classname", key))
            elif doubt:
                found.unknown.append(f"keyed by class name at {read.where}; {doubt}")
            else:
                found.no_match.append(f"{read.describe()}, and " + (
                    f"no project class is named {key}; the table's other keys name the project's own classes, so an "
                    "outside class of that name never reaches it" if own_keyed else
                    f"no class named {key} is defined in the project or an indexed package"))
        elif kind == "attribute":
            found.consumers += attribute_consumers(index, graph, f"{module}.{key}", own)
            found.consumers += _same_named_module_reads(index, module, key, own)
            found.consumers += [  # `__getattr__("KEY")` called directly
                consumer_at(index, site.path, site.line, "call", key)
                for site in graph.calls_to(f"{module}.__getattr__") if site.argument(0, "name") == f"s:{key}"
            ]
        elif kind == "external":
            found.outside.append(read.where)
        elif kind == "user":
            found.user.append(read.describe())
        else:
            if feeding is None:
                feeding, other = key_mentions(index, key, own)
                found.unrelated = other
            selecting = [h for h in feeding if kind != "config" or _sets_field(index, h, rest, key)]
            for hit in (h for h in feeding if h not in selecting and h not in found.unrelated):  # once per hit, not per read
                found.unrelated.append(hit)
                found.other_fields.append(f"{hit.path}:{hit.line} ({_fields_holding(index, hit.path, key)}, not {rest})")
            found.consumers += [consumer_at(index, h.path, h.line, h.via, key) for h in selecting]
    if feeding is None:
        feeding, other = key_mentions(index, key, own)
        found.unrelated = [h for h in [*feeding, *other] if not any(c.path == h.path and c.line == h.line for c in found.consumers)]
    return found


def _field_values(index: ProjectIndex, path: str) -> dict[str, list[str]]:
    """Field name -> the short string values a data file gives it (`scan.data_scan.FieldValues`)."""
    return (index.entries.get(path, {}).get("facts") or {}).get("field_values", {})


def _data_fields(index: ProjectIndex) -> frozenset[str]:
    """Every field name the project's data files (JSON, YAML) give a string value."""
    return frozenset(field for path in index.entries for field in _field_values(index, path))


DATA_FIELDS = Derived("registries.data_fields", _data_fields)


def _sets_field(index: ProjectIndex, hit: Hit, field: str, key: str) -> bool:
    """Whether a mention can feed a read keyed by the configuration field `field`: in a data file, only as that
    field's value (`"tool_parser": "qwen"`), once the project's data files hold the field at all; the key's text
    as another field's value (a `model_name`) selects nothing."""
    if hit.via not in DATA_VIAS or field not in DATA_FIELDS.of(index):
        return True
    return key in _field_values(index, hit.path).get(field, ())


def _fields_holding(index: ProjectIndex, path: str, key: str) -> str:
    return ", ".join(name for name, held in _field_values(index, path).items() if key in held) or "another field"


def attribute_consumers(index: ProjectIndex, graph: ReferenceGraph, dotted: str, own: list[tuple[str, int, int]]) -> list[Consumer]:
    """Reads of a module attribute served by `__getattr__`: `mod.KEY`, `from mod import KEY`, `"mod.KEY"`."""
    found = []
    for ref in graph.refs_to(dotted):
        if ref.via not in ATTRIBUTE_VIAS or any(ref.path == p and a <= ref.line <= b for p, a, b in own):
            continue
        if ref.via == "import" and index.location(ref.path) is Location.PRODUCTION and _only_reexported(index, ref.path, dotted):
            continue
        found.append(consumer_at(index, ref.path, ref.line, ref.via if ref.via != "hop" else "import", dotted.rpartition(".")[2]))
    return found


def _same_named_module_reads(index: ProjectIndex, module: str, key: str, own: list[tuple[str, int, int]]) -> list[Consumer]:
    """`envs.KEY` where `envs` is a module loaded some other way (`load_module_from_path("envs", ...)`):
    the receiver carries the module's own name, which the graph cannot resolve but a reader would."""
    tail = module.rpartition(".")[2]
    found = []
    for hit in index.hits(key):
        if hit.via != "attr" or any(hit.path == p and a <= hit.line <= b for p, a, b in own):
            continue
        if any(line == hit.line and via == "name" for line, via in index.occurrences(hit.path, tail)):
            found.append(consumer_at(index, hit.path, hit.line, "attr", key))
    return found


def _only_reexported(index: ProjectIndex, path: str, dotted: str) -> bool:
    """An `__init__` that imports the name only to list it in `__all__` re-exports it; it uses nothing."""
    name = dotted.rpartition(".")[2]
    return path.endswith("__init__.py") and name in ((index.facts(path).get("links") or {}).get("all") or ())


def reads_summary(reads: list[Read], limit: int = 2) -> str:
    shown = "; ".join(r.describe() for r in reads[:limit])
    return shown + (f" and {len(reads) - limit} more" if len(reads) > limit else "")
