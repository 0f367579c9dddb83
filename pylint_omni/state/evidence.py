"""Who owns a field, and what else needs it: the evidence of `duplicated-state-field`.

A pattern found in one class (`state.patterns`) is only a finding once the project
says nothing else depends on the duplicate:
- `OwnerFacts`: is the class a message that crosses a process/IPC boundary (msgspec,
  pydantic, NamedTuple, TypedDict, pickled, sent through a queue or serializer), a
  frozen snapshot, read by reflection (`fields`, `asdict`, `vars`, `__dict__`, table
  builders), or built on a base outside the project that may require its fields;
- `field_readers`: every read of a field name anywhere in the project (attribute
  reads, `getattr` strings, string literals, YAML/JSON/TOML keys, `obj.name` in docs
  and YAML values), any owner;
- `provisional_overwrites`: the builders that overwrite a constructor field after
  every construction, from one other source.
Everything cross-file comes from the project index; nothing here reads a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from astroid import nodes
from pylint.checkers.utils import safe_infer

from pylint_omni.evidence.consumers import Consumer, consumer_kind
from pylint_omni.evidence.reflection import reflection_site
from pylint_omni.evidence.upstream_readers import SAFE_BASES, TORCH_MODULE_PREFIXES, unread_base
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Derived, Table
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.paths import Location

MESSAGE_BASE_TAILS = frozenset({"Struct", "BaseModel", "RootModel", "NamedTuple", "TypedDict", "OpenAIBaseModel"})
MESSAGE_BASE_PACKAGES = ("msgspec.", "pydantic.", "typing.NamedTuple", "typing.TypedDict", "collections.namedtuple")
PICKLE_METHODS = frozenset({"__getstate__", "__setstate__", "__reduce__", "__reduce_ex__", "__getnewargs__"})
LOADING_VIAS = frozenset({"dotted", "str", "yaml-value", "json", "toml", "resolver", "import_module", "fstr", "getattr", "script"})
DYNAMIC_LOADING_VIAS = frozenset({"resolver", "import_module", "fstr"})
NON_READING_VIAS = frozenset({"name", "store", "attr-store", "import", "all", "base", "call"})
# Words of prose (docs, YAML string values, shell scripts): a reader only when qualified, `obj.name`.
PROSE_VIAS = frozenset({"doc", "yaml-value", "script"})

_FIELD_READERS: Table[str, list[Consumer]] = Table("state.field_readers")
_QUALIFIED: Table[str, dict[str, set[int]]] = Table("state.qualified_mentions")


@dataclass
class OwnerFacts:
    """What the project says about one class that owns fields."""

    name: str
    project: bool
    message: str | None = None  # why it crosses a process/IPC boundary
    snapshot: str | None = None  # why it is a deliberate frozen copy
    reflected: str | None = None  # why every field has a reflective reader
    torch_module: bool = False
    unresolved_bases: list[str] = field(default_factory=list)
    external_bases: list[nodes.ClassDef] = field(default_factory=list)
    # (subclass, base): a project subclass lists the class beside a third-party base no index reads (a mixin of
    # `class Trainer(Mixin, trl.ORPOTrainer)`): that base's methods run on the same object and may read any field.
    combined_with: tuple[str, str] | None = None


class OwnerLookup:
    """Answers about classes, cached for one index refresh."""

    def __init__(self, index: ProjectIndex) -> None:
        self.index = index
        self._sent: dict[str, str] | None = None
        self._mentions: dict[str, set[str]] = {}
        self._foreign: dict[str, list[tuple[str, int, str]]] | None = None

    def sent_from(self, name: str) -> str | None:
        if self._sent is None:
            sent: dict[str, str] = {}
            for rel, facts in self.index.python_files():
                for sent_name in facts.get("sent_types", []):
                    sent.setdefault(sent_name, rel)
            self._sent = sent
        return self._sent.get(name)

    def foreign_writes(self, name: str, family: set[str]) -> list[str]:
        """Production `obj.name = ...` (obj not `self`) that may write this owner's field, as `path:line`.

        Evidence only from the same owner: a write whose receiver is known to be
        another class (a parameter annotated `Other`, a local bound to `Other(...)`)
        is that class's field. A receiver of unknown class counts only in a module
        that names one of the owner's classes (`family`): elsewhere it cannot be
        this owner's object without an untyped hand-over the index cannot see.
        """
        if self._foreign is None:
            table: dict[str, list[tuple[str, int, str]]] = {}
            for rel, facts in self.index.python_files():
                if self.index.location(rel) is Location.PRODUCTION:
                    for attr, line, *rest in facts.get("attr_writes", []):
                        table.setdefault(attr, []).append((rel, line, rest[3] if len(rest) > 3 else ""))
            self._foreign = table
        found = []
        for rel, line, owner in self._foreign.get(name, []):
            if owner:
                same = owner in family
            else:
                same = any(self.index.occurrences(rel, cls) for cls in family)
            if same:
                found.append(f"{rel}:{line}")
        return found

    def declared_message(self, name: str) -> str | None:
        """Why a project class of that name is a message, read from the index's bases."""
        for definition in self.index.definitions_named(name):
            for base in definition.data.get("bases", []) if definition.kind == "class" else []:
                if base.startswith(MESSAGE_BASE_PACKAGES) or base.rpartition(".")[2] in MESSAGE_BASE_TAILS:
                    return f"{name} is a {base.rpartition('.')[2]} message ({definition.path})"
        return None

    def loaded_by_name(self, name: str) -> str | None:
        """Where a class is loaded by a path that names it (`pkg.mod.Cls` in code or config, an entry point,
        a resolver or `import_module` argument), as `path:line (via)`.

        A bare string equal to the class name (a log label, a list of supported
        architectures, a dashboard title) only picks which class this repository
        builds; it hands no instance to code outside, so it is not a loader here.
        """
        for hit in self.index.hits(name):
            if hit.via.startswith("entry-point:"):
                return f"{hit.path}:{hit.line} ({hit.via})"
            if hit.via not in LOADING_VIAS or self.index.location(hit.path) is not Location.PRODUCTION:
                continue
            if hit.via in DYNAMIC_LOADING_VIAS or hit.line in _qualified_lines(self.index, hit.path).get(name, ()):
                return f"{hit.path}:{hit.line} ({hit.via})"
        return None

    def is_project(self, klass: nodes.ClassDef) -> bool:
        file = klass.root().file
        return bool(file) and self.index.relpath(file) is not None and "site-packages" not in file

    def owner(self, klass: nodes.ClassDef) -> OwnerFacts:
        """Boundary, snapshot, reflection and base facts of a class and its project ancestors."""
        facts = OwnerFacts(klass.name, self.is_project(klass))
        seen: set[str] = set()
        queue = [klass]
        while queue:
            current = queue.pop()
            if current.qname() in seen:
                continue
            seen.add(current.qname())
            self._judge_one(current, facts, klass is current)
            for base in current.bases:
                written = base.as_string()
                inferred = safe_infer(base)
                if isinstance(inferred, nodes.ClassDef):
                    if self.is_project(inferred):
                        queue.append(inferred)
                    elif inferred.qname() not in ("builtins.object",):
                        facts.external_bases.append(inferred)
                        self._judge_external(inferred, facts)
                elif written.split("[")[0] not in SAFE_BASES:
                    self._judge_unresolved(current, written, facts)
        facts.combined_with = self._combined_with_unread(klass.qname())
        return facts

    def _combined_with_unread(self, dotted: str) -> tuple[str, str] | None:
        """The first project subclass that combines the class with a third-party base no upstream index reads."""
        graph = class_graph(self.index)
        for child in sorted(graph.descendants(dotted)) if dotted in graph.nodes else []:
            for base in graph.nodes[child].upstream:
                if unread_base(base, self.index):
                    return child.rpartition(".")[2], base
        return None

    def _judge_one(self, klass: nodes.ClassDef, facts: OwnerFacts, is_owner: bool) -> None:
        pickled = PICKLE_METHODS & set(klass.locals)
        if pickled:
            facts.message = facts.message or f"{klass.name} defines {sorted(pickled)[0]} (pickled)"
        if "_fields_" in klass.locals:
            facts.message = facts.message or f"{klass.name} is a ctypes structure (`_fields_`): its fields are a shared-memory layout"
        sent = self.sent_from(klass.name)
        if sent and is_owner:
            facts.message = facts.message or f"{klass.name} is sent through a queue/serializer in {sent}"
        reflected = reflection_site(self.index, klass.name, klass.qname())
        if reflected:
            facts.reflected = facts.reflected or f"{klass.name} is read by reflection in {reflected}"
        for decorator in klass.decorators.nodes if klass.decorators else []:
            text = decorator.as_string().replace(" ", "")
            if "frozen=True" in text:
                facts.snapshot = facts.snapshot or f"{klass.name} is a frozen dataclass"

    def _judge_external(self, base: nodes.ClassDef, facts: OwnerFacts) -> None:
        qname = base.qname()
        if qname.startswith(MESSAGE_BASE_PACKAGES) or base.name in MESSAGE_BASE_TAILS:
            facts.message = facts.message or f"{facts.name} is a {base.name} message ({qname})"
        if qname.startswith("torch.nn."):
            facts.torch_module = True

    def _judge_unresolved(self, klass: nodes.ClassDef, written: str, facts: OwnerFacts) -> None:
        resolved = self._resolved_base(klass, written)
        tail = resolved.split("[")[0].rpartition(".")[2]
        if resolved.startswith(MESSAGE_BASE_PACKAGES) or tail in MESSAGE_BASE_TAILS:
            facts.message = facts.message or f"{facts.name} is a {tail} message ({resolved})"
        elif resolved.startswith(TORCH_MODULE_PREFIXES):
            facts.torch_module = True
        elif resolved.split("[")[0] not in SAFE_BASES:
            facts.unresolved_bases.append(resolved)

    def _resolved_base(self, klass: nodes.ClassDef, written: str) -> str:
        """The base as the index resolved it through imports (`nn.Module` -> `torch.nn.Module`)."""
        rel = self.index.relpath(klass.root().file or "")
        for record in self.index.facts(rel).get("classes", []) if rel else []:
            if record["name"] == klass.name and record["line"] == klass.lineno:
                for base_written, base in zip(record["bases_written"], record["bases"]):
                    if base_written == written:
                        return base
        return written

    def base_mentions(self, facts: OwnerFacts, name: str) -> str | None:
        """The external base (installed, inspectable) that sets or reads `name`, if any."""
        for base in facts.external_bases:
            for klass in [base, *base.ancestors()]:
                if name in self._names_of(klass):
                    return klass.qname()
        return None

    def _names_of(self, klass: nodes.ClassDef) -> set[str]:
        key = klass.qname()
        if key not in self._mentions:
            found = set(klass.locals) | set(klass.instance_attrs)
            for node in klass.nodes_of_class((nodes.Attribute, nodes.AssignAttr, nodes.Const)):
                if isinstance(node, nodes.Const):
                    if isinstance(node.value, str) and node.value.isidentifier():
                        found.add(node.value)
                else:
                    found.add(node.attrname)
            self._mentions[key] = found
        return self._mentions[key]


