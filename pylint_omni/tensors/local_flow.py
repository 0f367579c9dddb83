"""Function-local data flow on the astroid tree, conservative by construction.

The tensor and payload checkers claim "this value is computed twice" or "this copy
is never needed". Both claims rest on four questions answered here, each biased so
that doubt means "no finding":
- `single_binding_value`: the one expression a local name is bound to;
- `uses_of`: every read of a local name in its function (nested functions included);
- `one_path_region`: the statements executed between two nodes, when the second
  always runs after the first on one path (same block, or nested below it);
- `disturbed`: whether anything in those statements may rebind or mutate a value
  (assignment, in-place method, store into it, passing it or an alias to a call).
"""

from __future__ import annotations

from typing import Iterable, Iterator

from astroid import nodes

from pylint_omni.index.vocabulary import TORCH_DEVICE_METHODS

NESTED_SCOPES = (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef, nodes.ComprehensionScope)
BLOCK_FIELDS = ("body", "orelse", "handlers", "finalbody")
# Methods that read their receiver and neither mutate it nor hand out an alias of it.
READING_METHODS = frozenset({
    "item", "tolist", "numpy", "size", "dim", "numel", "clone", "sum", "mean", "max", "min", "amax",
    "amin", "argmax", "argmin", "any", "all", "eq", "ne", "gt", "lt", "ge", "le", "abs", "tobytes",
    "copy", "astype", "nonzero", "cumsum", "is_contiguous", "stride", "element_size", "data_ptr",
    "count", "index", "startswith", "endswith", "format", "encode", "decode", "get", "keys", "values",
    "items", "norm", "std", "var", "isnan", "isinf", "isfinite", "allclose", "equal", "float", "half",
    "to", *TORCH_DEVICE_METHODS, "long", "int", "bool", "double", "bfloat16", "view", "reshape", "flatten",
    "squeeze", "unsqueeze", "permute", "transpose", "t", "contiguous", "detach", "expand", "split",
    "chunk", "unbind", "type", "index_select", "gather", "masked_select", "repeat", "bytes",
})
# Methods whose result shares nothing with the receiver.
DETACHING_METHODS = frozenset({
    "item", "tolist", "clone", "copy", "tobytes", "size", "dim", "numel", "sum", "mean", "max", "min",
    "any", "all", "eq", "ne", "gt", "lt", "ge", "le", "astype", "nonzero", "is_contiguous", "encode", "decode",
})
PURE_FUNCTIONS = frozenset({
    "len", "str", "repr", "int", "float", "bool", "isinstance", "print", "min", "max", "abs", "range",
    "sum", "tuple", "type", "id", "hash", "round", "sorted", "format", "getattr", "hasattr",
})
# Library functions that never write into their arguments (minus the parts below).
PURE_MODULES = frozenset({"torch", "numpy", "math", "json", "pickle", "base64", "copy", "msgspec", "zlib"})
MUTATING_PARTS = frozenset({"distributed", "ops", "copyto", "put", "place", "fill_diagonal", "scatter", "index_put"})
LOGGER_NAMES = frozenset({"logger", "logging", "log", "_logger", "LOGGER", "warnings"})


def resolve_dotted(expr: nodes.NodeNG) -> str | None:
    """`torch.nn.functional.pad` for `F.pad` when `import torch.nn.functional as F` binds F.

    Only names bound by an import resolve; a local variable, a parameter or an
    attribute of `self` gives None.
    """
    parts: list[str] = []
    while isinstance(expr, nodes.Attribute):
        parts.append(expr.attrname)
        expr = expr.expr
    if not isinstance(expr, nodes.Name):
        return None
    bindings = _module_bindings(expr)
    if bindings is None:
        try:
            _, bindings = expr.lookup(expr.name)
        except Exception:  # astroid lookups can fail on broken code; no evidence then
            return None
    if len(bindings) != 1:
        return None
    base = _imported_as(bindings[0], expr.name)
    if base is None:
        return None
    return ".".join([base, *reversed(parts)])


def _module_bindings(name: nodes.Name) -> list[nodes.NodeNG] | None:
    """The module's bindings of a name no enclosing scope binds, without astroid's statement filtering.

    The tensor checkers resolve every call's callee (`torch.cat`, `F.pad`) several
    times; a name bound once at module level, by nothing in between, is that binding
    wherever it is read, so the full `lookup` (the costly part of a warm run) is only
    needed for names some function or class binds, or that the module binds twice.
    """
    scope = name.scope()
    while not isinstance(scope, nodes.Module):
        if name.name in scope.locals:
            return None
        parent = scope.parent
        if parent is None:
            return None
        scope = parent.scope()
    bound = scope.locals.get(name.name)
    return bound if bound is not None and len(bound) == 1 else None


