"""Wording of `duplicated-state-field`: short messages and the report's details.

Message text, one line each (`short_message`): what is duplicated, the single owner
to keep, and one evidence clause (the proof when high, the doubt when medium).
Report details (`*_details`): the surface as `path:line symbol` strings, the change,
what disappears (fields, writes), what could change, the names whose tests validate
it, and the full proof (`proof`) that the message only summarises.
"""

from __future__ import annotations

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.consumers import Verdict
from pylint_omni.evidence.findings import FindingDetails, MemberRef
from pylint_omni.evidence.wording import evidence_clause, short_message
from pylint_omni.state.evidence import Overwrite
from pylint_omni.state.maps import MapPair
from pylint_omni.state.patterns import Derived, FieldWrite, Mirror

MAX_NAMED = 4  # fields named in a message


def _names(items: list[str], limit: int = MAX_NAMED) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" (+{len(items) - limit} more)" if len(items) > limit else "")


def _count(number: int, noun: str, nouns: str = "") -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {nouns or noun + 's'}"


def _lines(writes: list[FieldWrite]) -> str:
    return ", ".join(str(n) for n in sorted({w.node.lineno for w in writes})[:MAX_NAMED])


# -- mirror copies ---------------------------------------------------------------------
def mirror_proof(mirror: Mirror, keeps_source: bool, owner: str) -> str:
    src = mirror.source.as_string()
    return (
        f"{len(mirror.fields)} same-named fields copied from `{src}` in {mirror.method}"
        + (", none written again in the class" if mirror.call is None else "")
        + (f"; {owner} also keeps `{src}` itself" if keeps_source else "")
    )


def mirror_text(owner: str, source: str, mirror: Mirror, verdict: Verdict) -> str:
    src = mirror.source.as_string()
    form = f"{owner}(...) is built with" if mirror.call is not None else f"{owner} copies"
    proof = f"each copied once in {mirror.method}" + ("" if mirror.call is not None else ", never written again")
    return short_message(f"{form} {_names(mirror.fields, 3)} from {source} (`{src}`)",
                         f"keep {source} as the single owner and read `{src}.<field>`", evidence_clause(verdict, proof))


def mirror_details(relpath: str, owner: str, source: str, mirror: Mirror, sites: list[str], proof: str) -> FindingDetails:
    """`sites`: where the classes of both owners are defined, when the index knows them."""
    src, count = mirror.source.as_string(), len(mirror.fields)
    if mirror.call is not None:
        surface = f"{relpath}:{mirror.call.lineno} {owner}({', '.join(f'{f}=' for f in mirror.fields)})"
        change = f"Build {owner} from `{src}` (or pass `{src}` itself) instead of copying {_names(mirror.fields)} field by field"
        benefit = f"{_count(count, 'copied keyword')} at this call; {owner} keeps one reference to {source}"
    else:
        surface = f"{relpath}:{mirror.anchor.lineno} {owner}: {', '.join(mirror.fields)}"
        change = f"Delete {_count(count, 'field')} of {owner} copied from `{src}` and read `{src}.<field>` instead"
        benefit = (f"{_count(count, 'field')} of {owner} ({_names(mirror.fields)}) "
                   f"and the {_count(count, 'copy', 'copies')} in {mirror.method}")
    risk = f"Readers now see later changes of {source}; code that relied on the copies as a frozen snapshot changes."
    gain = Benefit(2 * count, BenefitKind.STATE, benefit, scope=owner)
    return FindingDetails([surface, *sites], change + ".", gain, risk, [owner, *mirror.fields], proof)


# -- derivable fields ------------------------------------------------------------------
def derived_proof(derived: Derived, changed_in: list[str]) -> str:
    sites = ", ".join(f"line {w.node.lineno}" for w in derived.sites)
    changes = "s" if len(derived.sources) == 1 else ""
    return (f"{derived.name} is only ever assigned `{derived.expression}` ({sites}); "
            f"{_names(derived.sources)} change{changes} in {_names(changed_in) or 'construction only'}")


