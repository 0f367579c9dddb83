"""Is an option read? The evidence rules of `unread-config-option`, over `readers_of`.

In order: a production reader -> live; a class that reads itself by reflection (or
is read so elsewhere: `fields(C)`, `asdict(c)`, `vars(c)`) -> rejected, every field
has a reader; copies into another owner -> judged through the copy (a copy that
nothing reads leaves the option unread); upstream code reading it on the kind of
object the class stands for (`evidence.upstream_readers`) -> rejected naming the place;
a name upstream code reads on objects of unknown class -> rejected for a class whose
outside base is not indexed (that base may read it), medium otherwise. A CLI option is
at most medium (users set it on the command line); it is rejected when upstream reads
it off a parsed namespace, or when the namespace is handed out whole and a receiver
takes it (`receivers`: the dict followed through calls; where it cannot be followed,
any upstream or project name that takes the keyword counts). Tests only -> medium
naming them; documented in the docs -> medium (a documented user setting); nothing -> high.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pylint_omni.configuration.readers import SCANNER_KEY, Option, Readers, reader_index, readers_of
from pylint_omni.configuration.receivers import Outcome, namespace_outcomes
from pylint_omni.evidence.consumers import Consumer, Status, Verdict, consumer_kind, listed
from pylint_omni.evidence.reflection import reflection_site
from pylint_omni.evidence.upstream_readers import indexed_bases, upstream_readers
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Derived, Table
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream import upstream_of

NAMESPACE_NAMES = frozenset({"args", "parsed_args", "namespace", "opts", "cli_args", "options", "ns", "arguments"})
NAMESPACE_CLASSES = ["argparse.Namespace"]
WHOLE_HOWS = frozenset({"**", "vars", "asdict", "dict", "items", "keys", "values", "for", "__dict__"})
MAX_COPY_DEPTH = 3  # configs followed through copies (`Other(x=cfg.x)`) before the last holder is unknown

_WHOLE: Table[frozenset[str], list[tuple[str, int, str]]] = Table("configuration.handed_out_whole")


@dataclass
class Judgment:
    """An option's verdict and what the message needs."""

    verdict: Verdict
    readers: Readers
    copied_to: list[str] = field(default_factory=list)
    overwritten: str | None = None

    def kept(self, feeds: bool) -> Judgment:
        """This judgment as a run holds it once made. A live option keeps its production readers (and the places
        that copy it into another holder) only when it `feeds` a feature (something sets, offers or documents it:
        `plan.feeds` asks them), where it is set and where documented; its tests' reads, other classes' reads of the name and its copies made the verdict and
        are dropped (17 MB of traced memory on FastVideo, 2,547 live options of 3,027)."""
        if self.verdict.status is not Status.LIVE:
            return self
        readers = Readers(production=self.readers.production, copies=self.readers.copies,
                          configured=self.readers.configured, documented=self.readers.documented) if feeds else Readers()
        return Judgment(Verdict(Status.LIVE, None, self.verdict.reason), readers)


def _verdict(status: Status, confidence: str | None, reason: str, readers: Readers, unknowns: list[str]) -> Verdict:
    consumers: list[Consumer] = [*readers.production, *readers.validation, *readers.documented]
    return Verdict(status, confidence, reason, consumers, unknowns)


def handed_out_whole(index: ProjectIndex, names: frozenset[str]) -> list[tuple[str, int, str]]:
    """Every production place that expands, iterates or hands out an object named one of `names` (once per run):
    (path, line, `how name`)."""
    return _WHOLE.of(index, names, lambda: [
        (rel, line, f"{how} {name}") for rel, _ in index.python_files() if index.location(rel) is Location.PRODUCTION
        for name, line, how in (index.extra(rel, SCANNER_KEY) or {}).get("whole", []) if name in names and how in WHOLE_HOWS
    ])


