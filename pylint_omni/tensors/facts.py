"""What the code itself proves about a tensor expression: its library, kind, freshness.

Shared by the tensor and payload checkers. Everything here reads the astroid tree of
one function; nothing imports torch or NumPy (neither needs to be installed), so a
name is "torch" only when an `import` in scope binds it to the torch package.

Evidence has two strengths: PROVEN (the code makes it so: `torch.zeros(...)` returns
a tensor, `x.dtype` is a dtype) and HEURISTIC (an annotation, a variable named
`device`): findings resting on a heuristic are medium confidence.
"""

from __future__ import annotations

import re
from enum import IntEnum

from astroid import nodes

from pylint_omni.index.vocabulary import DEFAULT_VOCABULARY, TORCH_DEVICE_METHODS
from pylint_omni.tensors.local_flow import keyword_named, resolve_dotted, single_binding_value


class Strength(IntEnum):
    """How well the code proves a fact."""

    NONE = 0
    HEURISTIC = 1
    PROVEN = 2


# torch functions that always allocate a new tensor from a shape or from Python data.
SHAPE_FACTORIES = frozenset({
    "zeros", "ones", "empty", "full", "eye", "arange", "linspace", "logspace",
    "rand", "randn", "randint", "randperm", "tensor",
})
LIKE_FACTORIES = frozenset({
    "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like",
})
RANDOM_FACTORIES = frozenset({"rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like"})
# Always a new tensor, never a view of an input.
ALLOCATING_FUNCTIONS = SHAPE_FACTORIES | LIKE_FACTORIES | frozenset({
    "cat", "concat", "concatenate", "stack", "hstack", "vstack", "matmul", "mm", "bmm", "einsum",
    "where", "exp", "log", "sqrt", "softmax", "sigmoid", "tanh", "cumsum", "clone",
})
# Tensor-returning torch functions (allocating or not): the result is a tensor.
TENSOR_FUNCTIONS = ALLOCATING_FUNCTIONS | frozenset({
    "as_tensor", "from_numpy", "frombuffer", "flatten", "reshape", "narrow", "index_select",
    "gather", "masked_select", "nonzero", "argmax", "argmin", "sum", "mean", "amax", "amin",
})
# Out-of-place tensor methods that always return new storage.
ALLOCATING_METHODS = frozenset({
    "clone", "add", "sub", "mul", "div", "pow", "matmul", "exp", "log", "sqrt", "abs", "neg",
    "softmax", "log_softmax", "sigmoid", "tanh", "relu", "sum", "mean", "cumsum", "masked_fill",
    "index_select", "gather", "repeat", "repeat_interleave",
})
# Methods returning a view with every element of the receiver (same storage size).
FULL_VIEW_METHODS = frozenset({
    "view", "reshape", "flatten", "unsqueeze", "squeeze", "permute", "transpose", "t", "detach",
})
# Methods on a tensor returning a tensor (they may return the receiver itself).
TENSOR_METHODS = ALLOCATING_METHODS | FULL_VIEW_METHODS | frozenset({
    "to", *TORCH_DEVICE_METHODS, "float", "half", "bfloat16", "double", "long", "int", "bool", "contiguous",
    "expand", "narrow", "pin_memory", "type_as", "view_as", "reshape_as", "flip", "roll", "chunk",
})
# Methods that exist on tensors only (not on modules, NumPy arrays or Python objects).
TENSOR_ONLY_METHODS = frozenset({"detach", "contiguous", "pin_memory", "unsqueeze", "masked_fill", "view_as"})
# Methods that keep the receiver's device.
DEVICE_KEEPING_METHODS = FULL_VIEW_METHODS | ALLOCATING_METHODS | frozenset({
    "contiguous", "float", "half", "bfloat16", "double", "long", "int", "bool", "expand", "narrow",
})
DTYPE_KEEPING_METHODS = FULL_VIEW_METHODS | frozenset({"clone", "contiguous", "expand", "narrow", "neg"}) | DEFAULT_VOCABULARY.device_types

TORCH_DTYPES = frozenset({
    "float", "float16", "float32", "float64", "half", "double", "bfloat16", "int", "int8", "int16",
    "int32", "int64", "long", "short", "uint8", "bool", "float8_e4m3fn", "float8_e5m2", "complex64",
})
# torch's device types are a library convention: the vocabulary's defaults (`index.vocabulary`).
DEVICE_STRINGS = DEFAULT_VOCABULARY.device_string
DEVICE_METHODS = DEFAULT_VOCABULARY.device_types - {"cpu", "meta"}  # `.cuda()`-like moves to a device
HOST_NAME = re.compile(r"(\A|_)(cpu|host|np|numpy)(\Z|_)")


