"""What one class does to its own fields, and the duplicated-state shapes found in it.

`read_class_state` walks a class's methods once (astroid, the module being linted) and
records every write of `self.<field>`, every in-place mutation of a field's object,
every keyed write or removal on a field, and every place a field's object escapes.
The detectors below read that record; the cross-file evidence lives in
`state.evidence`:
- `find_mirrors`: three or more `self.X = src.X` from one source in one method;
- `keyword_mirrors`: `Cls(X=src.X, Y=src.Y, Z=src.Z)`, three or more from one source;
- `find_derived`: a field assigned two or more times, always from the same
  expression of other fields of the same object (one assignment is a snapshot, a
  cache or an alias: nothing keeps it in sync by hand).
Maps and sets whose contents follow one another are found in `state.maps`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from astroid import nodes

MIN_MIRRORED = 3  # fields one statement pattern must copy before it is a mirror, not a coincidence
INIT_METHODS = frozenset({"__init__", "__post_init__", "__new__"})
MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "popleft", "appendleft", "remove", "clear", "add", "discard",
    "update", "setdefault", "popitem", "sort", "reverse", "fill_", "zero_", "copy_", "put", "put_nowait",
    "difference_update", "intersection_update", "symmetric_difference_update",
})
PURE_FUNCTIONS = frozenset({"len", "bool", "int", "float", "str", "min", "max", "abs", "sum", "any", "all", "round", "tuple", "frozenset"})
READ_ONLY_CALLS = PURE_FUNCTIONS | {"isinstance", "iter", "list", "sorted", "enumerate", "zip", "print", "repr", "id", "hash", "next"}
# Keyed operations of dicts and sets: a set's `add(k)` / `discard(k)` mirror a dict's `d[k] = v` / `del d[k]`.
MAP_OPS = {"setdefault": "set", "add": "set", "pop": "del", "popitem": "del", "discard": "del", "remove": "del",
           "clear": "clear", "update": "update", "difference_update": "update", "intersection_update": "update",
           "symmetric_difference_update": "update"}
SNAPSHOT_WORDS = ("initial", "init_", "orig", "prev", "last", "old_", "saved", "start", "snapshot", "baseline", "first")


@dataclass
class FieldWrite:
    """One write of `self.<name>`: where, in which method, and the value when plain."""

    name: str
    node: nodes.NodeNG
    method: str
    value: nodes.NodeNG | None  # None: augmented, unpacked or deleted
    kind: str  # "assign" | "aug" | "unpack" | "del"


@dataclass
class ClassState:
    """The field facts of one class, read from its own methods."""

    node: nodes.ClassDef
    writes: dict[str, list[FieldWrite]] = field(default_factory=dict)
    mutated_in: dict[str, set[str]] = field(default_factory=dict)  # field -> methods mutating its object
    map_ops: dict[str, list[tuple[str, str, str, nodes.NodeNG]]] = field(default_factory=dict)  # field -> (method, op, key, where)
    map_values: dict[str, list[tuple[str, str, nodes.NodeNG]]] = field(default_factory=dict)  # field -> (method, key, value)
    escapes: set[str] = field(default_factory=set)  # fields whose object is handed out
    dynamic_self: list[str] = field(default_factory=list)  # vars(self), self.__dict__, getattr(self, var)
    callers: dict[str, set[str]] = field(default_factory=dict)  # method -> methods calling `self.method(...)`
    _construction: frozenset[str] | None = None

    def first_write(self, name: str) -> FieldWrite:
        return min(self.writes[name], key=lambda w: (w.node.lineno or 0, w.node.col_offset or 0))

    def construction_methods(self) -> frozenset[str]:
        """`__init__` and the private helpers only construction calls (`self._init_x()` from `__init__`).

        A private helper is not called from outside by convention; a public one may be
        called again later (`reset()`), so it is never counted as construction.
        """
        if self._construction is None:
            self._construction = self.with_private_helpers(INIT_METHODS)
        return self._construction

    def with_private_helpers(self, roots: frozenset[str] | set[str]) -> frozenset[str]:
        """`roots` and the private methods only they call (transitively)."""
        phase = set(roots)
        grown = True
        while grown:
            grown = False
            for callee, callers in self.callers.items():
                if callee not in phase and callee.startswith("_") and not callee.startswith("__") and callers <= phase:
                    phase.add(callee)
                    grown = True
        return frozenset(phase)

    def changed_in(self, name: str) -> set[str]:
        """Methods that rebind the field or mutate its object."""
        return {w.method for w in self.writes.get(name, [])} | self.mutated_in.get(name, set())

    def changed_outside_init(self, name: str) -> bool:
        """True when the field or its object changes after construction (a live source)."""
        return bool(self.changed_in(name) - self.construction_methods())


IMPLICIT_CLASS_METHODS = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})
UNBOUND_DECORATORS = frozenset({"staticmethod", "classmethod", "abstractstaticmethod", "abstractclassmethod"})


def _self_name(method: nodes.FunctionDef) -> str | None:
    """What a method calls its instance (None: a static or class method, known by its decorator's written
    name; astroid's `FunctionDef.type` infers every decorator, most of this family's cost on a cold run)."""
    if method.name in IMPLICIT_CLASS_METHODS:
        return None
    for decorator in method.decorators.nodes if method.decorators else ():
        written = decorator.func if isinstance(decorator, nodes.Call) else decorator
        name = written.attrname if isinstance(written, nodes.Attribute) else getattr(written, "name", "")
        if name in UNBOUND_DECORATORS:
            return None
    positional = method.args.posonlyargs + method.args.args
    return positional[0].name if positional else None


def _is_self(node: nodes.NodeNG, self_name: str) -> bool:
    return isinstance(node, nodes.Name) and node.name == self_name


def _self_field(node: nodes.NodeNG, self_name: str) -> str | None:
    """`name` when node is `self.name` (a read)."""
    if isinstance(node, nodes.Attribute) and _is_self(node.expr, self_name):
        return node.attrname
    return None


def read_class_state(klass: nodes.ClassDef) -> ClassState:
    """Every write, mutation, keyed operation and escape of the class's own fields."""
    state = ClassState(klass)
    # The class body, not `mymethods()`: astroid synthesizes dataclass `__init__`s.
    for method in (n for n in klass.body if isinstance(n, nodes.FunctionDef)):
        self_name = _self_name(method)
        if self_name is None:
            continue
        for node in method.nodes_of_class((nodes.AssignAttr, nodes.DelAttr, nodes.Attribute, nodes.Call), skip_klass=nodes.ClassDef):
            if isinstance(node, (nodes.AssignAttr, nodes.DelAttr)) and _is_self(node.expr, self_name):
                state.writes.setdefault(node.attrname, []).append(_field_write(node, method.name))
            elif isinstance(node, nodes.Attribute):
                name = _self_field(node, self_name)
                if name == "__dict__":
                    state.dynamic_self.append(f"self.__dict__ at line {node.lineno}")
                elif name is not None:
                    if isinstance(node.parent, nodes.Call) and node.parent.func is node:
                        state.callers.setdefault(name, set()).add(method.name)
                    _record_use(state, name, node, method.name)
            elif isinstance(node, nodes.Call):
                _record_dynamic_call(state, node, self_name)
    return state


