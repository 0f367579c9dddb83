"""Which members make one change (SPEC §5): the folding rules, in order.

1. **Class clusters**: the dead methods of one class (high confidence, or dead only
   through the others), with the fields only they read and the `__init__` lines that
   build them (`changes.state`): two methods or more, or one method with its state.
2. **Config classes and files**: the unread fields of one config class, the unread keys
   of one shipped config file, by confidence.
3. **Tables**: the unused entries of one registry or lazy-export table; every entry
   of it: the table and its accessors (`__getattr__`, `__dir__`), never the live
   definitions it points to.
4. **Module helpers** (`changes.module_helpers`): the dead code left in one module
   (functions, classes, methods of live classes), with the imports only they use, and
   at high confidence the definitions only tests use beside it.
5. **Spread changes** (`changes.spread`): the whole modules nothing imports in one
   package; one dead function repeated in sibling packages, or copied word for word
   into other modules.
6. Every other member is a change of its own; after the lost features are named
   (`lost`), the **small cleanups**: micro dead definitions left alone (a few-line
   dead method), and micro unread config fields left alone, in one package, by
   confidence, are one change each (`small_cleanups`).
Then a change inside the code a high-confidence dead change deletes goes with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pylint_omni.changes.model import (
    ENTRY, HIGH, NEVER, UNREAD, UNUSED, ChangeSet, Member, Span, merged_verdict,
)
from pylint_omni.changes.module_helpers import module_helpers, shown
from pylint_omni.changes.spread import dead_modules, repeated_functions
from pylint_omni.changes.state import FieldGoing, fields_going, inside
from pylint_omni.changes.wording import change_planned, counted, named
from pylint_omni.evidence.benefit import BenefitKind, Heat
from pylint_omni.evidence.consumers import ConsumerKind, Status, decide
from pylint_omni.evidence.memo import DEFINITION, MODULE
from pylint_omni.index.project_index import ProjectIndex

DELETING = frozenset({"dead", "test-only"})  # statuses whose change deletes the member's code
METHOD_UNITS = frozenset({"method"})  # a shadowed definition keeps its own, sharper message


@dataclass
class _Left:
    """The members not yet placed in a change."""

    members: list[Member]
    taken: set[int] = field(default_factory=set)

    def free(self) -> list[Member]:
        return [m for m in self.members if id(m) not in self.taken]

    def candidates(self) -> list[Member]:
        """The free members that are candidates (a rejected idea stays a record of its own)."""
        return [m for m in self.free() if m.planned.verdict.status is Status.CANDIDATE]

    def take(self, members: list[Member]) -> None:
        self.taken.update(id(m) for m in members)


def never_runs(member: Member) -> Member:
    """A deleting member's heat is `never` (SPEC §5: not "once at import"): no production path runs it."""
    details = member.details
    if member.status not in DELETING or details is None or details.benefit.heat is Heat.NEVER:
        return member
    benefit = details.benefit.with_heat(Heat.NEVER, NEVER[member.status])
    return replace(member, planned=replace(member.planned, details=replace(details, benefit=benefit)))


def single(member: Member) -> ChangeSet:
    return ChangeSet(member.planned, member.path, "single", (member,), member.spans)


def _dead_through(member: Member, names: set[str]) -> bool:
    """Dead only because the given members are: its one doubt is that, and they are all it needs."""
    verdict = member.planned.verdict
    return bool(member.needs) and len(verdict.unknowns) == 1 and set(member.needs) <= names


def _class_span(index: ProjectIndex, dotted: str) -> Span | None:
    definition = index.resolve_target(dotted)
    if definition is None or definition.kind != "class":
        return None
    return definition.path, definition.data["line"], definition.data["end"]


def class_clusters(index: ProjectIndex, left: _Left) -> list[ChangeSet]:
    by_class: dict[str, list[Member]] = {}
    candidates = [m for m in left.candidates() if m.symbol == UNUSED and m.status == "dead" and m.unit in METHOD_UNITS and m.container]
    for member in candidates:
        if member.confidence == HIGH:
            by_class.setdefault(member.container, []).append(member)
    for member in candidates:
        group = by_class.get(member.container)
        if member.confidence != HIGH and group and _dead_through(member, {m.dotted for m in group}):
            group.append(member)
    sets: list[ChangeSet] = []
    for owner, members in sorted(by_class.items()):
        span = _class_span(index, owner)
        if span is None:
            continue
        deleted = [s for m in members for s in m.spans]
        going = fields_going(index, owner, span, deleted)
        if len(members) < 2 and not going:
            continue
        members.sort(key=lambda m: m.line)
        left.take(members)
        sets.append(_cluster(owner, span, members, going))
    return sets


