"""Message text of `duplicated-state-field`: both owners, the fields, the fix, the evidence.

One line each: what is duplicated (the surface), the suggested single owner, then the
verdict, what was found, what was searched and what stays unknown.
"""

from __future__ import annotations

from pylint_omni.evidence import Status, Verdict
from pylint_omni.state_evidence import Overwrite
from pylint_omni.state_patterns import Derived, FieldWrite, Mirror

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