def call_name(call: nodes.Call) -> str | None:
    """The dotted name of a call to an imported function (`torch.zeros`), else None."""
    return resolve_dotted(call.func)


def torch_function(call: nodes.NodeNG) -> str | None:
    """`zeros` for `torch.zeros(...)`; None when the call is not a top-level torch function."""
    if not isinstance(call, nodes.Call):
        return None
    name = call_name(call)
    if name and name.startswith("torch.") and name.count(".") == 1:
        return name.split(".", 1)[1]
    return None


def method_call(node: nodes.NodeNG, *names: str) -> nodes.Call | None:
    """The call when `node` is `<receiver>.<name>(...)` for one of `names` (any name if none)."""
    if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Attribute):
        if not names or node.func.attrname in names:
            return node
    return None


def receiver(call: nodes.Call) -> nodes.NodeNG:
    """`x` of `x.method(...)` (callers check `method_call` first)."""
    assert isinstance(call.func, nodes.Attribute)
    return call.func.expr


def tensor_strength(expr: nodes.NodeNG, depth: int = 0) -> Strength:
    """How well the code proves `expr` is a torch tensor."""
    if depth > 4:
        return Strength.NONE
    if isinstance(expr, nodes.Call):
        if torch_function(expr) in TENSOR_FUNCTIONS:
            return Strength.PROVEN
        call = method_call(expr)
        if call is None:
            return Strength.NONE
        method = call.func.attrname
        if method in TENSOR_METHODS:
            inner = tensor_strength(receiver(call), depth + 1)
            if inner:
                return inner
        # `dim=` is torch's keyword (NumPy and pandas say `axis=`): `x.sum(dim=1)` is a tensor by its call.
        dim_keyword = method in TENSOR_METHODS and keyword_named(call, "dim") is not None
        return Strength.HEURISTIC if method in TENSOR_ONLY_METHODS or dim_keyword else Strength.NONE
    if isinstance(expr, nodes.Name):
        value = single_binding_value(expr)
        if isinstance(value, nodes.AssignName):  # a parameter: its annotation decides
            return Strength.HEURISTIC if _annotated_tensor(value) else Strength.NONE
        return tensor_strength(value, depth + 1) if value is not None else Strength.NONE
    return Strength.NONE


def _annotated_tensor(param: nodes.AssignName) -> bool:
    note = _annotation_of(param)
    return note is not None and bool(re.fullmatch(r"(Optional\[)?(torch\.)?Tensor(\]| \| None)?", note.as_string()))


def is_fresh(expr: nodes.NodeNG) -> Strength:
    """Whether `expr` certainly evaluates to new storage that nothing else references.

    `.to()`, `.float()`, `.cuda()` and `.contiguous()` are not fresh: they return the
    receiver itself when nothing changes, so a following `.clone()` may be the only copy.
    """
    if isinstance(expr, nodes.BinOp) and expr.op in ("+", "-", "*", "/", "//", "@", "**", "%"):
        return Strength.HEURISTIC  # out-of-place arithmetic allocates (the operands are not checked)
    if isinstance(expr, nodes.Call):
        function = torch_function(expr)
        if function in ALLOCATING_FUNCTIONS and keyword_named(expr, "out") is None:
            return Strength.PROVEN
        call = method_call(expr)
        if call is None:
            return Strength.NONE
        method = call.func.attrname
        if method in ALLOCATING_METHODS:
            return Strength.PROVEN if tensor_strength(receiver(call)) else Strength.HEURISTIC
        if method in FULL_VIEW_METHODS:
            return is_fresh(receiver(call))
    return Strength.NONE


def conversion_kind(arg: nodes.NodeNG) -> tuple[str | None, Strength]:
    """What a `.to()` argument is: ("device" | "dtype" | None, how well it is proven)."""
    if isinstance(arg, nodes.Const):
        if isinstance(arg.value, str) and DEVICE_STRINGS.match(arg.value):
            return "device", Strength.PROVEN
        if isinstance(arg.value, int) and not isinstance(arg.value, bool):
            return "device", Strength.PROVEN
        return None, Strength.NONE
    dotted = resolve_dotted(arg)
    if dotted is not None and dotted.startswith("torch.") and dotted[6:] in TORCH_DTYPES:
        return "dtype", Strength.PROVEN
    if isinstance(arg, nodes.Call) and call_name(arg) == "torch.device":
        return "device", Strength.PROVEN
    if isinstance(arg, nodes.Name):
        bound = _bound_kind(arg)
        if bound is not None:
            return bound, Strength.PROVEN
    if isinstance(arg, nodes.Call):
        returned = _returned_kind(arg)
        if returned is not None:
            return returned, Strength.PROVEN
    last = _last_identifier(arg)
    if last in ("device", "dtype"):
        return last, Strength.PROVEN if isinstance(arg, nodes.Attribute) else Strength.HEURISTIC
    if last and ("dtype" in last):
        return "dtype", Strength.HEURISTIC
    if last and ("device" in last or last == "dev" or last.endswith("_dev")):
        return "device", Strength.HEURISTIC
    return None, Strength.NONE


