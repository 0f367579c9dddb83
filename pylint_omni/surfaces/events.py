"""Events: a named signal that is fired and that nothing waits on, or waited on and never fired.

`scan_events(tree)` (run by the family's per-file scanner) finds `threading.Event()`,
`asyncio.Event()` and `multiprocessing.Event()` objects held by a name: a field
(`self._drained = threading.Event()`) or a module variable, and every use of that
name in the module: `.set()` fires it, `.wait()` and `.is_set()` subscribe to it,
`.clear()` rearms it; any other use (passed to a call, returned, stored elsewhere)
lets it escape, and then the module alone cannot say who waits.
`judge_events` turns one file's events into findings: fired and never waited on
(the signal goes nowhere), waited on and never fired (every wait runs to its
timeout, or forever), or neither. An event whose name another file mentions may
be used there: such an event is not judged (production) or medium (validation only).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from pylint_omni.evidence.consumers import Consumer, ConsumerKind, Verdict, decide, listed
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.ast_helpers import FastVisitor, dotted

EVENT_MODULES = frozenset({"threading", "asyncio", "multiprocessing", "mp", "ctx"})
FIRES = frozenset({"set"})
WAITS = frozenset({"wait", "is_set", "isSet"})
NEUTRAL = frozenset({"clear"})
MENTION_VIAS = frozenset({"attr", "getattr", "str", "name"})


def _is_event_call(node: ast.AST, imported: dict[str, str]) -> bool:
    if not isinstance(node, ast.Call):
        return False
    written = dotted(node.func) or ""
    head, _, tail = written.rpartition(".")
    if tail != "Event":
        return False
    if head:
        return head.rpartition(".")[2] in EVENT_MODULES or head.endswith(("get_context()", "Manager()"))
    return imported.get("Event", "").partition(".")[0] in EVENT_MODULES


class _EventVisitor(FastVisitor):
    """Two passes: creations first (`found`), then the uses of each created name."""

    def __init__(self, imported: dict[str, str]) -> None:
        self.imported = imported
        self.classes: list[str] = []
        self.self_names: list[str] = []
        self.parents: list[ast.AST] = []
        self.found: dict[tuple[str, str], dict[str, Any]] = {}
        self.creating: set[int] = set()

    def _key(self, node: ast.AST) -> tuple[str, str] | None:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and self.classes and self.self_names \
                and node.value.id == self.self_names[-1]:
            return (self.classes[-1], node.attr)
        if isinstance(node, ast.Name):
            return ("", node.id)
        return None

    LEAVES_NEED_NO_VISIT = True  # the parents of a node without children are never asked

    def generic_visit(self, node: ast.AST) -> None:
        self.parents.append(node)
        super().generic_visit(node)
        self.parents.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        first = node.args.args[0].arg if node.args.args else ""
        self.self_names.append(first)
        self.generic_visit(node)
        self.self_names.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and _is_event_call(node.value, self.imported):
            key = self._key(node.targets[0])
            if key is not None and (key[0] or not self.self_names):
                self.found.setdefault(key, {"line": node.lineno, "fires": [], "waits": [], "escapes": False})
                self.creating.add(id(node.targets[0]))
        self.generic_visit(node)

    def use(self, node: ast.Attribute | ast.Name) -> None:
        key = self._key(node)
        entry = self.found.get(key) if key is not None else None
        if entry is None or id(node) in self.creating:
            return
        parent = self.parents[-1] if self.parents else None
        grand = self.parents[-2] if len(self.parents) > 1 else None
        method = parent.attr if isinstance(parent, ast.Attribute) and parent.value is node else None
        called = isinstance(grand, ast.Call) and grand.func is parent
        if method in FIRES and called:
            entry["fires"].append(node.lineno)
        elif method in WAITS and called:
            entry["waits"].append(node.lineno)
        elif not (method in NEUTRAL and called):
            entry["escapes"] = True

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.use(node)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.use(node)


def scan_events(tree: ast.Module, imported: dict[str, str]) -> list[list[Any]]:
    """`[class, name, line, fires, waits, escapes]` for each event a name of the module holds."""
    finder = _EventVisitor(imported)
    finder.visit(tree)
    if not finder.found:
        return []
    finder.visit(tree)  # uses may come before the creation in the text (a method above __init__)
    return [[cls, name, e["line"], sorted(set(e["fires"])), sorted(set(e["waits"])), e["escapes"]]
            for (cls, name), e in finder.found.items()]


@dataclass(frozen=True)
class EventFinding:
    """One judged event: where it is created, what the message says, and the verdict."""

    owner: str  # the class holding it, or "" for a module variable
    name: str
    line: int
    what: str
    fix: str
    verdict: Verdict
    lines: int


def judge_events(index: ProjectIndex, relpath: str, events: list[list[Any]]) -> list[EventFinding]:
    """Findings for the events of one production file (see the module docstring)."""
    found = []
    for owner, name, line, fires, waits, escapes in events:
        if escapes or (fires and waits):
            continue
        elsewhere = [h for h in index.hits(name) if h.path != relpath and h.via in MENTION_VIAS]
        if any(index.location(h.path) is Location.PRODUCTION for h in elsewhere):
            continue
        held = f"{owner}.{name}" if owner else name
        if fires:
            what = f"Event {held} is set (line {fires[0]}) but nothing waits on it or checks it"
            fix = "delete it and its set() calls"
        elif waits:
            what = f"Event {held} is waited on (line {waits[0]}) but nothing sets it: every wait runs to its timeout"
            fix = "set it where the awaited state is reached, or delete it and the waits"
        else:
            what = f"Event {held} is created but never set or waited on"
            fix = "delete it"
        consumers = [Consumer(h.path, h.line, h.via, ConsumerKind.VALIDATION, name) for h in elsewhere]
        verdict = decide("no other use in code, config, docs or tests", consumers=consumers, unknowns=(),
                         doubts=[f"validation code names it: {listed(consumers)}"] if consumers else [])
        found.append(EventFinding(owner, name, line, what, fix, verdict, 1 + len(fires) + len(waits)))
    return found
