"""Where a planned finding sits, and how replay finds its node again in a freshly parsed module.

A finding is anchored at the module, or at "<node type>:<column>" of its first line;
a planned finding of a project judgement names a looser anchor (`evidence.memo`:
DEFINITION, ASSIGNMENT, STATEMENT, AT + column) because it was planned without astroid.
"""

from __future__ import annotations

import functools

from astroid import nodes

from pylint_omni.evidence.memo import ASSIGNMENT, AT, DEFINITION, MODULE, STATEMENT


def anchor_of(node: nodes.NodeNG) -> tuple[int, str]:
    """Where a finding sits, found again at replay: (line, MODULE or "<node type>:<column>")."""
    if isinstance(node, nodes.Module):
        return 1, MODULE
    return node.fromlineno or 0, f"{type(node).__name__}:{node.col_offset or 0}"


_GENERIC_START = nodes.NodeNG.fromlineno  # the descriptor a node type overrides when its first line is not `lineno`


@functools.lru_cache(maxsize=1)  # the module last replayed: every checker replays it in turn
def _nodes_by_line(module: nodes.Module) -> dict[int, list[nodes.NodeNG]]:
    """The module's nodes (in walk order) by the line they start on: a node starts on its `lineno`, but for a
    node without one and a node type that says otherwise (a decorated `def` starts on its `def` line, arguments
    on their function's)."""
    by_line: dict[int, list[nodes.NodeNG]] = {}
    for child in module.nodes_of_class(nodes.NodeNG):
        start = child.lineno
        if start is None or type(child).fromlineno is not _GENERIC_START:
            start = child.fromlineno or 0
        by_line.setdefault(start, []).append(child)
    return by_line


DEFINITIONS = (nodes.FunctionDef, nodes.AsyncFunctionDef, nodes.ClassDef)
ASSIGNMENTS = (nodes.Assign, nodes.AnnAssign)
POSITIONED = (nodes.Const, nodes.Call, nodes.Assign, nodes.AssignName)  # what `at:<column>` finds (a key, a call)


def _matches(node: nodes.NodeNG, line: int, anchor: str) -> bool:
    if anchor == DEFINITION:
        return isinstance(node, DEFINITIONS)
    if anchor == ASSIGNMENT:
        return isinstance(node, ASSIGNMENTS)
    if anchor == STATEMENT:
        return bool(node.is_statement)
    if anchor.startswith(AT):
        return isinstance(node, POSITIONED) and node.col_offset == int(anchor[len(AT):])
    return anchor_of(node) == (line, anchor)


def anchored(module: nodes.Module, line: int, anchor: str) -> nodes.NodeNG | None:
    """The node a planned finding names: the module, or the first node of the line (in walk order) with that anchor
    (`evidence.memo`: MODULE, DEFINITION, ASSIGNMENT, STATEMENT, AT + column or "<node type>:<column>").

    The module's nodes are grouped once by the line they start on; only the nodes of
    the finding's line have their anchor computed (`fromlineno` for every node of every
    module was most of a replayed run's cost).
    """
    if anchor == MODULE:
        return module
    return next((node for node in _nodes_by_line(module).get(line, ()) if _matches(node, line, anchor)), None)
