"""`duplicated-state-field`: the same fact held by two owners.

Five shapes, each proven before it is reported (same names are never proof):
- mirror copies: three or more `self.X = src.X` from one source in one method, never
  written again, or `Cls(X=src.X, ...)` with three or more such keywords;
- derivable fields: a field only ever assigned from other fields of the same object,
  whose sources change after construction, so it is kept in sync by hand;
- overwritten provisional values: a constructor field that every production builder
  overwrites right after construction from the same other source;
- two containers, one fact: a set that is always a dict's key set, two maps (or
  sets) with the same members, or a map whose values are computed from another's
  under the same key (`state.maps`; same keys and lifecycle alone are not enough);
- written, never read: a field no production code reads, by any owner, searched in
  code (attributes, `getattr` strings, literals), YAML/JSON/TOML keys and docs.
Traps (rejected with the reason): classes that cross a process/IPC boundary, frozen
snapshots, classes read by reflection, fields a base outside the project may need,
fields another class of the hierarchy assigns (or a base reads as a slot), copies of
configuration or processor constants, torch wrappers taking submodules from a
parameter, documented compatibility aliases. Patterns come from `state.patterns`,
sources from `state.sources`, the hierarchy from `state.hierarchy`, evidence from
`state.evidence` and the project index.
"""

from __future__ import annotations

from dataclasses import replace

from astroid import nodes
from pylint.checkers.utils import safe_infer
from pylint.lint import PyLinter

from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.state.wording import (
    derived_details, derived_proof, derived_text, maps_details, maps_proof, maps_text, mirror_details, mirror_proof,
    mirror_text, never_read_details, never_read_text, provisional_details, provisional_proof, provisional_text,
    UnreadField, unread_fields_details, unread_fields_text,
)
from pylint_omni.evidence.consumers import Status, Verdict, decide, judge
from pylint_omni.evidence.findings import FindingDetails, MemberRef
from pylint_omni.evidence.identity import finding_id
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.evidence.upstream_readers import indexed_bases, upstream_consumers
from pylint_omni.state.evidence import OwnerFacts, OwnerLookup, field_readers, infer_source_class, provisional_overwrites
from pylint_omni.state.layers import layer_doubt
from pylint_omni.state.hierarchy import attribute_hook, class_graph, hierarchy_claims, is_exception
from pylint_omni.state.aliases import Alias, alias_details, alias_text, find_aliases
from pylint_omni.state.notes import compat_note, reader_note
from pylint_omni.state.maps import MapPair, find_map_pairs
from pylint_omni.state.unread import MIN_CLUSTER, local_handover, value_doubts, worth
from pylint_omni.state.patterns import (
    ClassState, Derived, FieldWrite, Mirror, find_derived, keyword_mirrors, find_mirrors, read_class_state,
)
from pylint_omni.state.sources import (
    collaborator_shortcuts,
    reference_copies,
    constant_source,
    judge_source,
    owner_rejections,
    torch_wrapper_reason,
)

SYMBOL = "duplicated-state-field"
SNAPSHOT_METHOD_WORDS = ("snapshot", "freeze", "frozen", "copy", "clone")
CHEAP_CALLS = frozenset({"len", "bool", "int", "float", "str", "abs", "round"})


