"""Keys of the config files the package ships (deploy/stage YAML) that no production code reads.

A YAML file is the package's own config when production code names it: its file
name, a folder above it (`"pkg/stage_configs/"`, f-string parts included) or a glob
that matches it; files only other tools read stay out: by their name (CI, docker-compose, docs builds), by the
top-level keys another program's schema requires (`FOREIGN_SCHEMAS`: Grafana provisioning, Prometheus, Kubernetes
manifests, ...: the project ships them for that program, whose code reads every key), or inside a Helm chart. Its keys (with their place, `stages[].runtime.process`, from the
index's YAML facts) are grouped by place across files. A key is read when production
code reads its name (`.process`, `["process"]`, `.get("process")`, through
`readers_of`), when a config class has a field of that name (a loader maps keys onto
fields: the field is judged instead) or another data model of the package does (a file
loaded into a pydantic model is read by it, and by whatever it is served to), or when a section above it is consumed
generically (`**section`, `section.items()`, `for key in section`, `x.update(section)`,
under the section's name or a local holding it), which also covers sections handed to
upstream constructors. Keys at the top of a file (no section) are not judged: the file
itself may be handed out whole; nor are keys under a key of data (`*`, a version range, a
metric name: `DATA_KEY`), a lookup table's entries read by computed keys. Only the highest unread key of a branch is reported.

Findings are emitted on the `__init__.py` of the package that holds the first file
(the top-level package's for files outside any package), one per key place.
"""

from __future__ import annotations

import fnmatch
import re

from dataclasses import dataclass, field

from pylint_omni.configuration.judge import Judgment, finish_candidate
from pylint_omni.configuration.readers import SCANNER_KEY, Option, Readers, reader_index, readers_of
from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex

TOOL_FILES = frozenset({"mkdocs", "codecov", "docker-compose", "compose", "environment", "conda", "action", "dependabot", "readthedocs"})
# Another program's config, told by the top-level keys its schema requires (any one set of a program's). YAML 1.1
# reads a bare `on:` key as True.
FOREIGN_SCHEMAS: dict[str, tuple[frozenset[str], ...]] = {
    "Kubernetes": (frozenset({"apiVersion", "kind"}),),
    "Grafana provisioning": tuple(frozenset({"apiVersion", key}) for key in (
        "datasources", "deleteDatasources", "providers", "apps", "notifiers", "contactPoints", "policies", "groups")),
    "Prometheus": (frozenset({"scrape_configs"}), frozenset({"rule_files", "global"})),
    "Alertmanager": (frozenset({"route", "receivers"}),),
    "OpenTelemetry collector": (frozenset({"receivers", "exporters", "service"}),),
    "GitHub Actions": (frozenset({"on", "jobs"}), frozenset({"True", "jobs"})),
    "OpenAPI": (frozenset({"openapi", "paths"}), frozenset({"swagger", "paths"})),
    "pre-commit": (frozenset({"repos"}),),
}
HELM_CHART = "Chart.yaml"
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# A key no option is named so (`*`, `>=0.5`, `gpustack:requests`, `v1.2`): the section it opens is a lookup table
# keyed by data, read by computed keys (`table.get(name)`), and what lies under it is data too.
DATA_KEY = re.compile(r"[*:<>=@/\s]|^\d")
GENERIC = frozenset({"**", "items", "keys", "values", "merge"})

Finding = tuple[Option, Judgment, int, str, list[str]]


@dataclass(frozen=True)
class ReadKey:
    """A key of a shipped config file that production code reads: where it is set, and who reads it."""

    option: Option
    readers: Readers
    files: tuple[tuple[str, int], ...]


@dataclass
class YamlKeys:
    """Every shipped key judged: the unread ones by the `__init__.py` that carries them, and the read ones."""

    findings: dict[str, list[Finding]] = field(default_factory=dict)
    read: list[ReadKey] = field(default_factory=list)


