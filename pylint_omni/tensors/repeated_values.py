"""The same value computed twice on one path of a function, with nothing changing it between.

`x.item()` twice, `pickle.dumps(payload)` twice: the second call redoes a host
transfer or a serialization whose result the first already had. The pair is
reported only when the second call always runs after the first (`one_path_region`),
the expression has no call that could give a new value each time (`torch.rand(1)`,
`self.next()`), and nothing between may rebind or mutate the names it reads, or
their aliases (`disturbed`).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import Callable, Iterator

from astroid import nodes

from pylint_omni.tensors.local_flow import (
    NESTED_SCOPES,
    READING_METHODS,
    aliases,
    disturbed,
    names_in,
    one_path_region,
    resolve_dotted,
    root_name,
)

# Calls whose result depends only on their arguments.
DETERMINISTIC_FUNCTIONS = frozenset({"len", "int", "float", "str", "tuple", "bool", "min", "max", "abs"})
ENCODING_MODULES = frozenset({
    "pickle", "cloudpickle", "json", "orjson", "base64", "msgpack", "msgspec", "zlib", "gzip", "lzma", "bz2",
})


@functools.lru_cache(maxsize=1)  # two checkers ask in turn at every function pylint visits
def calls_in(function: nodes.FunctionDef) -> list[nodes.Call]:
    """The calls of the function's own body (not of nested functions, classes, lambdas, comprehensions).

    The host copies and the payload encodings both walk them: the walk of the last
    function asked about is kept for the next.
    """
    return [call for statement in function.body if not isinstance(statement, NESTED_SCOPES)
            for call in statement.nodes_of_class(nodes.Call, skip_klass=NESTED_SCOPES)]


def deterministic(expr: nodes.NodeNG) -> bool:
    """No call inside `expr` may return something new each time (reads and pure library calls only)."""
    for call in expr.nodes_of_class(nodes.Call):
        func = call.func
        if isinstance(func, nodes.Attribute) and func.attrname in READING_METHODS:
            continue
        if isinstance(func, nodes.Name) and func.name in DETERMINISTIC_FUNCTIONS:
            continue
        dotted = resolve_dotted(func)
        if dotted and dotted.split(".")[0] in ENCODING_MODULES and not dotted.endswith("_"):
            continue
        return False
    return not any(isinstance(n, (nodes.Await, nodes.Yield, nodes.NamedExpr)) for n in expr.nodes_of_class(nodes.NodeNG))


def repeated_pairs(
    function: nodes.FunctionDef,
    key_of: Callable[[nodes.Call], tuple[str, nodes.NodeNG] | None],
) -> Iterator[tuple[nodes.Call, nodes.Call]]:
    """(earlier, later) calls with one key where `later` provably recomputes `earlier`'s value.

    `key_of(call)` gives (key, the expression whose value is recomputed) or None.
    """
    groups: dict[str, list[tuple[nodes.Call, nodes.NodeNG]]] = defaultdict(list)
    for call in calls_in(function):
        keyed = key_of(call)
        if keyed is not None and deterministic(keyed[1]):
            groups[keyed[0]].append((call, keyed[1]))
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda m: (m[0].lineno or 0, m[0].col_offset or 0))
        for index, (later, subject) in enumerate(members[1:], start=1):
            names = names_in(subject)
            root = root_name(subject)
            local = root is not None and root.name not in ("self", "cls") and root.name in function.locals
            # A method of `self` may write into a parameter or local that aliases one of its buffers.
            tracked = aliases(function, names) | {"self", "cls"} if local else names
            for earlier, _ in reversed(members[:index]):
                region = one_path_region(earlier, later)
                if region is not None and not disturbed(region, tracked, local=local):
                    yield earlier, later
                    break