def derived_text(owner: str, derived: Derived, changed_in: list[str], verdict: Verdict) -> str:
    proof = f"re-assigned by hand at {_count(len(derived.sites), 'site')}; sources change in {_names(changed_in, 2)}"
    return short_message(f"{owner}.{derived.name} always equals `{derived.expression}`",
                         "replace it with a property", evidence_clause(verdict, proof))


def derived_details(relpath: str, owner: str, derived: Derived, proof: str) -> FindingDetails:
    lines = sorted(w.node.lineno for w in derived.sites)
    surface = [f"{relpath}:{line} {owner}.{derived.name} = {derived.expression}" for line in lines]
    change = f"Replace {owner}.{derived.name} with a property returning `{derived.expression}` and delete its assignments"
    benefit = f"1 field and {_count(len(derived.sites), 'hand-written update')}"
    risk = (f"Readers get the current value of {_names(derived.sources)}, not the one at the last update; "
            "the property recomputes on every read.")
    gain = Benefit(1 + len(derived.sites), BenefitKind.STATE, benefit, scope=owner)
    return FindingDetails(surface, change + ".", gain, risk, [owner, derived.name], proof)


# -- overwritten provisional values ----------------------------------------------------
def provisional_proof(owner: str, name: str, overwrites: list[Overwrite]) -> str:
    listed = ", ".join(f"{o.path}:{o.line} (= {o.source})" for o in overwrites[:3])
    return f"every production construction of {owner} ({len(overwrites)}) overwrites .{name}: {listed}"


def provisional_text(owner: str, name: str, param: str, overwrites: list[Overwrite], verdict: Verdict) -> str:
    sources = sorted({o.source for o in overwrites})
    first = overwrites[0]
    proof = f"all {len(overwrites)} builders overwrite it, e.g. {first.path}:{first.line}"
    return short_message(f"{owner}.{name} (parameter `{param}`) is overwritten by every builder from {_names(sources, 2)}",
                         f"pass {sources[0]} at construction and drop the overwrite", evidence_clause(verdict, proof))


def provisional_details(relpath: str, line: int, owner: str, name: str, param: str, overwrites: list[Overwrite],
                        proof: str) -> FindingDetails:
    surface = [f"{relpath}:{line} {owner}.{name} = {param}"]
    surface += [f"{o.path}:{o.line} {owner}.{name} = {o.source}" for o in overwrites]
    sources = sorted({o.source for o in overwrites})
    change = f"Pass {_names(sources)} when constructing {owner} and drop the {_count(len(overwrites), 'overwrite')} of .{name}"
    benefit = f"{_count(len(overwrites), 'post-construction write')} of .{name} and a provisional value nobody reads"
    risk = f"Code that reads .{name} between construction and the overwrite, or a builder outside this repository, sees another value."
    gain = Benefit(1 + len(overwrites), BenefitKind.STATE, benefit, scope=owner)
    return FindingDetails(surface, change + ".", gain, risk, [owner, name], proof)


# -- two containers, one fact ----------------------------------------------------------
def maps_proof(pair: MapPair) -> str:
    lifecycle = "written and removed" if pair.removed else "written (neither is ever removed)"
    return f"{pair.how}; both are {lifecycle} under the same keys in {_names(list(pair.methods))}"


def maps_text(owner: str, pair: MapPair, verdict: Verdict) -> str:
    methods = _names(list(pair.methods), 3)
    if pair.relation == "key set":
        what, fix = f"{owner}.{pair.derived} is always the key set of {owner}.{pair.primary}", f"drop it and test `k in self.{pair.primary}`"
        proof = f"added and removed with its keys in {methods}"
    elif pair.relation == "same members":
        what, fix = f"{owner}.{pair.derived} always holds what {owner}.{pair.primary} holds", "keep one of them"
        proof = f"same keys and values in {methods}"
    else:
        what, fix = f"{owner}.{pair.derived} is derivable from {owner}.{pair.primary}", f"compute it from {pair.primary}[k] where read"
        proof = pair.how
    return short_message(what, fix, evidence_clause(verdict, proof))