def _field_write(node: nodes.AssignAttr | nodes.DelAttr, method: str) -> FieldWrite:
    parent = node.parent
    if isinstance(node, nodes.DelAttr):
        return FieldWrite(node.attrname, node, method, None, "del")
    if isinstance(parent, (nodes.Assign, nodes.AnnAssign)) and parent.value is not None:
        return FieldWrite(node.attrname, node, method, parent.value, "assign")
    if isinstance(parent, nodes.AugAssign):
        return FieldWrite(node.attrname, node, method, None, "aug")
    return FieldWrite(node.attrname, node, method, None, "unpack")


def _record_use(state: ClassState, name: str, node: nodes.Attribute, method: str) -> None:
    """A read of `self.name`: a keyed write, a mutating call, an escape, or a plain read."""
    parent = node.parent
    if isinstance(parent, nodes.Subscript) and parent.value is node:
        key = parent.slice.as_string()
        if parent.ctx is not None and parent.ctx.name == "Store":
            state.map_ops.setdefault(name, []).append((method, "set", key, parent))
            state.mutated_in.setdefault(name, set()).add(method)
            if isinstance(parent.parent, nodes.Assign) and parent in parent.parent.targets:
                state.map_values.setdefault(name, []).append((method, key, parent.parent.value))
        elif parent.ctx is not None and parent.ctx.name == "Del":
            state.map_ops.setdefault(name, []).append((method, "del", key, parent))
            state.mutated_in.setdefault(name, set()).add(method)
        return
    if isinstance(parent, nodes.Attribute) and isinstance(parent.parent, nodes.Call) and parent.parent.func is parent:
        call = parent.parent
        if parent.attrname in MUTATING_METHODS:
            state.mutated_in.setdefault(name, set()).add(method)
            key = call.args[0].as_string() if call.args else ""
            op = MAP_OPS.get(parent.attrname)
            if op:
                state.map_ops.setdefault(name, []).append((method, op, key if op in ("set", "del") else "", call))
            if parent.attrname == "setdefault" and len(call.args) > 1:
                state.map_values.setdefault(name, []).append((method, key, call.args[1]))
        return
    if isinstance(parent, (nodes.AssignAttr, nodes.DelAttr)) and parent.expr is node:
        state.mutated_in.setdefault(name, set()).add(method)  # self.x.y = v
        return
    if isinstance(parent, nodes.Attribute):
        return  # a read of an attribute of the field's object
    if isinstance(parent, (nodes.Call, nodes.Return, nodes.Yield, nodes.Keyword, nodes.Starred, nodes.List, nodes.Tuple, nodes.Dict)) or (
        isinstance(parent, nodes.Assign) and parent.value is node
    ):
        callee = parent.func.as_string() if isinstance(parent, nodes.Call) else ""
        if not (isinstance(parent, nodes.Call) and (parent.func is node or callee in READ_ONLY_CALLS)):
            state.escapes.add(name)