KIND_ANNOTATIONS = {"torch.device": "device", "torch.dtype": "dtype"}


def _returned_kind(call: nodes.Call) -> str | None:
    """"device" / "dtype" for a call of a function the code annotates `-> torch.device` / `-> torch.dtype`."""
    try:
        function = next(iter(call.func.infer()), None)
    except Exception:  # astroid inference can fail on any code; no evidence then
        return None
    if isinstance(function, nodes.FunctionDef) and function.returns is not None:
        return KIND_ANNOTATIONS.get(function.returns.as_string().strip("'\""))
    return None


def _bound_kind(name: nodes.Name) -> str | None:
    """"device" / "dtype" when the code binds the name so: a parameter annotated `torch.device` / `torch.dtype`,
    or a local bound once to `torch.device(...)`, `x.device` or `x.dtype`."""
    value = single_binding_value(name)
    if isinstance(value, nodes.AssignName):
        note = _annotation_of(value)
        text = note.as_string().replace("Optional[", "").rstrip("]").split(" | ")[0] if note is not None else ""
        return KIND_ANNOTATIONS.get(text)
    if isinstance(value, nodes.Call) and call_name(value) == "torch.device":
        return "device"
    if isinstance(value, nodes.Attribute) and value.attrname in ("device", "dtype"):
        return value.attrname
    return None


def _annotation_of(param: nodes.AssignName) -> nodes.NodeNG | None:
    arguments = param.parent
    if not isinstance(arguments, nodes.Arguments):
        return None
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    notes = [*arguments.posonlyargs_annotations, *arguments.annotations, *arguments.kwonlyargs_annotations]
    return next((note for arg, note in zip(every, notes) if arg is param), None)


def _last_identifier(expr: nodes.NodeNG) -> str | None:
    if isinstance(expr, nodes.Call):
        expr = expr.func
    if isinstance(expr, nodes.Attribute):
        return expr.attrname.lower()
    if isinstance(expr, nodes.Name):
        return expr.name.lower()
    return None


def to_arguments(call: nodes.Call) -> dict[str, tuple[nodes.NodeNG, Strength]] | None:
    """The device and dtype a `.to(...)` call names, or None when it does more (copy=, another tensor)."""
    if keyword_named(call, "copy") is not None or keyword_named(call, "memory_format") is not None:
        return None
    found: dict[str, tuple[nodes.NodeNG, Strength]] = {}
    for arg in call.args:
        kind, strength = conversion_kind(arg)
        if kind is None or kind in found:
            return None
        found[kind] = (arg, strength)
    for kw in call.keywords or ():
        if kw.arg in ("device", "dtype"):
            found[kw.arg] = (kw.value, Strength.PROVEN)
        elif kw.arg != "non_blocking":
            return None
    return found or None


def device_target(call: nodes.Call) -> tuple[str, Strength] | None:
    """(`"cuda"`-like text, strength) when `call` moves its receiver to a device; `.cpu()` gives ("cpu", PROVEN)."""
    method = call.func.attrname if isinstance(call.func, nodes.Attribute) else None
    if method in DEVICE_METHODS:
        return method, Strength.PROVEN
    if method == "cpu" and not call.args:
        return "cpu", Strength.PROVEN
    if method == "to":
        named = to_arguments(call)
        if named and set(named) == {"device"}:
            arg, strength = named["device"]
            text = arg.value if isinstance(arg, nodes.Const) else arg.as_string()
            return str(text), strength
    return None


def host_named(expr: nodes.NodeNG) -> bool:
    """A receiver named `*_cpu`, `*_host`, `*_np` (or a `.cpu` buffer view): a host copy by the author's word."""
    while True:
        if isinstance(expr, nodes.Call) and isinstance(expr.func, nodes.Attribute):
            expr = expr.func.expr  # the method's name says what it does, not what the receiver is
        elif isinstance(expr, nodes.Subscript):
            expr = expr.value
        elif isinstance(expr, nodes.Attribute):
            if HOST_NAME.search(expr.attrname.lower()):
                return True
            expr = expr.expr
        else:
            break
    return isinstance(expr, nodes.Name) and bool(HOST_NAME.search(expr.name.lower()))