def judge_field(index: ProjectIndex, option: Option, klass: dict[str, Any], span: tuple[int, int], depth: int = 0,
                relpath: str = "") -> Judgment:
    """The verdict of one field of a config class (`relpath`: the class's file, when not the option's)."""
    readers = readers_of(index, option, span)
    if klass.get("reflective"):
        return Judgment(_verdict(Status.REJECTED, None, f"{klass['name']} reads its own fields by reflection (line {klass['reflective']})", readers, []), readers)
    module = index.entries.get(relpath or option.relpath, {}).get("module", "")
    reflected = reflection_site(index, klass["name"], f"{module}.{klass['name']}")
    if reflected:
        return Judgment(_verdict(Status.REJECTED, None, f"{klass['name']} is read by reflection (fields/asdict/vars) in {reflected}", readers, []), readers)
    if readers.production:
        return Judgment(_verdict(Status.LIVE, None, f"read at {readers.production[0].describe()}", readers, []), readers)
    copied_to: list[str] = []
    forwarded = ""
    if readers.forwarded:
        landing = _forwarded_to(index, option, depth)
        if landing is None or landing[1]:
            where = f", into {landing[0]}, which is read" if landing else ""
            return Judgment(_verdict(Status.LIVE, None, f"handed on by name at {readers.forwarded[0].describe()}{where}",
                                     readers, []), readers)
        forwarded = (f"only handed on by name ({readers.forwarded[0].path}:{readers.forwarded[0].line}) between it and "
                     f"{landing[0]}, and nothing reads either")
    weakest = "high"
    for consumer, target, keyword in readers.copies:
        found = _copy_target(index, target, keyword, depth)
        if found is None:
            return Judgment(_verdict(Status.LIVE, None, f"copied into {target}({keyword}=...) at {consumer.describe()}", readers, []), readers)
        judgment, where = found
        if judgment.verdict.status is not Status.CANDIDATE:
            return Judgment(_verdict(Status.LIVE, None, f"copied into {target}.{keyword}, which is read", readers, []), readers)
        weakest = "medium" if judgment.verdict.confidence == "medium" else weakest
        copied_to.append(f"{target}.{keyword} ({where}, copied at {consumer.path}:{consumer.line})")
    medium: list[str] = []
    unknowns: list[str] = []
    upstream = upstream_of(index)
    typed = upstream_readers(index, option.owner, option.name)
    if typed:
        ref, why = typed[0]
        reason = f"upstream code reads `.{option.name}` on objects of its kind ({ref.describe()}; {why})"
        return Judgment(_verdict(Status.REJECTED, None, reason, readers, []), readers)
    classes = class_graph(index)
    placed = {b: classes.lookup(b) for b in klass.get("bases", []) if b}
    own = [found for found in placed.values() if found is not None]
    bases = [b for b, found in placed.items() if found is None and not _neutral(b) and index.resolve_target(b) is None]
    if not bases:  # built on a project class (`TextFiles(DataModule)`, re-exported by its package): its outside bases
        bases = list(dict.fromkeys(b for base in own for b in [*classes.upstream_bases(base), *classes.unresolved_bases(base)]
                                   if not _neutral(b)))
        if bases:
            medium.append(f"{klass['name']} extends {bases[0]} through {own[0].rpartition('.')[2]}, outside the project, "
                          "which may read it")
            bases = []
    read_upstream = upstream.reads(option.name)
    if read_upstream and bases and not indexed_bases(index, bases):
        reason = f"upstream code reads `.{option.name}` ({read_upstream.describe()}) and {klass['name']} extends {bases[0]}, which is not indexed"
        return Judgment(_verdict(Status.REJECTED, None, reason, readers, []), readers)
    if read_upstream:
        medium.append(f"upstream code reads `.{option.name}` on objects of unknown class ({read_upstream.describe()}); if this config reaches it, it is read")
    elif bases:
        indexed = bool(indexed_bases(index, bases))
        medium.append(f"{klass['name']} extends {bases[0]}, outside the project, which may read it"
                      + ("" if indexed else " (not indexed: what it reads is unknown)"))
    flag = reader_index(index).cli.get(option.name)
    if flag:
        medium.append(f"users may set it on the command line: {flag} has the same name")
    loader = _LOADERS.of(index) if klass.get("kind") == "dataclass" else None
    if loader:
        medium.append(f"the project builds dataclass configs from files by field name ({loader}): a saved config may "
                      "set it, and removing it breaks loading that file")
    if klass.get("kind") == "namedtuple":
        medium.append("a NamedTuple is also read by position (unpacking, indexing), which names cannot show")
    elif klass.get("kind") in ("pydantic", "struct"):
        medium.append(f"{klass['name']} is a {klass['kind']} model: other processes or clients may read its serialized form")
    return finish_candidate(readers, medium, unknowns, copied_to, weakest, forwarded)


FIELD_LOADERS = {"from_dict": ("dacite",), "structured": ("omegaconf",), "structure": ("cattrs", "cattr")}


