"""Wording of `duplicated-state-field`: message text and the report's details.

Message text, one line each: what is duplicated (the surface), the suggested single
owner, then the verdict, what was found, what was searched and what stays unknown.
Report details (`*_details`): the surface as `path:line symbol` strings, the change,
what disappears (fields, writes), what could change, and the names whose tests validate it.
"""

from __future__ import annotations

from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.state.evidence import Overwrite
from pylint_omni.state.patterns import Derived, FieldWrite, Mirror

MAX_NAMED = 4


def _names(items: list[str]) -> str:
    shown = ", ".join(items[:MAX_NAMED])
    return shown + (f" (+{len(items) - MAX_NAMED} more)" if len(items) > MAX_NAMED else "")


def _tail(verdict: Verdict, facts: str, searched: str, subject: str) -> str:
    head = f"Rejected: {verdict.reason}." if verdict.status is Status.REJECTED else f"Confidence {verdict.confidence}: {verdict.reason}."
    unknown = "; ".join(u for u in verdict.unknowns if u != verdict.reason)
    return (
        f"{head} Evidence: {facts}. Searched {searched} for {subject}; "
        + (f"unknown: {unknown}." if unknown else "unknown: consumers outside this repository (plugins, user code).")
    )


def mirror_text(owner: str, source: str, mirror: Mirror, keeps_source: bool, verdict: Verdict, searched: str) -> str:
    form = f"{owner}(...) is built with" if mirror.call is not None else f"{owner} copies"
    held = f"; {owner} also keeps `{mirror.source.as_string()}` itself" if keeps_source else ""
    facts = (
        f"{len(mirror.fields)} same-named fields copied from `{mirror.source.as_string()}` in {mirror.method}"
        + (", none written again in the class" if mirror.call is None else "")
        + held
    )
    return (
        f"{form} {_names(mirror.fields)} from {source} (`{mirror.source.as_string()}`): two owners of one state; "
        f"keep {source} as the single owner and read `{mirror.source.as_string()}.<field>` instead of copies. "
        + _tail(verdict, facts, searched, "writes of the copied fields")
    )


def derived_text(owner: str, derived: Derived, changed_in: list[str], verdict: Verdict, searched: str) -> str:
    sites = ", ".join(f"line {w.node.lineno}" for w in derived.sites)
    facts = (
        f"{derived.name} is only ever assigned `{derived.expression}` ({sites}); "
        f"{_names(derived.sources)} change{'s' if len(derived.sources) == 1 else ''} in {_names(changed_in)}"
    )
    return (
        f"{owner}.{derived.name} duplicates {_names(['self.' + s for s in derived.sources])} of the same object: "
        f"replace it with a property computing `{derived.expression}`, so {_names(derived.sources)} stay the single owner. "
        + _tail(verdict, facts, searched, f"writes of {derived.name}")
    )


def provisional_text(owner: str, name: str, param: str, overwrites: list[Overwrite], verdict: Verdict, searched: str) -> str:
    sources = sorted({o.source for o in overwrites})
    listed = ", ".join(f"{o.path}:{o.line} (= {o.source})" for o in overwrites[:3])
    facts = f"every production construction of {owner} ({len(overwrites)}) overwrites .{name}: {listed}"
    return (
        f"{owner}.{name} is set from the constructor parameter `{param}` and then overwritten by every builder "
        f"from {_names(sources)}: the parameter is dead; keep {sources[0]} as the single owner "
        f"(pass it at construction, or read it where needed) and drop the overwrite. "
        + _tail(verdict, facts, searched, f"constructions of {owner} and writes of .{name}")
    )


def maps_text(owner: str, group: list[str], methods: list[str], verdict: Verdict, searched: str) -> str:
    facts = f"{_names(group)} are written, and removed, under the same keys in {_names(methods)}"
    return (
        f"{owner}.{group[0]} and {owner}.{', '.join(group[1:])} record one binding in {len(group)} maps: "
        f"keep one map (key -> a small record of the values) as the single owner. "
        + _tail(verdict, facts, searched, "other writers of the maps")
    )