def _imported_as(binding: nodes.NodeNG, name: str) -> str | None:
    if isinstance(binding, nodes.Import):
        for imported, alias in binding.names:
            if alias == name:
                return imported
            if alias is None and imported.split(".")[0] == name:
                return name
    if isinstance(binding, nodes.ImportFrom) and not binding.level:
        for imported, alias in binding.names:
            if (alias or imported) == name:
                return f"{binding.modname}.{imported}"
    return None


def single_binding_value(name: nodes.Name) -> nodes.NodeNG | None:
    """The value a local name is bound to once in its function, or the parameter's AssignName.

    None when the name is global, bound more than once, or bound by anything but a
    plain assignment (`for`, `with`, augmented assignment, tuple unpacking).
    """
    try:
        scope, _ = name.lookup(name.name)
    except Exception:  # astroid lookups can fail on broken code; no evidence then
        return None
    if not isinstance(scope, nodes.FunctionDef):
        return None
    bound = scope.locals.get(name.name, [])
    if len(bound) != 1:
        return None
    binding = bound[0]
    parent = binding.parent
    if isinstance(parent, nodes.Arguments):
        return binding
    if isinstance(parent, nodes.Assign) and len(parent.targets) == 1 and parent.targets[0] is binding:
        return parent.value
    if isinstance(parent, nodes.AnnAssign) and parent.target is binding and parent.value is not None:
        return parent.value
    return None


def unchanged_after_binding(name: nodes.Name, value: nodes.NodeNG) -> bool:
    """Nothing in the function rebinds, writes into, awaits around or hands out a once-bound local."""
    function = enclosing_function(name)
    binding = getattr(value.parent, "targets", [getattr(value.parent, "target", None)])[0]
    return function is not None and not disturbed(list(function.body), {name.name}, skip=[binding])


def uses_of(function: nodes.FunctionDef, name: str) -> list[nodes.Name]:
    """Every read of `name` in the function, nested functions included (a closure read escapes)."""
    return [n for n in function.nodes_of_class(nodes.Name) if n.name == name]


def enclosing_function(node: nodes.NodeNG) -> nodes.FunctionDef | None:
    scope = node.scope()
    while isinstance(scope, nodes.ComprehensionScope):
        scope = scope.parent.scope()
    return scope if isinstance(scope, nodes.FunctionDef) else None


def root_name(expr: nodes.NodeNG) -> nodes.Name | None:
    """`x` of `x`, `x.a`, `x[i]`, `x.view(-1)`, `x.a.b[0].c()`."""
    while True:
        if isinstance(expr, nodes.Attribute):
            expr = expr.expr
        elif isinstance(expr, nodes.Subscript):
            expr = expr.value
        elif isinstance(expr, nodes.Call) and isinstance(expr.func, nodes.Attribute):
            expr = expr.func.expr
        else:
            break
    return expr if isinstance(expr, nodes.Name) else None


def names_in(expr: nodes.NodeNG) -> set[str]:
    return {n.name for n in expr.nodes_of_class(nodes.Name)}


def _block_of(statement: nodes.NodeNG) -> list[nodes.NodeNG] | None:
    parent = statement.parent
    for field in BLOCK_FIELDS:
        block = getattr(parent, field, None)
        if isinstance(block, list) and any(item is statement for item in block):
            return block
    return None


def _conditional_within(node: nodes.NodeNG, statement: nodes.NodeNG) -> bool:
    """Whether `node` may be skipped although its statement runs (IfExp branch, later BoolOp operand)."""
    child, parent = node, node.parent
    while parent is not None and parent is not statement:
        if isinstance(parent, nodes.IfExp) and child is not parent.test:
            return True
        if isinstance(parent, nodes.BoolOp) and child is not parent.values[0]:
            return True
        if isinstance(parent, NESTED_SCOPES):
            return True
        child, parent = parent, parent.parent
    return False


def _position(node: nodes.NodeNG) -> tuple[int, int]:
    return (node.lineno or 0, node.col_offset or 0)


def one_path_region(first: nodes.NodeNG, second: nodes.NodeNG) -> list[nodes.NodeNG] | None:
    """The statements from `first`'s to `second`'s when `second` always runs after `first`.

    `second` must sit in the statement of `first` (after it) or in a later statement of
    the same block, at any depth. A first occurrence that may be skipped (a branch of
    a conditional expression) proves nothing.
    """
    statement = first.statement()
    if _conditional_within(first, statement):
        return None
    if _position(second) <= _position(first):
        return None
    block = _block_of(statement)
    anchor = second.statement()
    while anchor is not None and anchor is not statement:
        if block is not None and any(item is anchor for item in block):
            break
        if isinstance(anchor, (nodes.FunctionDef, nodes.ClassDef, nodes.Module)):
            return None
        parent = anchor.parent
        anchor = parent.statement() if parent is not None else None
    if anchor is None:
        return None
    if anchor is statement:
        return [statement]
    start = next(i for i, item in enumerate(block) if item is statement)
    end = next(i for i, item in enumerate(block) if item is anchor)
    return block[start : end + 1]


