"""Facts of configuration, data and documentation files: YAML, JSON, TOML, docs, CI.

YAML is read with `yaml.safe_load_all` only (no Python tags are ever constructed);
the walk over the loaded value visits each shared node once and stops at a node
budget, so an alias bomb costs linear time and bounded memory. `pyproject.toml`
yields console scripts and entry-point targets with their group. In docs and scripts,
a `from pkg.mod import A, B` line also names `pkg.mod.A` and `pkg.mod.B` (a code
block that imports a surface presents it by its qualname).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import yaml

from pylint_omni.index.scan.front_matter import parse_front_matter
from pylint_omni.index.scan.link_scan import CLS_SLOT
from pylint_omni.index.scan.tokens import RefSink, record_string

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

MAX_DATA_NODES = 200_000
MAX_KEY_PATHS = 20_000
MAX_FIELD_VALUES = 20_000  # (field, short string value) pairs kept per data file
MAX_FIELD_VALUE_LENGTH = 100
FROM_IMPORT = re.compile(r"^\s*(?:>>>\s*)?from\s+([A-Za-z_][\w.]*)\s+import\s+\(?([\w\s,]+)\)?\s*$")
# In a script, inside a command line too: `python -c 'from olmo import check_install; check_install()'` (a Makefile).
INLINE_IMPORT = re.compile(r"\bfrom\s+([A-Za-z_][\w.]*)\s+import\s+([\w\s,]+?)\s*(?=$|[;'\"])")
WORD = re.compile(r"[A-Za-z_][\w.\-:/]*\w|[A-Za-z_]")
TEMPLATE_MARK = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
SPLIT_VALUE = re.compile(r"[\s,;=()\[\]{}'\"`<>|]+")


class InputProblem(Exception):
    """A file that could not be read as what its name says; the message names the reason."""


class FieldValues:
    """Which short string values each field name holds in one data file (`"tool_parser": "qwen"`).

    A registry selected by a configuration field (`TOOL_PARSERS[family.tool_parser]`) is fed only by
    that field's values: the same text as the value of another field (a `model_name`) selects nothing.
    """

    def __init__(self) -> None:
        self.values: dict[str, set[str]] = {}
        self.room = MAX_FIELD_VALUES

    def add(self, field: str, value: Any) -> None:
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and 0 < len(item) <= MAX_FIELD_VALUE_LENGTH and self.room > 0:
                bucket = self.values.setdefault(field, set())
                if item not in bucket:
                    bucket.add(item)
                    self.room -= 1

    def facts(self) -> dict[str, list[str]]:
        return {field: sorted(values) for field, values in sorted(self.values.items())}


def _record_value(sink: RefSink, text: str, line: int, via: str) -> None:
    record_string(sink, text, line, via)
    if any(ch.isspace() for ch in text) or "=" in text:
        for piece in SPLIT_VALUE.split(text):
            if piece:
                record_string(sink, piece, line, via)


def _walk_yaml_nodes(
    node: yaml.Node, sink: RefSink, budget: list[int], seen: set[int], notes: list[str],
    paths: list[list[Any]], flows: list[list[Any]], fields: FieldValues, holders: dict[int, list[str]],
) -> None:
    """Walk composed YAML nodes (aliases point at shared nodes, visited once).

    A `!!python/...` tag is never constructed: its node is skipped and noted. Each
    mapping key's place in the document is kept in `paths` as `[path, line]`, the
    path written `stages[].runtime.devices` (`[]`: any item of a list); a scalar under
    a `*_cls` key is a class flowing into that slot (`flows`).
    """
    stack: list[tuple[yaml.Node, str]] = [(node, "")]
    while stack:
        current, path = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        budget[0] -= 1
        if budget[0] < 0:
            raise InputProblem(f"more than {MAX_DATA_NODES} YAML nodes (alias expansion or a huge file)")
        line = current.start_mark.line + 1
        if current.tag.startswith("tag:yaml.org,2002:python/"):
            if not notes:
                notes.append(f"the value at line {line} has the YAML tag {current.tag.replace('tag:yaml.org,2002:', '!!')} and was skipped (Python tags are never constructed); the rest of the file was read")
            continue
        if isinstance(current, yaml.ScalarNode):
            _record_value(sink, str(current.value), line, "yaml-value")
        elif isinstance(current, yaml.MappingNode):
            for key, value in current.value:
                child = path
                if isinstance(key, yaml.ScalarNode):
                    record_string(sink, str(key.value), key.start_mark.line + 1, "yaml-key")
                    if isinstance(value, yaml.ScalarNode):
                        fields.add(str(key.value), str(value.value))
                    elif isinstance(value, yaml.SequenceNode):
                        fields.add(str(key.value), [str(v.value) for v in value.value if isinstance(v, yaml.ScalarNode)])
                    child = f"{path}.{key.value}" if path else str(key.value)
                    if isinstance(value, (yaml.MappingNode, yaml.SequenceNode)):
                        holders.setdefault(id(value), []).append(child)
                    if len(paths) < MAX_KEY_PATHS:
                        paths.append([child, key.start_mark.line + 1])
                    if CLS_SLOT.match(str(key.value)) and isinstance(value, yaml.ScalarNode):
                        flows.append([str(key.value), f"s:{value.value}", value.start_mark.line + 1, "yaml"])
                else:
                    stack.append((key, path))
                stack.append((value, child))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend((item, f"{path}[]") for item in current.value)


SAFE_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def scan_yaml(text: str) -> dict[str, Any]:
    """Keys and scalar values of every document, with lines; never constructs objects.

    `yaml.compose_all` uses the safe loader's resolver but builds no Python objects, so
    `!!python/...` tags are reported, not run, and aliases stay shared nodes. libyaml's
    loader when PyYAML has it: the same nodes and marks, several times faster, and a
    nesting limit of its own (a malformed-YAML problem, not a RecursionError).
    """
    sink = RefSink()
    budget = [MAX_DATA_NODES]
    seen: set[int] = set()
    notes: list[str] = []
    paths: list[list[Any]] = []
    flows: list[list[Any]] = []  # `worker_cls: pkg.mod.Cls` values: classes flowing into a `*_cls` slot
    fields = FieldValues()
    holders: dict[int, list[str]] = {}
    try:
        for document in yaml.compose_all(text, Loader=SAFE_COMPOSER):
            if document is not None:
                _walk_yaml_nodes(document, sink, budget, seen, notes, paths, flows, fields, holders)
    except yaml.YAMLError as exc:
        if TEMPLATE_MARK.search(text):
            return scan_template(text)
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputProblem(f"malformed YAML{where}: {problem}") from None
    except RecursionError:
        raise InputProblem("YAML nesting too deep") from None
    facts: dict[str, Any] = {"kind": "yaml", "refs": sink.encoded(), "key_paths": sorted(paths, key=lambda p: p[1])}
    if flows:
        facts["flows"] = flows
    # A section several keys hold is an anchor and its aliases (`_templates: {tp4: &tp4 {...}}`, `config: *tp4`):
    # YAML reads the anchor's keys wherever an alias stands.
    shared = sorted({path for held in holders.values() if len(held) > 1 for path in held})
    if shared:
        facts["shared_keys"] = shared
    if fields.values:
        facts["field_values"] = fields.facts()
    if notes:
        facts["warning"] = notes[0]
    return facts


def scan_template(text: str) -> dict[str, Any]:
    """A templated YAML file (Helm, Jinja: `{{ ... }}`, `{% ... %}`) is not YAML until rendered.

    Its words are still deployment configuration (image names, module paths), so they
    are recorded as YAML values, line by line; the file is marked `templated` so the
    run can say once how many such files it read as text instead of one problem each.
    """
    sink = RefSink()
    for number, line in enumerate(text.splitlines(), start=1):
        for match in WORD.finditer(line):
            record_string(sink, match.group(0).rstrip(".:-/"), number, "yaml-value")
    return {"kind": "yaml", "refs": sink.encoded(), "templated": True}


def _walk_plain(value: Any, sink: RefSink, line_of: dict[str, int], via: str, fields: FieldValues | None = None) -> None:
    stack = [value]
    budget = MAX_DATA_NODES
    while stack:
        current = stack.pop()
        budget -= 1
        if budget < 0:
            raise InputProblem(f"more than {MAX_DATA_NODES} values")
        if isinstance(current, dict):
            for key, val in current.items():
                record_string(sink, str(key), line_of.get(str(key), 1), via)
                if fields is not None:
                    fields.add(str(key), val)
                stack.append(val)
        elif isinstance(current, list):
            stack.extend(current)
        elif isinstance(current, str):
            _record_value(sink, current, line_of.get(current, 1), via)


def _first_lines(text: str) -> dict[str, int]:
    """First line on which each quoted or bare word appears (JSON/TOML have no marks)."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        for word in re.findall(r'"([^"\\]{1,200})"|([\w.\-:/]+)', line):
            for part in word:
                if part and part not in lines:
                    lines[part] = number
    return lines


def scan_json(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise InputProblem(f"malformed JSON: {exc}") from None
    sink = RefSink()
    fields = FieldValues()
    _walk_plain(value, sink, _first_lines(text), "json", fields)
    facts: dict[str, Any] = {"kind": "json", "refs": sink.encoded()}
    if fields.values:
        facts["field_values"] = fields.facts()
    return facts


def scan_toml(text: str, is_pyproject: bool) -> dict[str, Any]:
    try:
        value = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise InputProblem(f"malformed TOML: {exc}") from None
    sink = RefSink()
    line_of = _first_lines(text)
    entry_points: list[dict[str, Any]] = []
    if is_pyproject:
        project = value.get("project", {}) if isinstance(value.get("project"), dict) else {}
        groups: dict[str, Any] = {}
        for table in ("scripts", "gui-scripts"):
            if isinstance(project.get(table), dict):
                groups["console_scripts" if table == "scripts" else "gui_scripts"] = project[table]
        if isinstance(project.get("entry-points"), dict):
            groups.update({g: v for g, v in project["entry-points"].items() if isinstance(v, dict)})
        for group, table in groups.items():
            via = "script" if group in ("console_scripts", "gui_scripts") else f"entry-point:{group}"
            for name, target in table.items():
                if not isinstance(target, str):
                    continue
                line = line_of.get(target, line_of.get(name, 1))
                record_string(sink, target.split("[")[0].strip(), line, via)
                record_string(sink, name, line, via)
                entry_points.append({"group": group, "name": name, "target": target, "line": line})
    if is_pyproject and isinstance(value.get("project"), dict):
        # Entry points were recorded above with their group; do not record them again as plain TOML.
        value = {**value, "project": {k: v for k, v in value["project"].items() if k not in ("scripts", "gui-scripts", "entry-points")}}
    _walk_plain(value, sink, line_of, "toml")
    return {"kind": "toml", "refs": sink.encoded(), "entry_points": entry_points}


def added_lines(patch: str) -> str:
    """The lines a patch adds (`+` dropped), every other line blank so that line numbers stay: slime's Dockerfile
    applies `docker/patch/megatron.patch`, whose added `from slime.utils.routing_replay import ...` is the only
    caller of that function. Context and removed lines are the patched project's code, not this one's consumers."""
    return "\n".join(line[1:] if line.startswith("+") and not line.startswith("+++") else "" for line in patch.splitlines())


def scan_text(text: str, via: str) -> dict[str, Any]:
    """Words of a document or script that could name code (symbols, keys, dotted paths)."""
    sink = RefSink()
    for number, line in enumerate(text.splitlines(), start=1):
        for match in WORD.finditer(line):
            word = match.group(0).rstrip(".:-/")
            record_string(sink, word, number, via)
            if "/" in word and word.endswith(".py"):
                record_string(sink, word[:-3].replace("/", "."), number, via)
        found = [FROM_IMPORT.match(line)] if via == "doc" else list(INLINE_IMPORT.finditer(line))
        for imported in filter(None, found):
            for name in imported.group(2).split(","):
                name = name.split(" as ")[0].strip()
                if name.isidentifier():
                    record_string(sink, f"{imported.group(1)}.{name}", number, via)
    facts: dict[str, Any] = {"kind": "doc", "refs": sink.encoded()}
    if via == "doc":
        front_matter, problem = parse_front_matter(text)
        if front_matter is not None:
            facts["front_matter"] = front_matter
        if problem:
            facts["front_matter_error"] = problem
    return facts