def never_read_text(owner: str, name: str, writes: list[FieldWrite], verdict: Verdict, searched: str) -> str:
    lines = ", ".join(str(w.node.lineno) for w in writes[:MAX_NAMED])
    return (
        f"{owner}.{name} is written (line {lines}) but no production code reads it, on any owner: "
        f"remove the field (and what computes it), or read it where the fact is needed. "
        + _tail(verdict, verdict.evidence_line(), searched, f"reads of .{name} (attributes, getattr strings, literals, config keys, docs)")
    )


# -- report details --------------------------------------------------------------------
def _count(number: int, noun: str, nouns: str = "") -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {nouns or noun + 's'}"


def mirror_details(relpath: str, owner: str, source: str, mirror: Mirror, sites: list[str]) -> FindingDetails:
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
    return FindingDetails([surface, *sites], change + ".", Benefit(count, BenefitKind.STATE, benefit), risk, [owner, *mirror.fields])


def derived_details(relpath: str, owner: str, derived: Derived) -> FindingDetails:
    lines = sorted(w.node.lineno for w in derived.sites)
    surface = [f"{relpath}:{line} {owner}.{derived.name} = {derived.expression}" for line in lines]
    change = f"Replace {owner}.{derived.name} with a property returning `{derived.expression}` and delete its assignments"
    benefit = f"1 field and {_count(len(derived.sites), 'hand-written update')}"
    risk = (f"Readers get the current value of {_names(derived.sources)}, not the one at the last update; "
            "the property recomputes on every read.")
    return FindingDetails(surface, change + ".", Benefit(1 + len(derived.sites), BenefitKind.STATE, benefit), risk, [owner, derived.name])


def provisional_details(relpath: str, line: int, owner: str, name: str, param: str, overwrites: list[Overwrite]) -> FindingDetails:
    surface = [f"{relpath}:{line} {owner}.{name} = {param}"]
    surface += [f"{o.path}:{o.line} {owner}.{name} = {o.source}" for o in overwrites]
    sources = sorted({o.source for o in overwrites})
    change = f"Pass {_names(sources)} when constructing {owner} and drop the {_count(len(overwrites), 'overwrite')} of .{name}"
    benefit = f"{_count(len(overwrites), 'post-construction write')} of .{name} and a provisional value nobody reads"
    risk = f"Code that reads .{name} between construction and the overwrite, or a builder outside this repository, sees another value."
    return FindingDetails(surface, change + ".", Benefit(1 + len(overwrites), BenefitKind.STATE, benefit), risk, [owner, name])


def maps_details(relpath: str, owner: str, group: list[str], lines: list[int], methods: list[str]) -> FindingDetails:
    surface = [f"{relpath}:{line} {owner}.{name}" for name, line in zip(group, lines)]
    change = f"Merge {', '.join(group)} into one map of key -> record (1 map instead of {len(group)})"
    benefit = f"{_count(len(group) - 1, 'map field')} and the parallel writes and removals in {_names(methods)}"
    risk = f"Code that iterates, orders or hands out one of the maps sees a different structure; {owner}'s tests cover it."
    return FindingDetails(surface, change + ".", Benefit(len(group), BenefitKind.STATE, benefit), risk, [owner, *group])


def never_read_details(relpath: str, owner: str, name: str, writes: list[FieldWrite]) -> FindingDetails:
    surface = [f"{relpath}:{line} {owner}.{name}" for line in sorted(w.node.lineno for w in writes)]
    change = f"Delete {owner}.{name} and its {_count(len(writes), 'write')} (and what computes it, if nothing else uses it)"
    benefit = f"1 field and {_count(len(writes), 'write')}"
    risk = f"A reader outside this repository (a plugin, pickled state, a debugging tool) that reads .{name} would break."
    return FindingDetails(surface, change + ".", Benefit(len(writes), BenefitKind.STATE, benefit, micro=True), risk, [owner, name])