def _loaded(relpath: str, fragments: set[str]) -> bool:
    """Whether a path string of the code names the file, a folder above it, or a glob that matches it."""
    name = relpath.rpartition("/")[2]
    parts = relpath.split("/")
    folders = {"/".join(parts[i:j]) for j in range(1, len(parts)) for i in range(j)}
    if name.startswith(".") or name.partition(".")[0] in TOOL_FILES:
        return False  # configuration of other tools (CI, docs builds, linters, containers)
    for fragment in fragments:
        text = fragment.removeprefix("./").strip("/")
        if "*" in text and not re.search(r"[\w-]{3,}[/.]", text.replace("yaml", "").replace("yml", "")):
            continue  # `*.yaml` names no file of its own
        if name in text.split("/") or text in folders or any(text.endswith("/" + f) or text == f for f in folders if "/" in f):
            return True
        if "*" in text and (fnmatch.fnmatchcase(relpath, text) or fnmatch.fnmatchcase(relpath, "*/" + text)):
            return True
    return False


def foreign_program(index: ProjectIndex, relpath: str, top_keys: set[str]) -> str | None:
    """The program whose config the file is (its schema's top-level keys, or a Helm chart around it), or None."""
    found = next((program for program, schemas in FOREIGN_SCHEMAS.items() if any(s <= top_keys for s in schemas)), None)
    if found is not None:
        return found
    folder = relpath.rpartition("/")[0]
    while folder:
        if f"{folder}/{HELM_CHART}" in index.entries:
            return "Helm"
        folder = folder.rpartition("/")[0]
    return None


def _top_keys(entry: dict) -> set[str]:
    return {path for path, _ in entry.get("facts", {}).get("key_paths", []) if "." not in path and "[" not in path}


def _bundled(index: ProjectIndex) -> list[str]:
    """The production YAML files that production code names (by file, folder or glob)."""
    fragments: set[str] = set()
    for rel, _ in index.python_files():
        if index.location(rel) is Location.PRODUCTION:
            fragments.update(_parts_of(f) for f in (index.extra(rel, SCANNER_KEY) or {}).get("paths", []))
    found = []
    for rel, entry in index.entries.items():
        if entry.get("kind") == "yaml" and index.location(rel) is Location.PRODUCTION and "key_paths" in entry.get("facts", {}):
            if foreign_program(index, rel, _top_keys(entry)) is not None:
                continue  # shipped for another program, which reads its keys
            if _loaded(rel, fragments) or any(h.via in ("str", "fstr") and index.location(h.path) is Location.PRODUCTION
                                              for h in index.hits(rel.rpartition("/")[2])):
                found.append(rel)
    return sorted(found)


def _parts_of(fragment: str) -> str:
    """An f-string part keeps its braces out: `pkg/stage_configs/{device}/` -> `pkg/stage_configs`."""
    return fragment.split("{", 1)[0].rstrip("/") if "{" in fragment else fragment


def _anchor(index: ProjectIndex, relpath: str) -> str | None:
    """The `__init__.py` that carries findings about a file: its package's, else the first top-level package's."""
    folder = relpath.rpartition("/")[0]
    while folder:
        candidate = f"{folder}/__init__.py"
        if candidate in index.entries:
            return candidate
        folder = folder.rpartition("/")[0]
    tops = sorted(rel for rel in index.entries if rel.count("/") == 1 and rel.endswith("/__init__.py")
                  and index.location(rel) is Location.PRODUCTION)
    return tops[0] if tops else None


def _generic_sections(index: ProjectIndex) -> dict[str, str]:
    """Section name -> where production code consumes it generically."""
    found: dict[str, str] = {}
    for rel, _ in index.python_files():
        if index.location(rel) is not Location.PRODUCTION:
            continue
        for name, line, how in (index.extra(rel, SCANNER_KEY) or {}).get("whole", []):
            if how in GENERIC or how == "for":
                found.setdefault(f"{name}|{'for' if how == 'for' else 'map'}", f"{rel}:{line} ({how} {name})")
    return found