def maps_details(relpath: str, owner: str, pair: MapPair, lines: list[int], proof: str) -> FindingDetails:
    surface = [f"{relpath}:{line} {owner}.{name}" for name, line in zip((pair.primary, pair.derived), lines)]
    if pair.relation == "key set":
        change = f"Delete {owner}.{pair.derived}; use `k in self.{pair.primary}` / `self.{pair.primary}.keys()`"
    elif pair.relation == "same members":
        change = f"Delete {owner}.{pair.derived} and use {owner}.{pair.primary}"
    else:
        change = f"Delete {owner}.{pair.derived}; compute its value from {owner}.{pair.primary}[k] where it is read"
    benefit = f"1 container field and its parallel writes{' and removals' if pair.removed else ''} in {_names(list(pair.methods))}"
    risk = f"Code that iterates, orders or hands out {pair.derived} sees {pair.primary}'s structure instead; {owner}'s tests cover it."
    gain = Benefit(2 + len(pair.methods), BenefitKind.STATE, benefit, scope=owner)
    return FindingDetails(surface, change + ".", gain, risk, [owner, pair.primary, pair.derived], proof)


# -- written, never read ---------------------------------------------------------------
def never_read_text(owner: str, name: str, writes: list[FieldWrite], verdict: Verdict) -> str:
    return short_message(f"{owner}.{name} is written (line {_lines(writes)}) but never read", "remove it and its writes",
                         evidence_clause(verdict))


def never_read_details(relpath: str, owner: str, name: str, writes: list[FieldWrite], gain: str | None,
                       cluster: int) -> FindingDetails:
    """`gain`: what the removal takes with it (`unread.worth`); `cluster`: unread fields of the class, 0 when few."""
    surface = [f"{relpath}:{line} {owner}.{name}" for line in sorted(w.node.lineno for w in writes)]
    change = f"Delete {owner}.{name} and its {_count(len(writes), 'write')} (and what computes it, if nothing else uses it)"
    benefit = f"1 field and {_count(len(writes), 'write')}" + (f"; it is {gain}" if gain else "") + (
        f"; one of {cluster} unread fields of {owner}" if cluster else "")
    risk = f"A reader outside this repository (a plugin, pickled state, a debugging tool) that reads .{name} would break."
    methods = sorted({w.method for w in writes})
    proof = f"written in {_names(methods)}; no read of .{name} by any owner (attributes, getattr strings, literals, config keys, docs)"
    # Members of a cluster are bundled into one candidate of the report, whatever each one takes with it.
    gain_of = Benefit(len(writes) + (1 if gain else 0), BenefitKind.STATE, benefit, micro=gain is None or cluster > 0,
                      bundle="unread field", scope=owner)
    return FindingDetails(surface, change + ".", gain_of, risk, [owner, name], proof)


# -- several unread fields of one class: one change --------------------------------------
UnreadField = tuple[str, FieldWrite, FindingDetails, str]  # (name, first write, its own details, its own message)


def unread_fields_text(owner: str, fields: list[UnreadField], verdict: Verdict) -> str:
    names = [name for name, *_ in fields]
    return short_message(f"{owner} has {len(names)} fields written but never read ({_names(names)})",
                         "remove them and their writes", evidence_clause(verdict))


def unread_fields_details(owner: str, fields: list[UnreadField], members: tuple[MemberRef, ...]) -> FindingDetails:
    """One change for the unread fields of one class: each field's surface, writes and proof, listed as members
    (their own ids, so a baseline or keep list written one field at a time still holds them)."""
    each = [details for _, _, details, _ in fields]
    names = [name for name, *_ in fields]
    lines = sum(d.benefit.lines for d in each)
    # Fields each too small for an audit line stay small together (in copied code, such a change is medium).
    benefit = Benefit(lines, BenefitKind.STATE, f"{_count(len(names), 'unread field')} of {owner} and their writes",
                      micro=all(d.benefit.micro for d in each), scope=owner)
    change = (f"Delete the unread fields {', '.join(names)} of {owner} and their writes (and what computes them, if "
              "nothing else uses it).")
    return FindingDetails([line for d in each for line in d.surface], change, benefit,
                          each[0].risk.replace(f".{names[0]}", f" {owner}'s unread fields"), [owner, *names],
                          "; ".join(d.proof for d in each), members=members)