def infer_source_class(source: nodes.NodeNG) -> tuple[nodes.ClassDef | None, str | None]:
    """The class of a mirror's source object, and its name as written when not inferable."""
    inferred = safe_infer(source)
    if isinstance(inferred, nodes.ClassDef):
        return None, None  # the class object itself, not an instance
    proxied = getattr(inferred, "_proxied", None)
    if isinstance(proxied, nodes.ClassDef) and proxied.qname() not in ("builtins.dict", "builtins.object"):
        return proxied, proxied.name
    annotation = _parameter_annotation(source)
    if annotation is None:
        return None, None
    for candidate in _annotation_parts(annotation):
        found = safe_infer(candidate)
        if isinstance(found, nodes.ClassDef):
            return found, found.name
    text = annotation.value if isinstance(annotation, nodes.Const) else annotation.as_string()
    return None, str(text)


def _parameter_annotation(source: nodes.NodeNG) -> nodes.NodeNG | None:
    if not isinstance(source, nodes.Name):
        return None
    frame = source.frame()
    if not isinstance(frame, nodes.FunctionDef):
        return None
    args = frame.args
    pairs = [
        *zip(args.posonlyargs, args.posonlyargs_annotations),
        *zip(args.args or [], args.annotations),
        *zip(args.kwonlyargs, args.kwonlyargs_annotations),
    ]
    for arg, annotation in pairs:
        if arg.name == source.name:
            return annotation
    return None