def _cluster(owner: str, span: Span, members: list[Member], going: list[FieldGoing]) -> ChangeSet:
    name = owner.rpartition(".")[2]
    methods = [n for m in members for n in m.named]
    lines = sum(m.lines for m in members) + sum(len(f.writes) for f in going)
    what = f"Class {name} has {counted(len(methods), 'method')} nothing calls ({named(methods)})"
    if going:
        what += f" and {counted(len(going), 'field')} only they read ({named([f.name for f in going])})"
    resources = [f.name for f in going if f.resource]
    simplification = f"Delete the {counted(len(methods), 'unused method')} of {name}"
    if going:
        simplification += (", and the fields only they read with the lines that set them ("
                           + ", ".join(f"{f.name}: line {', '.join(map(str, f.writes))}" for f in going) + ")")
    if resources:
        simplification += f"; {named(resources)} hold{'s' if len(resources) == 1 else ''} a resource built for them alone"
    extra = tuple(f"{span[0]}:{f.writes[0]} field {name}.{f.name} (read only by the deleted methods)" for f in going)
    verdict = decide("no consumer found")
    planned = change_planned(
        (UNUSED, span[1], DEFINITION), what, f"delete them ({lines} lines)", verdict, members,
        (f"{owner}.<unused methods>", "dead-methods", simplification + "."),
        (lines, BenefitKind.API, f"{lines} lines: {counted(len(methods), 'method')}"
         + (f" and {counted(len(going), 'field')}" if going else "") + f" of {name}", Heat.NEVER, NEVER["dead"]),
        extra, tuple(f.name for f in going))
    spans = tuple(s for m in members for s in m.spans) + tuple((span[0], w, w) for f in going for w in f.writes)
    return ChangeSet(planned, span[0], "class-cluster", tuple(members), spans)


def _grouped(members: list[Member], symbol: str, units: frozenset[str]) -> dict[tuple[str, str], list[Member]]:
    groups: dict[tuple[str, str], list[Member]] = {}
    for member in members:
        if member.symbol == symbol and member.unit in units and member.container:
            groups.setdefault((member.container, member.confidence or ""), []).append(member)
    return groups


def config_classes(index: ProjectIndex, left: _Left) -> list[ChangeSet]:
    sets: list[ChangeSet] = []
    for (owner, confidence), members in sorted(_grouped(left.candidates(), UNREAD, frozenset({"field"})).items()):
        if len(members) < 2:
            continue
        members.sort(key=lambda m: m.line)
        left.take(members)
        span = _class_span(index, owner)
        line, anchor = (span[1], DEFINITION) if span is not None else (members[0].line, members[0].planned.anchor)
        name = owner.rpartition(".")[2]
        fields = [m.dotted.rpartition(".")[2] for m in members]
        every = members[0].siblings == len(members)
        what = (f"None of the {len(fields)} fields of {name} is read" if every
                else f"{counted(len(fields), 'field')} of {name} reach no reader") + f" ({named(fields)})"
        fix = "remove the class and what builds it, or wire it" if every else "remove them and what sets them"
        lines = sum(m.lines for m in members)
        planned = change_planned(
            (UNREAD, line, anchor), what, fix, merged_verdict(members, confidence), members,
            (f"{owner}.<unread fields>", "unread-fields" if confidence == HIGH else "unread-fields-unsure",
             f"Remove the unread fields of {name} ({', '.join(fields)}) and every place that sets them."),
            (lines, BenefitKind.CONFIG, f"{counted(len(fields), 'field')} of {name}", Heat.UNKNOWN, ""))
        sets.append(ChangeSet(planned, members[0].path, "config-class", tuple(members), ()))
    for (config_file, confidence), members in sorted(_grouped(left.candidates(), UNREAD, frozenset({"yaml"})).items()):
        if len(members) < 2:
            continue
        members.sort(key=lambda m: m.dotted)
        left.take(members)
        keys = [m.dotted for m in members]
        planned = change_planned(
            (UNREAD, members[0].line, members[0].planned.anchor),
            f"{counted(len(keys), 'key')} of {config_file} reach no reader ({named(keys)})",
            "remove them from the config files, or read them", merged_verdict(members, confidence), members,
            (f"{config_file}::<unread keys>", "unread-keys" if confidence == HIGH else "unread-keys-unsure",
             f"Remove the keys {', '.join(keys)} from the config files that set them ({config_file} and the others "
             "the surface lists), or read them where they belong."),
            (sum(m.lines for m in members), BenefitKind.CONFIG, f"{counted(len(keys), 'key')} of {config_file}", Heat.UNKNOWN, ""))
        sets.append(ChangeSet(planned, members[0].path, "config-file", tuple(members), ()))
    return sets


def _through_tests_only(member: Member) -> bool:
    """A member high, or medium only because validation code uses it (its one doubt): production never does."""
    verdict = member.planned.verdict
    if verdict.confidence == HIGH:
        return True
    return len(verdict.unknowns) == 1 and bool(verdict.consumers) and all(
        c.kind is ConsumerKind.VALIDATION for c in verdict.consumers)