def _generic_above(segments: list[str], generic: dict[str, str]) -> str | None:
    """Where a section above the key (not the key itself) is consumed generically."""
    for segment in segments[:-1]:
        name, is_list = segment.removesuffix("[]"), segment.endswith("[]")
        where = generic.get(f"{name}|map") or (None if is_list else generic.get(f"{name}|for"))
        if where:
            return where
    return None


def _all_keys(index: ProjectIndex) -> YamlKeys:
    places: dict[str, list[tuple[str, int]]] = {}
    shared: set[str] = set()  # sections an anchor and its aliases hold: read wherever an alias stands
    for rel in _bundled(index):
        for path, line in index.entries[rel]["facts"]["key_paths"]:
            places.setdefault(path, []).append((rel, line))
        shared.update(index.entries[rel]["facts"].get("shared_keys", ()))
    generic = _generic_sections(index)
    known = reader_index(index)
    fields, models = known.fields, known.model_fields
    unread: set[str] = set()
    judged = YamlKeys()
    by_anchor = judged.findings
    for path in sorted(places, key=lambda p: (p.count("."), p)):
        segments = path.split(".")
        if "" in segments or any(segment.startswith("x-") for segment in segments) or any(
                ".".join(segments[:n]) in shared for n in range(1, len(segments) + 1)):
            continue  # a template key (`.base_spec: &spec`, compose's `x-` fields, an anchored section): YAML reads it through its aliases
        key = segments[-1].removesuffix("[]")
        if segments[0].startswith("[]") or not IDENTIFIER.match(key) or key in fields or key in models:
            continue  # a loader maps the key onto a field: the field is judged instead (config), or served (a model)
        if len(segments) < 2:  # a top-level key is never judged (the file may be handed out whole), but a read one feeds
            option = Option("yaml", key, places[path][0][0], places[path][0][1], path)
            readers = readers_of(index, option)
            if readers.production:
                judged.read.append(ReadKey(option, readers, tuple(places[path])))
            continue
        if any(".".join(segments[:n]) in unread for n in range(1, len(segments))):
            continue  # a section above is unread already
        if any(DATA_KEY.search(segment.removesuffix("[]")) for segment in segments[:-1]):
            continue  # under a key of data: a lookup table's entries
        if _generic_above(segments, generic):
            continue
        files = places[path]
        option = Option("yaml", key, files[0][0], files[0][1], path)
        readers = readers_of(index, option)
        if readers.production or readers.copies:
            judged.read.append(ReadKey(option, readers, tuple(files)))
            continue
        readers.configured = [c for c in readers.configured if (c.path, c.line) not in set(files)]
        judgment = finish_candidate(readers, [], [], [], "high")
        unread.add(path)
        anchor = _anchor(index, files[0][0])
        if anchor is None:
            continue
        folder = anchor.rpartition("/")[0] + "/"
        first = f"{files[0][0].removeprefix(folder)}:{files[0][1]}"
        count = len({rel for rel, _ in files})
        where = f"`{path}` ({len(files)} places in {count} file(s), e.g. {first})" if len(files) > 1 else f"`{path}` ({first})"
        surface = [f"{rel}:{line} {path}" for rel, line in files]
        by_anchor.setdefault(anchor, []).append((option, judgment, len(files), where, surface))
    return judged


YAML_KEYS: Derived[YamlKeys] = Derived("configuration.yaml", _all_keys)


def judge_yaml_keys(index: ProjectIndex) -> dict[str, list[Finding]]:
    """Every deploy-config finding, by the `__init__.py` that carries it (once per index state)."""
    return YAML_KEYS.of(index).findings


def read_yaml_keys(index: ProjectIndex) -> list[ReadKey]:
    """The shipped keys production code reads (once per index state): feeds of lost features."""
    return YAML_KEYS.of(index).read