def _strict_loaders(index: ProjectIndex) -> str:
    """`path:line` of the first production call of a library that builds dataclasses from a mapping by field name
    (`dacite.from_dict`, `OmegaConf.structured`, `cattrs.structure`): nanotron loads every saved `config.yaml` so,
    strictly, and lighteval reads its fields from outside; "" when none."""
    for name, packages in FIELD_LOADERS.items():
        for hit in index.hits(name):
            if hit.via not in ("call", "attr") or index.location(hit.path) is not Location.PRODUCTION:
                continue
            imports = index.facts(hit.path).get("imports", {}).values()
            if any(target.partition(".")[0] in packages for target in imports):
                return f"{hit.path}:{hit.line}"
    return ""


_LOADERS: Derived[str] = Derived("configuration.strict_loaders", _strict_loaders)


def _forwarded_to(index: ProjectIndex, option: Option, depth: int) -> tuple[str, bool] | None:
    """Where a field a list of names hands on lands: ("Other.f, ...", whether one of them is read), judged without
    following names again; None when no other config class declares the name (the list may serve anything else)."""
    lookups = reader_index(index)
    family = lookups.related(option.owner)
    others = [owner for owner in lookups.field_owners.get(option.name, []) if owner not in family]
    if not others or depth >= MAX_COPY_DEPTH:
        return None
    shown = ", ".join(f"{owner.rpartition('.')[2]}.{option.name}" for owner in others[:2])
    for owner in others:
        definition = index.resolve_target(owner)
        if definition is None:
            return shown, True  # cannot judge it: count it as read
        klass = next((k for k in (index.extra(definition.path, SCANNER_KEY) or {}).get("classes", [])
                      if k["name"] == definition.data["name"] and k["line"] == definition.data["line"]), None)
        field_line = next((f for f in (klass or {}).get("fields", []) if f[0] == option.name), None)
        if klass is None or field_line is None:
            return shown, True
        other = Option("field", option.name, definition.path, field_line[1], owner)
        judged = readers_of(index, other, (field_line[1], field_line[3]))
        if judged.production or judged.copies:
            return shown, True
    return shown, False


def _neutral(base: str) -> bool:
    return base.partition(".")[0] in ("typing", "abc", "pydantic", "dataclasses", "attr", "attrs", "msgspec", "enum", "builtins") or \
        base in ("object", "NamedTuple", "BaseModel", "BaseSettings", "Struct", "Generic", "Protocol")


def finish_candidate(readers: Readers, medium: list[str], unknowns: list[str], copied_to: list[str], weakest: str,
                     reason: str = "") -> Judgment:
    """Validation readers, documentation and the collected reasons turn a candidate medium (`reason`: the proof when
    it is not "no reader in code")."""
    if readers.validation:
        medium.insert(0, f"only validation code reads it ({listed(readers.validation)})")
    if readers.documented:
        medium.append(f"the docs mention it ({listed(readers.documented)}): a documented user setting")
    if copied_to:
        reason = f"only copied into {copied_to[0]}, which nothing reads"
    elif not reason:
        reason = "no reader in code" + (f"; set in {listed(readers.configured)}" if readers.configured else "")
    confidence = "medium" if medium or weakest == "medium" else "high"
    unknowns = [*medium, *unknowns] if medium else unknowns
    return Judgment(_verdict(Status.CANDIDATE, confidence, reason, readers, unknowns), readers, copied_to)


def _copy_target(index: ProjectIndex, target: str, keyword: str, depth: int) -> tuple[Judgment, str] | None:
    """The judgment of the field a value is copied into, or None when that owner is not a project config class."""
    if depth >= MAX_COPY_DEPTH:
        return None
    for definition in index.definitions_named(target):
        if definition.kind != "class":
            continue
        for klass in (index.extra(definition.path, SCANNER_KEY) or {}).get("classes", []):
            if klass["name"] != target or klass["line"] != definition.data["line"]:
                continue
            for name, line, _, end in klass["fields"]:
                if name == keyword:
                    option = Option("field", name, definition.path, line, definition.dotted)
                    return judge_field(index, option, klass, (line, end), depth + 1, definition.path), f"{definition.path}:{line}"
    return None