def tables(index: ProjectIndex, left: _Left) -> list[ChangeSet]:
    """Whole tables first (every entry a candidate, none read through it by production), then the unused entries
    of one table by confidence."""
    sets: list[ChangeSet] = []
    by_table: dict[str, list[Member]] = {}
    for member in left.candidates():
        if member.symbol == ENTRY and member.unit == "entry" and member.container:
            by_table.setdefault(member.container, []).append(member)
    for table, members in sorted(by_table.items()):
        if (len(members) >= 2 and members[0].container_at and members[0].siblings == len(members)
                and all(_through_tests_only(m) for m in members)):
            left.take(members)
            sets.append(_table(sorted(members, key=lambda m: m.line), table, HIGH, whole=True))
    for (table, confidence), members in sorted(_grouped(left.candidates(), ENTRY, frozenset({"entry"})).items()):
        if len(members) >= 2:
            left.take(members)
            sets.append(_table(sorted(members, key=lambda m: m.line), table, confidence, whole=False))
    return sets


def _table(members: list[Member], table: str, confidence: str, whole: bool) -> ChangeSet:
    name = table.rpartition(".")[2]
    keys = [m.dotted for m in members]
    first = members[0]
    parts = [part for part, _ in first.parts] if whole else []
    lines = sum(m.lines for m in members) + (sum(s[2] - s[1] + 1 for _, s in first.parts) if whole else 0)
    tests = sorted({c.path for m in members for c in m.planned.verdict.consumers if c.kind is ConsumerKind.VALIDATION})
    dying = [n for m in members for n in m.named[1:]]  # definitions only the table names: they go with it
    if whole:
        what = f"No production code reads any of the {len(keys)} entries of {name} through it ({named(keys)})"
        fix = "delete the table" + (f" and its {named(parts)}" if parts else "") + (
            f", and {named(dying)}, which only it names" if dying else ", never the definitions it names")
        if tests:
            fix += f"; {counted(len(tests), 'test file')} import{'s' if len(tests) == 1 else ''} through it"
        verdict = decide("no production lookup reads an entry through the table")
    else:
        what = f"{counted(len(keys), 'entry')} of {name} {'has' if len(keys) == 1 else 'have'} no production lookup ({named(keys)})"
        fix = "remove them from the table"
        verdict = merged_verdict(members, confidence)
    line, anchor = first.container_at if whole and first.container_at else (first.line, first.planned.anchor)
    spans = tuple(s for m in members for s in m.spans) + (tuple(s for _, s in first.parts) if whole else ())
    simplification = (f"Delete {name}" + (f" and its {', '.join(parts)}" if parts else "")
                      + (f", and import the definitions from their own modules in {', '.join(tests)}" if tests else "")
                      if whole else f"Remove the entries {', '.join(repr(k) for k in keys)} from {name}")
    kept = "; the other definitions it names stay (other code uses them)" if dying else "; the definitions it names stay (other code uses them)"
    simplification += (f", and delete {', '.join(dying)} (only {name} names {'it' if len(dying) == 1 else 'them'})" if dying else "") + kept
    planned = change_planned(
        (ENTRY, line, anchor), what, f"{fix} ({lines} lines)", verdict, members,
        (f"{table}<{'table' if whole else 'unused entries'}>", "table" if whole else "entries", simplification + "."),
        (lines, BenefitKind.API, f"{lines} lines: {counted(len(keys), 'entry')} of {name}", Heat.UNKNOWN, ""),
        tuple(f"{s[0]}:{s[1]} {part} (serves only {name})" for part, s in (first.parts if whole else ())))
    return ChangeSet(planned, first.path, "table", tuple(members), spans)


def _small(change: ChangeSet) -> str:
    """Which small cleanup a change alone belongs to: "dead" (a micro dead function, class or method), "unread" (a
    micro config field nothing reads, high), or "" (none: it stays a change of its own)."""
    member, details = change.members[0], change.planned.details
    if change.kind != "single" or details is None or not details.benefit.micro or change.planned.verdict.status is not Status.CANDIDATE:
        return ""
    if member.symbol == UNUSED and member.status == "dead" and member.unit in ("function", "class", "method"):
        return "dead"
    if member.symbol == UNREAD and member.status == "unread" and member.unit == "field" and member.confidence == HIGH:
        return "unread"  # a medium field's own doubt (a test reads it, a comment says it is read) is its own decision
    return ""