def _annotation_parts(annotation: nodes.NodeNG) -> list[nodes.NodeNG]:
    """`X`, `X | None`, `Optional[X]` -> the nodes that may name the class."""
    if isinstance(annotation, nodes.BinOp):
        return [*_annotation_parts(annotation.left), *_annotation_parts(annotation.right)]
    if isinstance(annotation, nodes.Subscript) and annotation.value.as_string().endswith("Optional"):
        return [annotation.slice]
    return [annotation]


def field_readers(index: ProjectIndex, name: str, exclude: tuple[str, int, int] | None = None) -> list[Consumer]:
    """Every read of `name` in the project, by any owner: the name alone is the evidence.

    Attribute reads, `getattr` strings, string literals, config keys and qualified
    mentions in docs and YAML values (`obj.name`) count; a local variable of the same
    name, an assignment, an import or the bare word in prose does not.
    """
    memo = _FIELD_READERS.values(index)
    readers = memo.get(name)
    if readers is None:
        found: dict[tuple[str, int], Consumer] = {}
        for hit in index.hits(name):
            if hit.via in NON_READING_VIAS:
                continue
            prose = hit.via in PROSE_VIAS or (hit.via == "json" and name.startswith("_"))  # no JSON key is private
            if prose and hit.line not in _qualified_lines(index, hit.path).get(name, ()):
                continue  # the bare word `stage` in prose (or `_args` in a JSON chat template) is not a reader of `.stage`
            known = found.get((hit.path, hit.line))
            if known is None or (known.via == "str" and hit.via != "str"):
                # `{"n": self.n}`: the attribute read, not the key string, is the consumer of that line
                found[(hit.path, hit.line)] = Consumer(hit.path, hit.line, hit.via, consumer_kind(index, hit), name)
        readers = memo[name] = sorted(found.values(), key=lambda c: (c.kind.value, c.path, c.line))
    if exclude is None:
        return readers
    # The class's own docstrings and messages are not readers.
    return [
        c for c in readers
        if not (c.via == "str" and c.path == exclude[0] and exclude[1] <= c.line <= exclude[2])
    ]


