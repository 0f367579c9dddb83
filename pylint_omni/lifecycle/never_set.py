"""A lifecycle handle that is only ever None: its class assigns it `None` (in `__init__`, maybe again on stop) and
never a task, thread or process, while a method still cancels, joins or waits on it behind `if self._x:`.

Those branches are dead: the handle is what is left of an older lifecycle (a listener task moved elsewhere, a
prefetch loop another executor runs). Deleting the attribute deletes them. Nothing may assign it from elsewhere:
a base class's own attribute or a store the reference graph resolves outside the class or in a subclass is the
checker's (`checker._remote`: rejected, local vs remote ownership); a store on another receiver anywhere in the
project (`generation.weight_synchronizer = create(...)`, a receiver the graph cannot type: an index store of the
name on a line that is not `self.<name> = ...`), or the name written as a string in its module (`setattr`), and it
is not reported. A public one is medium: code outside the repository may set it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from astroid import nodes

from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.lifecycle.mechanisms import HANDLE_MOVES, Mechanism, named_in_string, self_stores

STORE_VIA = "attr-store"  # how the index marks `obj.name = value` (the checker reads it from here too)
PUBLIC_SETTER = "public: code outside the repository may set it"


@dataclass(frozen=True)
class NeverSet:
    """A handle only ever None, the methods whose branches on it are dead, and why it is only medium."""

    mechanism: Mechanism
    methods: tuple[str, ...]  # the methods that cancel, join or wait on it
    lines: int  # its assignments and the moves on it: the lines that go
    doubt: str


def _stored_elsewhere(index: ProjectIndex, cls: nodes.ClassDef, relpath: str, name: str) -> bool:
    """Whether the project stores `.name` on a receiver other than a class's own `self` (another object may hand
    it a task), or names it in a string in the class's module (`setattr(self, "name", ...)`)."""
    own = re.compile(rf"\s*self\.{re.escape(name)}\s*[:=]")
    end = cls.tolineno or cls.fromlineno
    for hit in index.hits(name):
        if hit.via != STORE_VIA or (hit.path == relpath and cls.fromlineno <= hit.line <= end):
            continue
        lines = (index.text(hit.path) or "").splitlines()
        if not (0 < hit.line <= len(lines) and own.match(lines[hit.line - 1])):
            return True
    return named_in_string(cls.root(), name)


def never_set_handles(cls: nodes.ClassDef, mechanisms: dict[str, Mechanism], index: ProjectIndex,
                      relpath: str) -> list[NeverSet]:
    """The handles of `cls` that are only ever None while a method cancels, joins or waits on them."""
    found = []
    for name, mechanism in mechanisms.items():
        if mechanism.kind != "handle" or any(t.kind in ("set", "create") for t in mechanism.transitions):
            continue
        uses = sorted({t.method for t in mechanism.transitions if t.kind in HANDLE_MOVES})
        # Anything but a plain `= None` (a tuple unpacked into it, `with ... as`) may hand it a task: the map reads
        # plain assignments only.
        assigned = any(value is None or not (isinstance(value, nodes.Const) and value.value is None)
                       for value in self_stores(cls, name))
        if not uses or assigned or _stored_elsewhere(index, cls, relpath, name):
            continue
        found.append(NeverSet(mechanism, tuple(uses), len({t.line for t in mechanism.transitions}),
                              "" if name.startswith("_") else PUBLIC_SETTER))
    return found