def aliases(function: nodes.FunctionDef, names: set[str]) -> set[str]:
    """`names` plus every local that may share storage with one of them (`y = x.view(-1)`, `x = y[0]`)."""
    edges: list[tuple[str, set[str]]] = []
    for assign in function.nodes_of_class((nodes.Assign, nodes.AnnAssign)):
        targets = assign.targets if isinstance(assign, nodes.Assign) else [assign.target]
        if assign.value is None:
            continue
        sources = _shared_names(assign.value)
        for target in targets:
            for stored in target.nodes_of_class(nodes.AssignName):
                edges.append((stored.name, sources))
    tracked = set(names)
    changed = True
    while changed:
        changed = False
        for target, sources in edges:
            if target in tracked and not sources <= tracked:
                tracked |= sources
                changed = True
            elif sources & tracked and target not in tracked:
                tracked.add(target)
                changed = True
    return tracked


def _shared_names(value: nodes.NodeNG) -> set[str]:
    """Names whose storage the value may share (a detaching method or an operator breaks sharing)."""
    if isinstance(value, nodes.Name):
        return {value.name}
    if isinstance(value, nodes.Attribute):
        return _shared_names(value.expr)
    if isinstance(value, nodes.Subscript):
        return _shared_names(value.value)
    if isinstance(value, nodes.Call) and isinstance(value.func, nodes.Attribute):
        if value.func.attrname in DETACHING_METHODS:
            return set()
        return _shared_names(value.func.expr)
    if isinstance(value, (nodes.List, nodes.Tuple, nodes.Set)):
        return set().union(*(_shared_names(e) for e in value.elts)) if value.elts else set()
    if isinstance(value, nodes.IfExp):
        return _shared_names(value.body) | _shared_names(value.orelse)
    return set()


def _walk(region: Iterable[nodes.NodeNG]) -> Iterator[nodes.NodeNG]:
    for statement in region:
        yield statement
        yield from statement.nodes_of_class(nodes.NodeNG)


def _pure_call(call: nodes.Call) -> bool:
    func = call.func
    if isinstance(func, nodes.Name):
        return func.name in PURE_FUNCTIONS
    if isinstance(func, nodes.Attribute):
        root = root_name(func)
        if root is not None and root.name in LOGGER_NAMES:
            return True
        if func.attrname in READING_METHODS:
            return True
    dotted = resolve_dotted(func)
    if dotted is None or dotted.split(".")[0] not in PURE_MODULES or keyword_named(call, "out"):
        return False
    return not dotted.endswith("_") and not any(part in MUTATING_PARTS for part in dotted.split("."))


def keyword_named(call: nodes.Call, name: str) -> nodes.NodeNG | None:
    for kw in call.keywords or ():
        if kw.arg == name:
            return kw.value
    return None


def _passed_names(arg: nodes.NodeNG) -> set[str]:
    """Names whose value (or a part of it) an argument hands to the callee."""
    if isinstance(arg, nodes.Starred):
        return _passed_names(arg.value)
    if isinstance(arg, (nodes.Dict,)):
        return set().union(*(_passed_names(v) for _, v in arg.items)) if arg.items else set()
    return _shared_names(arg)


def disturbed(
    region: list[nodes.NodeNG], names: set[str], skip: Iterable[nodes.NodeNG] = (), local: bool = True,
) -> bool:
    """Whether the region may rebind or mutate any of `names` (or, for non-local roots, anything).

    An `await`/`yield` counts too. `local=False` (a receiver rooted at `self` or a
    global) also counts any call that is not a known read.
    """
    skipped = {id(n) for n in skip}
    for node in _walk(region):
        if id(node) in skipped:
            continue
        if isinstance(node, (nodes.AssignName, nodes.DelName)) and node.name in names:
            return True
        if isinstance(node, (nodes.AssignAttr, nodes.DelAttr)):
            root = root_name(node.expr)
            if root is not None and root.name in names:
                return True
        if isinstance(node, nodes.Subscript) and getattr(node, "ctx", None) is not None and node.ctx.name != "Load":
            root = root_name(node.value)
            if root is not None and root.name in names:
                return True
        if isinstance(node, nodes.AugAssign):
            root = root_name(node.target)
            if root is not None and root.name in names:
                return True
        if isinstance(node, (nodes.Await, nodes.Yield, nodes.YieldFrom)):
            return True  # another task may run here and write into a shared value
        if isinstance(node, nodes.Call) and _call_disturbs(node, names, local):
            return True
    return False


def _call_disturbs(call: nodes.Call, names: set[str], local: bool) -> bool:
    if isinstance(call.func, nodes.Attribute):
        root = root_name(call.func.expr)
        method = call.func.attrname
        if root is not None and root.name in names and method not in READING_METHODS:
            return True
    if _pure_call(call):
        return False
    if not local:
        return True
    passed = [*call.args, *(kw.value for kw in call.keywords or ())]
    return any(_passed_names(arg) & names for arg in passed)