def small_cleanups(index: ProjectIndex, sets: list[ChangeSet]) -> list[ChangeSet]:
    """Micro findings left alone in one package, by confidence, are one cleanup each, as the audit bundles small
    cleanups rather than giving each a line: dead definitions (a 3-line dead method, a one-line helper) and unread
    config fields (one field of each of several config classes). Run on the folded sets after the lost features are
    named (a dead reader of a feature is never small); a shadowed definition keeps its sharper message, and a lone CLI
    option, YAML key or registry entry stays a change of its own: each is a name users may type."""
    groups: dict[tuple[str, str, str], list[ChangeSet]] = {}
    for change in sets:
        kind = _small(change)
        if kind:
            member = change.members[0]
            groups.setdefault((kind, member.path.rpartition("/")[0], member.confidence or ""), []).append(change)
    bundled: dict[int, ChangeSet] = {}
    for (kind, folder, confidence), changes in sorted(groups.items()):
        if len(changes) < 2:
            continue
        members = sorted((c.members[0] for c in changes), key=lambda m: (m.path, m.line))
        init = f"{folder}/__init__.py" if folder else "__init__.py"
        path = init if init in index.entries else members[0].path
        bundle = (_dead_bundle if kind == "dead" else _unread_bundle)(members, folder, confidence, path)
        for change in changes:
            bundled[id(change)] = bundle
    kept = [bundled.get(id(change), change) for change in sets]
    return list({id(change): change for change in kept}.values())


def _dead_bundle(members: list[Member], folder: str, confidence: str, path: str) -> ChangeSet:
    names = [n for m in members for n in shown(m)]
    lines = sum(m.lines for m in members)
    what = f"Package {folder or '(root)'} has {counted(len(names), 'small dead definition')} ({named(names)})"
    planned = change_planned(
        (UNUSED, 1, MODULE), what, f"delete them ({lines} lines)", merged_verdict(members, confidence), members,
        (f"{folder}/<small dead definitions>", "small-cleanups" if confidence == HIGH else "small-cleanups-unsure",
         "One cleanup: " + " ".join(m.details.simplification for m in members if m.details is not None)),
        (lines, BenefitKind.API, f"{lines} lines: {counted(len(names), 'small dead definition')} in {folder}",
         Heat.NEVER, NEVER["dead"]))
    return ChangeSet(planned, path, "small-cleanups", tuple(members), tuple(s for m in members for s in m.spans))


def _unread_bundle(members: list[Member], folder: str, confidence: str, path: str) -> ChangeSet:
    fields = [".".join(m.dotted.rsplit(".", 2)[-2:]) for m in members]
    lines = sum(m.lines for m in members)
    what = f"Package {folder or '(root)'} has {counted(len(fields), 'config field')} nothing reads ({named(fields)})"
    planned = change_planned(
        (UNREAD, 1, MODULE), what, "remove them and what sets them", merged_verdict(members, confidence), members,
        (f"{folder}/<unread config fields>", "unread-config-fields" if confidence == HIGH else "unread-config-fields-unsure",
         f"One cleanup: remove the unread fields {', '.join(fields)} and every place that sets them."),
        (lines, BenefitKind.CONFIG, f"{counted(len(fields), 'config field')} in {folder}", Heat.UNKNOWN, ""))
    return ChangeSet(planned, path, "small-cleanups", tuple(members), ())


def _take_in(sets: list[ChangeSet]) -> list[ChangeSet]:
    """A change whose code lies inside what a high-confidence dead change deletes goes with that change."""
    deleting = [s for s in sets if s.planned.verdict.confidence == HIGH and s.members[0].status in DELETING]
    kept: list[ChangeSet] = []
    absorbed: dict[int, list[Member]] = {}
    for change in sets:
        host = next((d for d in deleting if d is not change and change.spans and all(
            inside(d.spans, path, first) and inside(d.spans, path, last) for path, first, last in change.spans)), None)
        if host is None:
            kept.append(change)
        else:
            absorbed.setdefault(id(host), []).extend(change.members)
    return [_with_members(c, absorbed.get(id(c), [])) for c in kept]


def _with_members(change: ChangeSet, extra: list[Member]) -> ChangeSet:
    if not extra:
        return change
    details = change.planned.details
    if details is None:
        return change
    refs = details.members or tuple(m.ref() for m in change.members)
    details = replace(details, members=refs + tuple(m.ref() for m in extra))
    return replace(change, planned=replace(change.planned, details=details), members=change.members + tuple(extra))


def fold(index: ProjectIndex, members: list[Member]) -> list[ChangeSet]:
    """Every member in one change set (see the module docstring)."""
    left = _Left([never_runs(m) for m in members])
    sets = [*class_clusters(index, left), *config_classes(index, left), *tables(index, left)]
    helpers = module_helpers(index, left.candidates())
    left.take([member for change in helpers for member in change.members])
    sets += helpers
    spread = [*dead_modules(index, left.candidates()), *repeated_functions(index, left.candidates())]
    left.take([member for change in spread for member in change.members])
    sets += spread
    sets += [single(m) for m in left.free()]
    return _take_in(sets)
