"""Two keyed containers of one class that hold one fact, and how the second follows from the first.

Same keys and the same lifecycle are not enough: a map of request -> address and a
map of request -> sync event are written and removed together yet hold different
facts. A pair is reported only with a derivation the report can name:
- **key set**: a set that every method grows and shrinks with exactly the keys of a
  dict (`s.add(k)` wherever `d[k] = v`, `s.discard(k)` wherever `del d[k]`) is
  always `d.keys()`: `k in s` is `k in d`;
- **same members**: two sets, or two maps with the same value at every write (not a value that
  builds a new container each time: `a[i] = {}` beside `b[i] = {}` are two objects, filled apart);
- **derived values**: a map whose every value is computed from the value the other
  map gets under the same key in the same method (`b[k] = len(v)` beside `a[k] = v`),
  or read from it (`b[k] = self.a[k].x`).
Both containers must be created empty in the constructor only, every block of every
method must do the same keyed operations on both (`state.patterns` records them: an
`add` in one branch of an `if` and the dict write in the other are not paired), and neither
may be handed out of the class (a holder could change one without the other, so the
derivation would not be proven).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from astroid import nodes

from pylint_omni.state.patterns import INIT_METHODS, PURE_FUNCTIONS, ClassState, FieldWrite

DICT_FACTORIES = frozenset({"dict", "defaultdict", "OrderedDict"})
SET_FACTORIES = frozenset({"set"})
CONTAINER_FACTORIES = DICT_FACTORIES | SET_FACTORIES | {"list", "deque", "Counter"}


@dataclass(frozen=True)
class MapPair:
    """`derived` always follows from `primary`; `how` says how, in code words."""

    primary: str
    derived: str
    relation: str  # "key set" | "same members" | "derived values"
    how: str  # e.g. "`_live` is always the key set of `_states`"
    methods: tuple[str, ...]  # where both are written
    removed: bool  # both lose keys somewhere (not only grow)


def _container(write: FieldWrite) -> str | None:
    """"dict" or "set" when the write creates an empty container, else None."""
    value = write.value
    if isinstance(value, nodes.Dict) and not value.items:
        return "dict"
    if isinstance(value, nodes.Call) and not value.args[1:]:
        func = value.func.as_string().rpartition(".")[2]
        if func in DICT_FACTORIES:
            return "dict"
        if func in SET_FACTORIES and not value.args:
            return "set"
    return None


def _containers(state: ClassState) -> dict[str, str]:
    """Fields created empty in the constructor only, with keyed writes: name -> dict | set."""
    found = {}
    for name, writes in state.writes.items():
        kinds = {_container(w) for w in writes}
        if len(kinds) != 1 or None in kinds or any(w.method not in INIT_METHODS for w in writes) or name in state.escapes:
            continue
        ops = state.map_ops.get(name, [])
        if ops and any(op == "set" for _, op, _, _ in ops) and not any(op == "update" for _, op, _, _ in ops):
            found[name] = kinds.pop()  # type: ignore[assignment]
    return found


def _block(node: nodes.NodeNG) -> tuple[int, str]:
    """The statement list that runs `node`: its parent and the field (`body`, `orelse`, ...) holding it."""
    statement = node.statement()
    parent = statement.parent
    for name in ("body", "orelse", "handlers", "finalbody"):
        if statement in (getattr(parent, name, None) or []):
            return id(parent), name
    return id(parent), ""


def _signature(state: ClassState, name: str) -> frozenset:
    """Keyed operations per method and block: two containers with one signature change together."""
    counted = Counter((method, op, key, _block(where)) for method, op, key, where in state.map_ops[name])
    return frozenset(counted.items())


def _names(value: nodes.NodeNG) -> set[str]:
    return {n.name for n in value.nodes_of_class(nodes.Name)}


def _derived_from(value: nodes.NodeNG, source: nodes.NodeNG, primary: str, key: str) -> bool:
    """`value` is computed from `source` (the primary's value under the same key) and nothing else.

    Allowed: the source's own names, the key, constants (`UPPER`, literals), pure
    builtins (`len`, `int`, ...) and methods or attributes of the source; or a read
    of the primary map itself (`self.primary[key]`).
    """
    if any(isinstance(n, nodes.Subscript) and n.value.as_string().endswith(f".{primary}") and n.slice.as_string() == key
           for n in value.nodes_of_class(nodes.Subscript)):
        return True
    if not isinstance(source, (nodes.Name, nodes.Attribute)):
        return False
    allowed = _names(source) | {key}
    for call in value.nodes_of_class(nodes.Call):
        func = call.func
        if isinstance(func, nodes.Name) and func.name in PURE_FUNCTIONS:
            continue
        if isinstance(func, nodes.Attribute) and func.expr.as_string().startswith(source.as_string()):
            continue
        return False
    used = {n for n in _names(value) if not (n[:1].isupper() or n in PURE_FUNCTIONS)}
    return bool(used) and used <= allowed and source.as_string() in value.as_string()


def _fresh(value: nodes.NodeNG) -> bool:
    """A value that builds a new object at each write (`{}`, `[]`, `set()`, `Cls(...)`): equal text, two objects."""
    if isinstance(value, nodes.Call):
        name = value.func.as_string().rpartition(".")[2]
        return name in CONTAINER_FACTORIES or name[:1].isupper()
    return isinstance(value, (nodes.Dict, nodes.List, nodes.Set, nodes.DictComp, nodes.ListComp, nodes.SetComp))


def _value_relation(state: ClassState, first: str, second: str) -> tuple[str, str] | None:
    """("same members" | "derived values", how) when every value of `second` follows from `first`'s."""
    firsts = {(m, k): v for m, k, v in state.map_values.get(first, [])}
    seconds = state.map_values.get(second, [])
    if not seconds or len(seconds) != len(state.map_values.get(first, [])):
        return None
    same = True
    example = ""
    for method, key, value in seconds:
        source = firsts.get((method, key))
        if source is None:
            return None
        if value.as_string() == source.as_string():
            if _fresh(value):
                return None  # `a[i] = {}` beside `b[i] = {}`: two new containers, filled apart (DeepSpeed's ZeRO maps)
            continue
        same = False
        if not _derived_from(value, source, first, key):
            return None
        example = example or f"`{second}[{key}] = {value.as_string()}` beside `{first}[{key}] = {source.as_string()}`"
    if same:
        return "same members", f"`{second}` gets the same value as `{first}` under every key"
    return "derived values", example


def find_map_pairs(state: ClassState) -> list[MapPair]:
    """Keyed containers of the class that hold one fact, with the derivation."""
    containers = _containers(state)
    by_signature: dict[frozenset, list[str]] = {}
    for name in containers:
        by_signature.setdefault(_signature(state, name), []).append(name)
    pairs = []
    for group in by_signature.values():
        group.sort(key=lambda n: state.first_write(n).node.lineno or 0)
        for derived in group[1:]:
            pair = _pair(state, containers, group[0], derived)
            if pair is not None:
                pairs.append(pair)
    return pairs


def _pair(state: ClassState, containers: dict[str, str], first: str, second: str) -> MapPair | None:
    kinds = (containers[first], containers[second])
    if kinds == ("set", "set"):
        relation, how = "same members", f"`{second}` gets the same members as `{first}` in every method"
    elif "set" in kinds:
        keys, mapping = (first, second) if kinds[0] == "set" else (second, first)
        relation, how = "key set", f"`{keys}` is always the key set of `{mapping}`"
        first, second = mapping, keys
    else:
        found = _value_relation(state, first, second) or _value_relation(state, second, first)
        if found is None:
            return None  # same keys and lifecycle, different facts: not one state
        if not found[1].startswith(f"`{second}"):
            first, second = second, first
        relation, how = found
    methods = tuple(sorted({m for n in (first, second) for m, _, _, _ in state.map_ops[n]}))
    removed = all(any(op in ("del", "clear") for _, op, _, _ in state.map_ops[n]) for n in (first, second))
    return MapPair(first, second, relation, how, methods, removed)
