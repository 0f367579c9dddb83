"""The state a class keeps only for its dead methods: it goes with them.

A field of a class (`self.x = ...`, resolved by the reference graph to `pkg.mod.Cls.x`)
whose every read lies in code a change deletes is part of that change: the `__init__`
line that builds it (a process group, a thread, a buffer) runs for nothing. Not when
the name is read where the graph cannot tell the receiver (`obj.x` on an object of
unknown class, `getattr(o, "x")`), by upstream code, or when the class never reads it
at all (a field nothing reads is `duplicated-state-field`'s finding, not this change's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pylint_omni.changes.model import Span
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream import upstream_of

STORE_VIA = "attr-store"
NAME_VIAS = frozenset({"attr", "getattr", "str", "fstr"})
RESOURCE = re.compile(
    r"\b(?:new_group|init_process_group|Thread|Process|Timer|Pool|\w*Executor|socket|Queue|Event|Lock|"
    r"empty|zeros|ones|full|randn|Stream|Semaphore|Condition)\s*\(")


@dataclass(frozen=True)
class FieldGoing:
    """A field only deleted code reads: its name, the lines that write it, and whether it holds a resource."""

    name: str
    writes: tuple[int, ...]  # lines of the class's file that assign it
    resource: bool


def inside(spans: list[Span] | tuple[Span, ...], path: str, line: int) -> bool:
    return any(path == p and first <= line <= last for p, first, last in spans)


def fields_going(index: ProjectIndex, class_dotted: str, class_span: Span, deleted: list[Span]) -> list[FieldGoing]:
    """The fields of `class_dotted` that only code in `deleted` reads (see the module docstring)."""
    graph = graph_of(index)
    path = class_span[0]
    lines = (index.text(path) or "").splitlines()
    prefix = class_dotted + "."
    upstream = upstream_of(index)
    found: list[FieldGoing] = []
    for target in sorted(graph.targets_under(class_dotted)):
        name = target[len(prefix):]
        if not target.startswith(prefix) or "." in name:
            continue
        refs = graph.refs_to(target)
        writes = tuple(sorted({r.line for r in refs if r.via == STORE_VIA and inside([class_span], r.path, r.line)}))
        reads = [r for r in refs if r.via != STORE_VIA]
        if not writes or not reads or any(not inside(deleted, r.path, r.line) for r in reads):
            continue
        if any(r.via == STORE_VIA and not inside([class_span], r.path, r.line) for r in refs):
            continue  # set from outside the class: someone else relies on it
        elsewhere = [h for h in graph.name_only(name, {target}) if h.via in NAME_VIAS
                     and index.location(h.path) is not Location.VALIDATION and not inside(deleted, h.path, h.line)]
        if elsewhere or upstream.reads(name) is not None:
            continue
        resource = any(RESOURCE.search(lines[w - 1]) for w in writes if 0 < w <= len(lines))
        found.append(FieldGoing(name, writes, resource))
    return found