def judge_cli(index: ProjectIndex, option: Option, span: tuple[int, int]) -> Judgment:
    """A command-line option: users set it, so never more than medium."""
    readers = readers_of(index, option, span)
    if readers.production:
        return Judgment(_verdict(Status.LIVE, None, f"read at {readers.production[0].describe()}", readers, []), readers)
    upstream = upstream_of(index)
    on_namespace = [ref for ref in upstream.attribute_uses(NAMESPACE_CLASSES, option.name) if not ref.via.endswith("store")]
    if on_namespace:
        reason = f"upstream code reads `.{option.name}` off a parsed namespace ({on_namespace[0].describe()})"
        return Judgment(_verdict(Status.REJECTED, None, reason, readers, []), readers)
    outcomes = namespace_outcomes(index, option.name, NAMESPACE_NAMES, handed_out_whole(index, NAMESPACE_NAMES))
    taken = next((o for o in outcomes if o.kind == "takes"), None)
    unknown = next((o for o in outcomes if o.kind == "unknown"), None)
    accepted = upstream.accepts(option.name) or upstream.reads(option.name)
    if taken is None and unknown is not None:
        receiver = accepted and f"upstream code takes `{option.name}` ({accepted.describe()})" or _receiver(index, option.name)
        taken = Outcome("takes", receiver, unknown.site) if receiver else None
    if taken is not None:
        reason = f"the parsed options are handed out whole at {taken.site} and {taken.where}"
        return Judgment(_verdict(Status.REJECTED, None, reason, readers, []), readers)
    medium = [f"users set it on the command line ({option.spellings[0] if option.spellings else option.name})"]
    if unknown is not None:
        medium.append(f"the parsed options are handed out whole at {unknown.site}; a receiver taking `{option.name}` was not found")
    elif outcomes:  # every receiver drops it: the strongest evidence, said first
        medium.insert(0, f"{outcomes[0].where}; the parsed options are handed out whole at {outcomes[0].site}")
    elif accepted:
        medium.append(f"upstream code takes `{option.name}` ({accepted.describe()})")
    if not readers.copies:
        return finish_candidate(readers, medium, [], [], "medium")
    return Judgment(_verdict(Status.LIVE, None, f"copied at {readers.copies[0][0].describe()}", readers, []), readers)


def _receiver(index: ProjectIndex, name: str) -> str | None:
    """A project receiver that takes `name` as a keyword, by name (where the dict could not be followed): a config
    field of that name, or a parameter used by name."""
    owner = reader_index(index).fields.get(name)
    if owner:
        return f"{owner} takes it"
    for hit in index.hits(name):
        if hit.via == "name" and index.location(hit.path) is Location.PRODUCTION:
            return f"`{name}` is used by name at {hit.path}:{hit.line} (a parameter that takes it)"
    return None


def judge_env(index: ProjectIndex, option: Option, span: tuple[int, int]) -> Judgment:
    """A module constant read from an environment variable: used by name, or the variable read elsewhere."""
    readers = readers_of(index, option, span)
    for hit in index.hits(option.name):
        if hit.via != "name" or (hit.path == option.relpath and span[0] <= hit.line <= span[1]):
            continue
        consumer = Consumer(hit.path, hit.line, hit.via, consumer_kind(index, hit), option.name)
        if index.location(hit.path) is Location.PRODUCTION:
            return Judgment(_verdict(Status.LIVE, None, f"used at {consumer.describe()}", readers, []), readers)
        readers.validation.append(consumer)
    if readers.production:
        return Judgment(_verdict(Status.LIVE, None, f"read at {readers.production[0].describe()}", readers, []), readers)
    return finish_candidate(readers, [], [], [], "high")


def overwritten_by(klass: dict[str, Any], name: str) -> int | None:
    """The line where `__post_init__` (or `model_post_init`) replaces the field's value without reading it."""
    for attr, line, method, top_level, rereads in klass.get("writes", []):
        if attr == name and method in ("__post_init__", "model_post_init", "__attrs_post_init__") and top_level and not rereads:
            return line
    return None


def judge_parameter(function: str, reflective: int | None) -> Judgment:
    """A parameter of a function a command-line builder exposes, which the function's body never loads: the flag is
    accepted and does nothing. Medium when the body reads `locals()` (it may hand the parameter on by name)."""
    readers = Readers()
    medium = [f"{function}() reads locals() at line {reflective}: if that reaches a reader by name, it is read"] \
        if reflective is not None else []
    return finish_candidate(readers, medium, [], [], "high", f"{function}() never reads it: the flag is accepted and does nothing")