def _record_dynamic_call(state: ClassState, call: nodes.Call, self_name: str) -> None:
    """`vars(self)`, `getattr(self, name)` with a computed name: every field may be read."""
    func = call.func.as_string()
    if not call.args or not _is_self(call.args[0], self_name):
        return
    if func in ("vars", "dataclasses.asdict", "asdict", "dataclasses.astuple", "astuple"):
        state.dynamic_self.append(f"{func}(self) at line {call.lineno}")
    elif func in ("getattr", "hasattr") and len(call.args) > 1 and not isinstance(call.args[1], nodes.Const):
        state.dynamic_self.append(f"getattr(self, {call.args[1].as_string()}) at line {call.lineno}")


# -- mirror copies ---------------------------------------------------------------------
@dataclass
class Mirror:
    """`self.X = src.X` (or `Cls(X=src.X)`) for several X from one source in one method."""

    source: nodes.NodeNG  # the source expression (`req`, `self.config`)
    fields: list[str]
    anchor: nodes.NodeNG  # where the message goes
    method: str
    call: nodes.Call | None = None  # the constructor call, for the keyword form


def _copied_field(value: nodes.NodeNG | None, name: str) -> nodes.NodeNG | None:
    """The source object when `value` is `<src>.<name>` with a plain dotted source."""
    if isinstance(value, nodes.Attribute) and value.attrname == name and isinstance(value.expr, (nodes.Name, nodes.Attribute)):
        return value.expr
    return None


def find_mirrors(state: ClassState) -> list[Mirror]:
    """Assignment form: groups of `self.X = src.X` in one method, by source text."""
    groups: dict[tuple[str, str], list[tuple[FieldWrite, nodes.NodeNG]]] = {}
    for name, writes in state.writes.items():
        for write in writes:
            source = _copied_field(write.value, name) if write.kind == "assign" else None
            if source is None:
                continue
            self_name = _self_name(write.node.frame()) if isinstance(write.node.frame(), nodes.FunctionDef) else None
            if source.as_string() == self_name:
                continue
            groups.setdefault((write.method, source.as_string()), []).append((write, source))
    mirrors = []
    for (method, _), items in groups.items():
        # A field written again elsewhere in the class is its own state, not a mirror.
        items = [item for item in items if len(state.writes[item[0].name]) == 1]
        items.sort(key=lambda item: item[0].node.lineno or 0)
        if len({w.name for w, _ in items}) >= MIN_MIRRORED:
            mirrors.append(Mirror(items[0][1], [w.name for w, _ in items], items[0][0].node, method))
    return mirrors