def _qualified_lines(index: ProjectIndex, path: str) -> dict[str, set[int]]:
    """name -> lines of one doc/YAML file where it is the tail of a dotted word (`obj.name`).

    The scanners record `obj.name` whole and split; the whole dotted word on the
    same line is what tells a qualified mention from the same word in prose.
    """
    memo = _QUALIFIED.values(index)
    table = memo.get(path)
    if table is None:
        table = memo[path] = {}
        for token, mentions in index.file_occurrences(path):
            if "." not in token:
                continue
            tail = token.replace(":", ".").rpartition(".")[2]
            if tail.isidentifier():
                table.setdefault(tail, set()).update(line for line, _ in mentions)
    return table


@dataclass(frozen=True)
class Overwrite:
    """A builder that overwrites a constructor field right after construction."""

    path: str
    line: int
    source: str  # the dotted value written, e.g. `config.world_size`


def _subclassed_names(index: ProjectIndex) -> frozenset[str]:
    """Names used as a base anywhere in the project (computed once per run)."""
    return frozenset(
        base.rpartition(".")[2]
        for _, facts in index.python_files()
        for record in facts.get("classes", [])
        for base in record.get("bases", [])
    )


_SUBCLASSED: Derived[frozenset[str]] = Derived("state.subclassed_names", _subclassed_names)


def provisional_overwrites(index: ProjectIndex, class_name: str, field_name: str) -> list[Overwrite] | None:
    """Overwrites of `field_name` after every production construction of `class_name`.

    None unless every construction site binds the object and then overwrites the
    field from a dotted source ending in the same attribute, and nothing builds
    the class another way (subclasses, names loaded by string).
    """
    if class_name in _SUBCLASSED.of(index):
        return None
    if any(hit.via in LOADING_VIAS or hit.via.startswith("entry-point:") for hit in index.hits(class_name)):
        return None  # built by name somewhere: the construction sites are unknown
    sites = [h for h in index.hits(class_name) if h.via == "call" and index.location(h.path) is Location.PRODUCTION]
    if not sites:
        return None
    found: list[Overwrite] = []
    for site in sites:
        overwrite = _overwrite_after(index.facts(site.path), site.path, site.line, class_name, field_name)
        if overwrite is None:
            return None
        found.append(overwrite)
    tails = {o.source.rpartition(".")[2] for o in found}
    return found if len(tails) == 1 else None


def _overwrite_after(facts: dict[str, Any], path: str, line: int, class_name: str, field_name: str) -> Overwrite | None:
    for callee, call_line, var, func in facts.get("bound_calls", []):
        if callee != class_name or call_line != line:
            continue
        for attr, write_line, obj, source, write_func, *_ in facts.get("attr_writes", []):
            if attr == field_name and obj == var and write_func == func and write_line > line and source:
                return Overwrite(path, write_line, source)
    return None
