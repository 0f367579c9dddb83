"""Project judgements that run beside pylint's own tree building in a cold run.

In a cold `-j 1` run pylint builds its trees on one core while the index scan takes
the other (`scan_pool`). When the scan ends first, that core sits idle until the
main process reaches its first module and judges the whole project there. A family
whose project-wide judgement follows from the index alone and is kept in a disk
store (the copy groups and their verdicts) registers it here; then one child process
scans, hands the entries to the main process, builds its own copy of the index from
them and runs the judgement, which writes its store (`scan_pool.BackgroundScan`). The main process waits for the
child where it first needs the judgement (`ProjectIndex.await_background`) and reads
the store as a warm run would, instead of computing it after pylint's build.

The store is the only channel back. A child that fails or is killed leaves no store,
or one whose key does not match the index, and the main process computes the
judgement itself: the findings are the same, only later.

A judgement that needs nothing the child writes and keeps no store (the reachability
analysis, the readers of options) registers to run in the main process instead
(`in_child=False`): the main process computes it while it waits for the child
(`ProjectIndex.await_background`), so that both cores judge at once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

from pylint_omni.index.project_index import Judgement


@dataclass(frozen=True)
class _Registered:
    symbols: frozenset[str]  # the messages the judgement serves: run it only when one is enabled
    judge: Callable[..., None]
    in_child: bool  # False: the main process computes it while it waits for the child
    per_messages: bool = False  # the judgement takes the enabled ones of `symbols` too (`enabled=`)


_REGISTERED: dict[str, _Registered] = {}


def register_background_judgement(key: str, judge: Callable[..., None], symbols: frozenset[str], in_child: bool = True,
                                  per_messages: bool = False) -> None:
    """Run `judge` in a cold scan's child process (or, `in_child` false, in the main process while it waits for that
    child) when one of `symbols` is enabled (see the module docstring); `per_messages`: it is called with
    `enabled=` the enabled ones of `symbols` (a judgement that depends on which messages a run emits)."""
    _REGISTERED[key] = _Registered(symbols, judge, in_child, per_messages)


def judgements_for(enabled: Callable[[str], bool], in_child: bool = True) -> list[Judgement]:
    """The registered judgements of the child (or of the waiting main process) some enabled message needs, in a fixed order."""
    found: list[Judgement] = []
    for _, item in sorted(_REGISTERED.items()):
        wanted = frozenset(s for s in item.symbols if enabled(s))
        if item.in_child is in_child and wanted:
            found.append(functools.partial(item.judge, enabled=wanted) if item.per_messages else item.judge)
    return found