def keyword_mirrors(call: nodes.Call) -> list[Mirror]:
    """Constructor form: `Cls(X=src.X, Y=src.Y, Z=src.Z)`, three or more from one source."""
    by_source: dict[str, list[tuple[str, nodes.NodeNG]]] = {}
    for keyword in call.keywords or []:
        source = _copied_field(keyword.value, keyword.arg) if keyword.arg else None
        # `Part(x=self.x, ...)` builds a part from the object's own settings: no mirror.
        if source is not None and source.as_string() not in ("self", "cls"):
            by_source.setdefault(source.as_string(), []).append((keyword.arg, source))
    frame = call.frame()
    method = frame.name if isinstance(frame, nodes.FunctionDef) else "<module>"
    return [
        Mirror(items[0][1], [name for name, _ in items], call, method, call)
        for items in by_source.values()
        if len(items) >= MIN_MIRRORED
    ]


# -- derivable fields ------------------------------------------------------------------
@dataclass
class Derived:
    """A field only ever assigned from an expression of other fields of the same object."""

    name: str
    expression: str
    sources: list[str]
    sites: list[FieldWrite]
    bare: bool = False  # `self.a = self.b` (or `self.b.c`): a copy of one value, no computation


def _derivation_sources(value: nodes.NodeNG, self_name: str) -> set[str] | None:
    """Fields of `self` an expression is made of; None when anything else takes part."""
    if isinstance(value, nodes.Const):
        return set()
    if isinstance(value, nodes.Attribute):
        if _is_self(value.expr, self_name):
            return {value.attrname}
        root = value.expr
        while isinstance(root, nodes.Attribute):
            root = root.expr
        if isinstance(root, nodes.Name) and root.name[:1].isupper():  # Status.DONE, MODULE_CONST.x
            return set()
        return _derivation_sources(value.expr, self_name) if isinstance(value.expr, nodes.Attribute) else None
    if isinstance(value, nodes.Name):
        return set() if value.name[:1].isupper() or value.name in ("None", "True", "False") else None
    parts: list[nodes.NodeNG]
    if isinstance(value, nodes.BinOp):
        parts = [value.left, value.right]
    elif isinstance(value, nodes.BoolOp):
        parts = list(value.values)
    elif isinstance(value, nodes.UnaryOp):
        parts = [value.operand]
    elif isinstance(value, nodes.Compare):
        parts = [value.left, *(operand for _, operand in value.ops)]
    elif isinstance(value, nodes.IfExp):
        parts = [value.test, value.body, value.orelse]
    elif isinstance(value, nodes.Subscript):
        parts = [value.value, value.slice]
    elif isinstance(value, nodes.Call) and isinstance(value.func, nodes.Name) and value.func.name in PURE_FUNCTIONS and not value.keywords:
        parts = list(value.args)
    else:
        return None
    found: set[str] = set()
    for part in parts:
        sub = _derivation_sources(part, self_name)
        if sub is None:
            return None
        found |= sub
    return found


def find_derived(state: ClassState) -> list[Derived]:
    """Fields written two or more times, always with the same expression of other fields.

    A field whose sources never change after construction is a cached constant, not
    state kept in sync, and a field assigned once is a snapshot, a cache or an alias:
    those are left out here.
    """
    found = []
    for name, writes in state.writes.items():
        if len(writes) < 2 or any(w.kind != "assign" for w in writes) or name.lower().lstrip("_").startswith(SNAPSHOT_WORDS):
            continue
        expressions = {w.value.as_string() for w in writes if w.value is not None}
        if len(expressions) != 1:
            continue
        frame = writes[0].node.frame()
        self_name = _self_name(frame) if isinstance(frame, nodes.FunctionDef) else None
        sources = _derivation_sources(writes[0].value, self_name) if self_name and writes[0].value is not None else None
        if not sources or name in sources:
            continue
        if not any(state.changed_outside_init(source) for source in sources):
            continue
        bare = _is_attribute_path(writes[0].value, self_name)
        found.append(Derived(name, expressions.pop(), sorted(sources), writes, bare))
    return found


def _is_attribute_path(value: nodes.NodeNG | None, self_name: str) -> bool:
    """`self.b` or `self.b.c`: a plain read, no operation on the way."""
    while isinstance(value, nodes.Attribute):
        value = value.expr
    return isinstance(value, nodes.Name) and value.name == self_name