class DuplicatedStateChecker(OmniChecker):
    """Flags fields that duplicate a fact another owner (or the same object) already holds."""

    msgs = {
        "R7303": (
            "%s",
            SYMBOL,
            "Two owners hold the same fact: field-by-field mirrors of another object, a "
            "field derivable from other fields, a constructor field every builder overwrites, "
            "a set or map that follows from another one (its key set, its values), or a field "
            "nothing in production reads. Keep one owner; the message names both owners and "
            "the evidence.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._index: ProjectIndex | None = None
        self._relpath = ""
        self._lookup: OwnerLookup | None = None
        self._lookup_key: tuple | None = None

    def visit_module(self, node: nodes.Module) -> None:
        self._index = None
        found = self.audited_index_for(node)
        if found is None:
            return
        self._index, self._relpath = found
        key = (id(self._index), id(self._index.stats), hash(tuple(sorted(self._index.overrides.items()))))
        if key != self._lookup_key:
            self._lookup, self._lookup_key = OwnerLookup(self._index), key

    # -- per class ------------------------------------------------------------------------
    def visit_classdef(self, node: nodes.ClassDef) -> None:
        if self._index is None or self._lookup is None:
            return
        state = read_class_state(node)
        if not state.writes:
            return
        owner = self._lookup.owner(node)
        reported: set[str] = set()
        for mirror in find_mirrors(state):
            reported.update(mirror.fields)
            self._report_mirror(mirror, owner, state)
        for derived in find_derived(state):
            if derived.name in reported:
                continue  # one finding per field: the mirror already names it
            reported.add(derived.name)
            self._report_derived(derived, owner, state)
        for alias in find_aliases(state):
            if reported.isdisjoint(alias.fields):
                reported.update(alias.fields)
                self._report_alias(alias, owner, state)
        for pair in find_map_pairs(state):
            if pair.derived not in reported:
                reported.update((pair.primary, pair.derived))
                self._report_maps(pair, owner, state)
        for name in sorted(state.writes):
            if name not in reported and self._report_provisional(name, owner, state):
                reported.add(name)
        self._report_never_read([n for n in sorted(state.writes) if n not in reported], owner, state)

    def visit_call(self, node: nodes.Call) -> None:
        if self._index is None or self._lookup is None or not node.keywords:
            return
        for mirror in keyword_mirrors(node):
            self._report_keyword_mirror(mirror)

    # -- shared rejections ---------------------------------------------------------------
    def _span(self, klass: nodes.ClassDef) -> tuple[str, int, int]:
        return (self._relpath, klass.fromlineno or klass.lineno, klass.tolineno or klass.lineno)

    def _base_rejections(self, owner: OwnerFacts, names: list[str]) -> list[str]:
        assert self._lookup is not None
        reasons = [
            f"{name} exists on the base {base} outside the project"
            for name in names
            if (base := self._lookup.base_mentions(owner, name))
        ]
        if owner.unresolved_bases:
            reasons.append(
                f"the base {owner.unresolved_bases[0]} of {owner.name} is outside the project and cannot be "
                f"inspected here; it may require {', '.join(names[:3])}"
            )
        if owner.combined_with:
            child, base = owner.combined_with
            reasons.append(f"{child} combines {owner.name} with {base}, outside the project and not inspected here: "
                           f"its methods run on the same object and may read {', '.join(names[:3])}")
        return reasons

    def _hierarchy_rejections(self, klass: nodes.ClassDef, names: list[str]) -> list[str]:
        """Another class of the hierarchy assigns the field (or a base reads it as a slot)."""
        assert self._index is not None
        reasons = []
        for name in names:
            claims = hierarchy_claims(self._index, self._relpath, klass.lineno, name)
            if claims:
                reasons.append(f"{claims[0].describe(name)}: a property or a deleted copy would break it")
        return reasons[:1]

    def _emit(self, node: nodes.NodeNG, verdict: Verdict, text: str, details: FindingDetails, subject: str, kind: str,
              writes: list[FieldWrite] | None = None) -> None:
        """Emit at `node`; the benefit's heat is the hottest of the field's `writes` (default: the node).

        `subject` and `kind` make the finding id: the owner's qualified name and which shape was found.
        """
        self.emit(SYMBOL, node, verdict, (text,), replace(details, subject=subject, kind=kind),
                  heat_sites=[w.node for w in writes or []])

    def _family(self, klass: nodes.ClassDef) -> set[str]:
        """The class and its project bases and subclasses: the only owners whose writes count as evidence."""
        assert self._index is not None
        return class_graph(self._index).family(self._relpath, klass.lineno) or {klass.name}

    def _class_sites(self, *names: str) -> list[str]:
        """`path:line class Name` of each project class with that name, when the index has exactly one."""
        assert self._index is not None
        sites = []
        for name in names:
            found = [d for d in self._index.definitions_named(name) if d.kind == "class"]
            sites += [f"{found[0].path}:{found[0].data['line']} class {name}"] if len(found) == 1 else []
        return sites

    @staticmethod
    def _verdict(rejects: list[str], mediums: list[str], high_reason: str) -> Verdict:
        return decide(high_reason, rejects=rejects, doubts=mediums)

    # -- the five shapes -------------------------------------------------------------------
    def _report_mirror(self, mirror: Mirror, owner: OwnerFacts, state: ClassState) -> None:
        assert self._index is not None and self._lookup is not None
        klass = state.node
        source_name, source_rejects, mediums = judge_source(self._index, self._lookup, mirror.source)
        wrapper = torch_wrapper_reason(self._lookup, owner, mirror.source)
        rejects = owner_rejections(owner) + self._base_rejections(owner, mirror.fields) + ([wrapper] if wrapper else [])
        rejects += self._hierarchy_rejections(klass, mirror.fields) + source_rejects
        shortcuts = collaborator_shortcuts(mirror.source, mirror.fields) or reference_copies(mirror.source, mirror.fields)
        rejects += [shortcuts] if shortcuts else []
        if any(word in mirror.method.lower() for word in SNAPSHOT_METHOD_WORDS):
            rejects.append(f"deliberate snapshot: copied in {mirror.method}")
        compat = compat_note(klass, mirror.fields[0], [mirror.anchor.lineno])
        rejects += [compat] if compat else []
        family = self._family(klass)
        written = {n: self._lookup.foreign_writes(n, family) for n in mirror.fields}
        elsewhere = [f"{n} ({w[0]})" for n, w in written.items() if w]
        if elsewhere:
            mediums.append(f"also assigned outside {klass.name} on an object that may be one: " + ", ".join(elsewhere[:2]))
        verdict = self._verdict(rejects, mediums, "each field is assigned once, from the same source")
        keeps_source = mirror.source.as_string() in {
            w.value.as_string() for ws in state.writes.values() for w in ws if w.value is not None
        }
        source = source_name or mirror.source.as_string()
        self._emit(mirror.anchor, verdict, mirror_text(klass.name, source, mirror, verdict), mirror_details(
            self._relpath, klass.name, source, mirror, self._class_sites(source_name),
            mirror_proof(mirror, keeps_source, klass.name)), f"{klass.qname()} <- {mirror.source.as_string()}", "mirror")

    def _report_keyword_mirror(self, mirror: Mirror) -> None:
        assert self._index is not None and self._lookup is not None and mirror.call is not None
        target = safe_infer(mirror.call.func)
        if not isinstance(target, nodes.ClassDef):
            return
        declared = self._lookup.declared_message(target.name)
        rejects = [f"crosses a process/IPC boundary: {declared}"] if declared else []
        if not self._lookup.is_project(target):
            rejects.append(f"{target.qname()} is outside the project: its constructor is an upstream contract")
        else:
            target_owner = self._lookup.owner(target)
            rejects += owner_rejections(target_owner)
            rejects += [
                f"{target.name} builds on {base}, outside the project: its constructor is an upstream contract"
                for base in target_owner.unresolved_bases[:1]
            ]
        source_name, source_rejects, mediums = judge_source(self._index, self._lookup, mirror.source)
        rejects += source_rejects
        references = reference_copies(mirror.source, mirror.fields)
        rejects += [references] if references else []
        if any(word in mirror.method.lower() for word in SNAPSHOT_METHOD_WORDS):
            rejects.append(f"deliberate snapshot: copied in {mirror.method}")
        source_class = infer_source_class(mirror.source)[0]
        if source_class is not None and source_class.qname() == target.qname():
            rejects.append(f"a second {target.name} built from the first: two roles that start out equal (a copy), "
                           "not one fact held twice")
        layered = layer_doubt(self._index, target, source_class)
        mediums = [*mediums, layered] if layered else mediums
        verdict = self._verdict(rejects, mediums, "both owners are project classes holding the same fields")
        source = source_name or mirror.source.as_string()
        self._emit(mirror.call, verdict, mirror_text(target.name, source, mirror, verdict), mirror_details(
            self._relpath, target.name, source, mirror, self._class_sites(target.name, source_name),
            mirror_proof(mirror, False, target.name)),
            f"{mirror.call.frame().qname()}: {target.name} <- {mirror.source.as_string()}", "keyword-mirror")

    def _report_derived(self, derived: Derived, owner: OwnerFacts, state: ClassState) -> None:
        assert self._index is not None and self._lookup is not None
        klass = state.node
        rejects = owner_rejections(owner, snapshot=False) + self._base_rejections(owner, [derived.name])
        compat = compat_note(klass, derived.name, [w.node.lineno for w in derived.sites])
        rejects += [compat] if compat else []
        rejects += [f"{klass.name} reads itself by reflection ({state.dynamic_self[0]})"] if state.dynamic_self else []
        rejects += self._hierarchy_rejections(klass, [derived.name])
        live = [s for s in derived.sources if state.changed_outside_init(s)]
        constants = [reason for s in live if (reason := constant_source(s))]
        if constants and len(constants) == len(live):
            rejects.append(f"derived from {constants[0]}")
        mediums = []
        if derived.bare:
            mediums.append(f"a bare copy of `{derived.expression}`: the two names may be distinct facts that coincide")
        calls = {c.func.as_string() for w in derived.sites for c in w.value.nodes_of_class(nodes.Call)}
        if calls - CHEAP_CALLS:
            mediums.append(f"recomputing {', '.join(sorted(calls - CHEAP_CALLS))}() on every read may cost more")
        written = self._lookup.foreign_writes(derived.name, self._family(klass))
        if written:
            mediums.append(f"{derived.name} is also assigned outside {klass.name} on an object that may be one ({', '.join(written[:2])})")
        changed = sorted(set().union(*(state.changed_in(s) for s in derived.sources)) - state.construction_methods())
        verdict = self._verdict(rejects, mediums, "re-derived by hand at every site")
        self._emit(state.first_write(derived.name).node, verdict, derived_text(klass.name, derived, changed, verdict),
                   derived_details(self._relpath, klass.name, derived, derived_proof(derived, changed)),
                   f"{klass.qname()}.{derived.name}", "derived", derived.sites)

    def _report_alias(self, alias: Alias, owner: OwnerFacts, state: ClassState) -> None:
        assert self._lookup is not None
        klass = state.node
        rejects = owner_rejections(owner, snapshot=False) + self._base_rejections(owner, alias.fields)
        rejects += self._hierarchy_rejections(klass, alias.fields)
        if owner.torch_module:  # `self.embed = self.lm_head = emb`: tied weights are one module under two names
            rejects.append(f"{klass.name} is a torch module: both names may be registered on purpose (tied weights)")
        compat = compat_note(klass, alias.fields[-1], [w.node.lineno for w in alias.writes])
        rejects += [compat] if compat else []
        rejects += [f"{klass.name} reads itself by reflection ({state.dynamic_self[0]})"] if state.dynamic_self else []
        family = self._family(klass)
        outside = [f"{n} ({w})" for n in alias.fields for w in self._lookup.foreign_writes(n, family)[:1]]
        mediums = [f"also assigned outside {klass.name} on an object that may be one: " + ", ".join(outside[:2])] if outside else []
        verdict = self._verdict(rejects, mediums, "each name is bound once, at construction, to the same object")
        proof = f"{' and '.join(alias.fields)} are both `{alias.source}` and never rebound in {klass.name} or its family"
        self._emit(alias.writes[1].node, verdict, alias_text(klass.name, alias, verdict),
                   alias_details(self._relpath, klass.name, alias, proof),
                   f"{klass.qname()}.{'+'.join(alias.fields)}", "alias", list(alias.writes))

    def _report_maps(self, pair: MapPair, owner: OwnerFacts, state: ClassState) -> None:
        assert self._index is not None and self._lookup is not None
        klass = state.node
        group = [pair.primary, pair.derived]
        rejects = owner_rejections(owner, snapshot=False)
        compat = compat_note(klass, pair.derived, [state.first_write(n).node.lineno for n in group])
        rejects += [compat] if compat else []
        mediums = []
        family = self._family(klass)
        outside = [f"{n} ({w})" for n in group for w in self._lookup.foreign_writes(n, family)[:1]]
        if outside:
            mediums.append(f"also assigned outside {klass.name} on an object that may be one: " + ", ".join(outside[:2]))
        verdict = self._verdict(rejects, mediums, pair.how.replace("`", ""))
        lines = [state.first_write(n).node.lineno for n in group]
        writes = [w for n in group for w in state.writes[n]]
        self._emit(state.first_write(pair.derived).node, verdict, maps_text(klass.name, pair, verdict),
                   maps_details(self._relpath, klass.name, pair, lines, maps_proof(pair)),
                   f"{klass.qname()}.{'+'.join(group)}", "parallel-maps", writes)

    def _report_provisional(self, name: str, owner: OwnerFacts, state: ClassState) -> bool:
        assert self._index is not None
        writes = state.writes[name]
        write = writes[0]
        if len(writes) != 1 or write.method != "__init__" or not isinstance(write.value, nodes.Name):
            return False
        init = write.node.frame()
        if not isinstance(init, nodes.FunctionDef) or write.value.name not in init.argnames():
            return False
        overwrites = provisional_overwrites(self._index, state.node.name, name)
        if not overwrites:
            return False
        rejects = owner_rejections(owner, snapshot=False)
        compat = compat_note(state.node, name, [write.node.lineno])
        rejects += [compat] if compat else []
        verdict = self._verdict(rejects, [], "every production construction overwrites it")
        klass = state.node.name
        self._emit(write.node, verdict, provisional_text(klass, name, write.value.name, overwrites, verdict),
                   provisional_details(self._relpath, write.node.lineno, klass, name, write.value.name, overwrites,
                                       provisional_proof(klass, name, overwrites)),
                   f"{state.node.qname()}.{name}", "provisional")
        return True

    def _judge_never_read(self, name: str, owner: OwnerFacts, state: ClassState) -> tuple[Verdict, list[FieldWrite]] | None:
        """The verdict on a field nothing reads (None: it is read, or it is no field to judge)."""
        assert self._index is not None
        klass = state.node
        if name.startswith("__") and name.endswith("__"):
            return None
        writes = [w for w in state.writes[name] if w.kind != "del"]
        if not writes:
            return None
        readers = field_readers(self._index, name, self._span(klass))
        rejects = owner_rejections(owner, snapshot=False) + self._base_rejections(owner, [name])
        inspected = indexed_bases(self._index, owner.unresolved_bases)
        if owner.unresolved_bases and inspected == owner.unresolved_bases:
            # The upstream index reads those bases: their readers are judged below, not guessed.
            rejects = [r for r in rejects if "cannot be inspected here" not in r]
        if state.dynamic_self:
            rejects.append(f"{klass.name} reads itself by reflection ({state.dynamic_self[0]})")
        rejects += [reason for reason in (attribute_hook(klass), local_handover(klass)) if reason]
        upstream = upstream_consumers(self._index, klass.qname(), name)
        if upstream:
            rejects.append(f"upstream reads it on the same kind of object: {upstream[0].describe()}")
        compat = compat_note(klass, name, [w.node.lineno for w in writes])
        rejects += [compat] if compat else []
        mediums = value_doubts(writes, owner, rejects)
        said = reader_note(writes)
        if said:
            mediums.append(f"a comment says something outside reads it: {said!r}")
        if inspected and not upstream:
            mediums.append(f"the upstream base {inspected[0]} neither reads nor calls it on this kind of object; "
                           "upstream reads on objects of unknown class are not followed")
        if is_exception(klass):
            mediums.append(f"{klass.name} is an exception: callers outside the repository may read .{name} of the caught error")
        loaded = self._lookup.loaded_by_name(klass.name) if self._lookup and not name.startswith("_") else None
        if loaded:
            mediums.append(f"{klass.name} is loaded by name ({loaded}): code outside the repository may read .{name}")
        verdict = judge(readers, reject_reasons=rejects, medium_reasons=mediums)
        return None if verdict.status is Status.LIVE else (verdict, writes)

    def _report_never_read(self, names: list[str], owner: OwnerFacts, state: ClassState) -> None:
        """Unread fields worth an audit line: run-time work, a kept object, a computation, or a cluster. Two candidates
        or more of one confidence are one change, one message (each field is its own with `omni-granularity=member`)."""
        assert self._index is not None
        judged = {name: found for name in names if (found := self._judge_never_read(name, owner, state))}
        candidates = [n for n, (verdict, _) in judged.items() if verdict.status is Status.CANDIDATE]
        cluster = len(candidates) >= MIN_CLUSTER
        klass, qname = state.node.name, state.node.qname()
        by_confidence: dict[tuple[str, str | None], list[tuple[Verdict, list[FieldWrite], UnreadField]]] = {}
        for name, (verdict, writes) in judged.items():
            gain = worth(name, writes, state)
            if gain is None and not cluster and verdict.status is Status.CANDIDATE:
                continue  # an isolated constant or copy written once: lint, not an audit candidate
            details = replace(never_read_details(self._relpath, klass, name, writes, gain, len(candidates) if cluster else 0),
                              subject=f"{qname}.{name}", kind="never-read")
            field = (name, state.first_write(name), details, never_read_text(klass, name, writes, verdict))
            alone = verdict.status is not Status.CANDIDATE or self._index.settings.per_member
            key = ("field", name) if alone else ("fields", verdict.confidence)
            by_confidence.setdefault(key, []).append((verdict, writes, field))
        for group in by_confidence.values():
            group.sort(key=lambda found: found[2][1].node.lineno)
            if len(group) == 1:
                verdict, writes, (_, first, details, text) = group[0]
                self._emit(first.node, verdict, text, details, details.subject, details.kind, writes)
                continue
            # One confidence per group: a medium field's doubt is its unknowns, or its reason when it lists none.
            doubts = dict.fromkeys(d for v, _, _ in group if v.confidence != "high" for d in (v.unknowns or [v.reason]))
            verdict = decide(group[0][0].reason, doubts=doubts)
            fields = [field for _, _, field in group]
            members = tuple(MemberRef(SYMBOL, "never-read", d.subject, finding_id(SYMBOL, d.subject, "never-read"),
                                      self._relpath, w.node.lineno, d.benefit.lines, v.confidence, text)
                            for v, _, (_, w, d, text) in group)
            self._emit(fields[0][1].node, verdict, unread_fields_text(klass, fields, verdict),
                       unread_fields_details(klass, fields, members), f"{qname}.<unread fields>", "never-read-fields",
                       [w for _, writes, _ in group for w in writes])

def register(linter: PyLinter) -> None:
    linter.register_checker(DuplicatedStateChecker(linter))
