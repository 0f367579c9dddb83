"""The copy-free half of `redundant-tensor-materialization`: clones, chained `.to()`, `.contiguous()`.

Split from `tensor_materialization` to keep modules small. Each function takes one
call and returns a `CopyFinding` or None; doubt means None.
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.tensors.copy_findings import CopyFinding, code_span
from pylint_omni.tensors.local_flow import (
    enclosing_function, keyword_named, resolve_dotted, single_binding_value, unchanged_after_binding, uses_of,
)
from pylint_omni.tensors.facts import (
    DEVICE_KEEPING_METHODS,
    DEVICE_METHODS,
    DTYPE_KEEPING_METHODS,
    LIKE_FACTORIES,
    RANDOM_FACTORIES,
    SHAPE_FACTORIES,
    Strength,
    is_fresh,
    method_call,
    receiver,
    tensor_strength,
    to_arguments,
    torch_function,
)

LOOPS = (nodes.For, nodes.While, nodes.Comprehension)
# Factories whose result is the same whether built on the target or converted after.
CONVERTIBLE_FACTORIES = (SHAPE_FACTORIES | LIKE_FACTORIES) - RANDOM_FACTORIES - {"tensor"}
JOINING_FUNCTIONS = frozenset({"cat", "concat", "concatenate", "stack"})
DEVICE_ONLY_FACTORIES = frozenset({"arange", "linspace", "logspace"})  # low-precision accumulation differs
# Factories whose result is in the default dtype (float32) whatever their arguments: `.float()` returns it unchanged
# (`torch.arange(0, d, 2)` is int64 and `torch.full(s, 1)` takes its fill value's dtype: their `.float()` casts).
FLOAT_BY_DEFAULT = frozenset({"zeros", "ones", "empty", "rand", "randn", "eye"})


def _loop_of(node: nodes.NodeNG, stop: nodes.NodeNG) -> nodes.NodeNG | None:
    parent = node.parent
    while parent is not None and parent is not stop:
        if isinstance(parent, LOOPS):
            return parent
        parent = parent.parent
    return None


def clone_of_fresh(call: nodes.Call) -> CopyFinding | None:
    """`.clone()` of storage that nothing else can see."""
    if method_call(call, "clone") is None or call.args or call.keywords:
        return None
    subject, through = receiver(call), ""
    if isinstance(subject, nodes.Name):
        value = single_binding_value(subject)
        function = enclosing_function(call)
        if value is None or isinstance(value, nodes.AssignName) or function is None:
            return None
        if len(uses_of(function, subject.name)) != 1:
            return None  # read elsewhere: the clone may protect that reader from later writes
        if _loop_of(call, function) is not _loop_of(value, function):
            return None  # bound once, cloned every iteration: each clone is a fresh copy
        through = f" (`{subject.name}`, bound at line {value.lineno} and used only here)"
        subject = value
    fresh = is_fresh(subject)
    if fresh is Strength.NONE:
        return None
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"copies a tensor that was just allocated and is referenced nowhere else{through}",
        cost="1 extra allocation and full copy on the tensor's device",
        fix="drop `.clone()`",
        evidence=f"`{subject.as_string()[:60]}` always returns new storage",
        strength=fresh,
        saved="1 allocation and 1 full copy on the tensor's device",
        risk="none if the storage is new; if an operand is not a tensor the expression may return shared storage",
        unknown="" if fresh >= Strength.PROVEN else "the operands are assumed to be tensors (operators allocate)",
        pattern="`.clone()` of fresh storage",
    )


def _keeps(step: nodes.Call, kind: str) -> Strength:
    """How surely a method call keeps its receiver's `kind` (a `.to()` naming only the other kind keeps it)."""
    method = step.func.attrname
    if method == "to":
        named = to_arguments(step)
        if named is None or kind in named or len(named) != 1:
            return Strength.NONE
        return next(iter(named.values()))[1]
    kept = DEVICE_KEEPING_METHODS if kind == "device" else DTYPE_KEEPING_METHODS
    return Strength.PROVEN if method in kept else Strength.NONE


def chained_conversion(call: nodes.Call) -> CopyFinding | None:
    """A no-op `.to()` (first the inner one of a chain), a two-step `.to()` that moves the same bytes either way,
    a factory converted after the fact."""
    if method_call(call, "to") is None:
        return None
    outer = to_arguments(call)
    if outer is None or len(outer) != 1:
        return None
    (kind, (arg, strength)), = outer.items()
    inner = receiver(call)
    return (
        _inner_no_op(inner)
        or _no_op(call, inner, kind, arg)
        or _merge(call, inner, kind, arg, strength)
        or _late_factory(call, inner, kind, strength)
    )


def _inner_no_op(inner: nodes.NodeNG) -> CopyFinding | None:
    """`x.to(x.device).to(dtype)`: the first step changes nothing; drop it rather than merge."""
    step = method_call(inner, "to")
    named = to_arguments(step) if step is not None else None
    if step is None or named is None or len(named) != 1:
        return None
    (kind, (arg, _)), = named.items()
    return _no_op(step, receiver(step), kind, arg)


ITEM_BYTES = {
    "float64": 8, "double": 8, "int64": 8, "long": 8, "complex64": 8, "float32": 4, "float": 4, "int32": 4, "int": 4,
    "float16": 2, "half": 2, "bfloat16": 2, "int16": 2, "short": 2, "int8": 1, "uint8": 1, "bool": 1,
    "float8_e4m3fn": 1, "float8_e5m2": 1,
}
CASTING_METHODS = {"float": "float32", "half": "float16", "bfloat16": "bfloat16", "double": "float64", "long": "int64",
                   "int": "int32", "bool": "bool", "byte": "uint8", "short": "int16"}
LEGACY_CONSTRUCTORS = {"Tensor": "float32", "FloatTensor": "float32", "LongTensor": "int64", "IntTensor": "int32"}


def _dtype_named(arg: nodes.NodeNG | None) -> str | None:
    dotted = resolve_dotted(arg) if arg is not None else None
    return dotted[6:] if dotted and dotted.startswith("torch.") and dotted[6:] in ITEM_BYTES else None


def known_dtype(expr: nodes.NodeNG) -> str | None:
    """The dtype the code gives `expr` (`torch.zeros(n, dtype=torch.int32)`, `x.half()`), else None."""
    factory = torch_function(expr)
    if factory is not None:
        return LEGACY_CONSTRUCTORS.get(factory) or _dtype_named(keyword_named(expr, "dtype"))
    step = method_call(expr)
    if step is None:
        return None
    method = step.func.attrname
    if method in CASTING_METHODS and not step.args:
        return CASTING_METHODS[method]
    if method == "to":
        named = to_arguments(step) or {}
        if "dtype" in named:
            return _dtype_named(named["dtype"][0])
        return known_dtype(receiver(step)) if named else None
    return known_dtype(receiver(step)) if method in DTYPE_KEEPING_METHODS else None


def _merge(call: nodes.Call, inner: nodes.NodeNG, kind: str, arg: nodes.NodeNG, strength: Strength) -> CopyFinding | None:
    """`.to(device).to(dtype)` (or the reverse) as one call, only where both orders move the same bytes.

    Casting on the host before a host→device copy moves the narrower dtype: that order
    is intended and never merged. A merged blocking `.to(device, dtype)` converts on
    the host; a non-blocking one on the device. So a merge is offered when the two
    dtypes have the same width, or for transfer-then-cast with `non_blocking=True`
    (kept), where the conversion stays on the device as it is now. Every keyword of
    both calls is kept.
    """
    if method_call(inner, "to") is None:
        return None
    first = to_arguments(inner)
    if first is None or len(first) != 1 or kind in first:
        return None  # dtype then dtype is rounding on purpose; device then device is a round trip (own check)
    (other_kind, (other_arg, other_strength)), = first.items()
    if _built_object(receiver(inner)):
        return None  # `Model(config).to(device).to(dtype)` converts a module's parameters, not a tensor
    device, dtype = (arg, other_arg) if kind == "device" else (other_arg, arg)
    source, target = known_dtype(receiver(inner)), _dtype_named(dtype)
    same_width = source is not None and target is not None and ITEM_BYTES[source] == ITEM_BYTES[target]
    non_blocking = keyword_named(inner, "non_blocking")
    if not same_width and not (other_kind == "device" and non_blocking is not None):
        return None
    keywords = [f"{kw.arg}={kw.value.as_string()}" for c in (inner, call) for kw in c.keywords or () if kw.arg not in ("device", "dtype")]
    merged = f"{receiver(inner).as_string()}.to({', '.join([device.as_string(), dtype.as_string(), *keywords])})"
    why = f"same bytes: {source} and {target} have one width" if same_width else "same bytes: the conversion stays on the device"
    weakest = min(strength, other_strength)
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"converts {other_kind} and {kind} in two calls",
        cost="1 extra call and 1 intermediate tensor; the same bytes cross the bus either way",
        fix=f"use one call: `{merged}`",
        evidence=f"{why}; `.to({other_arg.as_string()})` then `.to({arg.as_string()})`",
        strength=weakest,
        saved="1 intermediate tensor and 1 call (no transfer saved)",
        risk="none: every keyword is kept and the bytes moved do not change",
        unknown="" if weakest >= Strength.PROVEN else "a device or dtype is recognised by its name only",
        pattern="two-step `.to()` call",
        micro=True,
    )


def _built_object(expr: nodes.NodeNG) -> bool:
    """An instance built by a class call (`CLIPVisionModel(cfg)`), the usual receiver of `Module.to`."""
    while (step := method_call(expr)) is not None:
        expr = receiver(step)
    if not isinstance(expr, nodes.Call) or torch_function(expr) is not None:
        return False
    func = expr.func
    name = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", "")
    return name[:1].isupper() and name != "Tensor"


def _no_op(call: nodes.Call, inner: nodes.NodeNG, kind: str, arg: nodes.NodeNG) -> CopyFinding | None:
    """`.to(x.device)` on something already on `x`'s device, or on a factory given `device=` the same value."""
    target = arg.as_string()
    expected_root = arg.expr.as_string() if isinstance(arg, nodes.Attribute) and arg.attrname == kind else None
    current, strength = inner, Strength.PROVEN
    while (step := method_call(current)) is not None and (kept := _keeps(step, kind)):
        current, strength = receiver(step), min(strength, kept)
    factory = torch_function(current)
    given = keyword_named(current, kind) if factory else None
    if given is not None and given.as_string() == target:
        reason = f"`torch.{factory}` already got `{kind}={target}`"
    elif given is None and factory in LIKE_FACTORIES and current.args and current.args[0].as_string() == expected_root:
        reason = f"`torch.{factory}({expected_root})` already has `{expected_root}`'s {kind}"
    elif expected_root is not None and current.as_string() == expected_root and not factory and tensor_strength(current):
        # Only a tensor: `model.to(model.dtype)` casts a module's other parameters (`model.dtype` is its first one's).
        reason = (
            f"it derives from `{expected_root}` through {kind}-keeping steps only"
            if current is not inner
            else f"it is `{expected_root}` itself"
        )
    else:
        return None
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"converts to the {kind} the tensor already has",
        cost="no copy: `.to()` returns its receiver unchanged, a dispatch and a line of noise",
        fix=f"drop the no-op `.to({target})`",
        evidence=reason,
        strength=strength,
        saved="1 no-op `.to()` call (no copy)",
        risk="none at run time: `.to()` returned its receiver unchanged",
        unknown="" if strength >= Strength.PROVEN else "a step before it keeps the " + kind + " only if its argument, "
        "recognised by its name, is not a " + kind,
        pattern="no-op `.to()` call",
        micro=True,
    )


def late_cast(call: nodes.Call) -> CopyFinding | None:
    """`torch.zeros_like(x).int()`, `torch.ones(n).cuda()`: a factory converted by a cast or device method."""
    step = method_call(call, *CASTING_METHODS, *DEVICE_METHODS)
    if step is None or step.keywords and any(kw.arg != "non_blocking" for kw in step.keywords):
        return None
    kind = "dtype" if step.func.attrname in CASTING_METHODS else "device"
    if kind == "dtype" and step.args:
        return None  # `.int(memory_format=...)`-like: more than a cast
    inner = receiver(call)
    moved = _moved_next(call)
    if kind == "dtype" and step.func.attrname == "float" and torch_function(inner) in FLOAT_BY_DEFAULT \
            and keyword_named(inner, "dtype") is None:
        # `.float()` of a factory in the default dtype returns it unchanged: only a move after it costs anything
        return _late_factory(moved, inner, "device", Strength.PROVEN, through=".float()") if moved is not None else None
    if kind == "dtype" and moved is not None and torch_function(inner) in DEVICE_ONLY_FACTORIES:
        # `torch.arange(0, d, 2).float().to(dev)`: the cast stays (accumulation differs), the move goes into the factory
        return _late_factory(moved, inner, "device", Strength.PROVEN, through=f".{step.func.attrname}()")
    if kind == "dtype" and moved is not None:  # `torch.ones(n).long().cuda()`: both go into the factory
        return _late_factory(moved, inner, "dtype", Strength.PROVEN, through=f".{step.func.attrname}()", also_device=True)
    return _late_factory(call, inner, kind, Strength.PROVEN)


def _moved_next(call: nodes.Call) -> nodes.Call | None:
    """The `.cuda()` (or `.to(x)`) called on this call's result right away, if one is."""
    parent = call.parent
    if isinstance(parent, nodes.Attribute) and parent.expr is call and isinstance(parent.parent, nodes.Call) \
            and parent.parent.func is parent and (parent.attrname in DEVICE_METHODS or parent.attrname == "to"
                                                  and len(parent.parent.args) == 1 and not parent.parent.keywords):
        return None if parent.attrname == "to" and _to_host(parent.parent) else parent.parent
    return None


def _to_host(call: nodes.Call) -> bool:
    """`.cpu()`, `.to("cpu")`, `.to(torch.device("cpu"))`, `.to(device="cpu")`: a move to the host."""
    if call.func.attrname == "cpu":
        return True
    target = call.args[0] if call.args else keyword_named(call, "device")
    if isinstance(target, nodes.Call) and target.args:  # torch.device("cpu")
        target = target.args[0]
    return isinstance(target, nodes.Const) and isinstance(target.value, str) and target.value.partition(":")[0] == "cpu"


def _late_factory(call: nodes.Call, inner: nodes.NodeNG, kind: str, strength: Strength, through: str = "",
                  also_device: bool = False) -> CopyFinding | None:
    """`torch.zeros(n).to(device)`: built on the default device (or dtype), then converted; `through`: a cast
    between the factory and `call` (`.long()` of `torch.ones(n).long().cuda()`), whose dtype also goes into the
    factory when `also_device`."""
    factory = torch_function(inner)
    if factory is None or keyword_named(inner, kind) is not None or isinstance(call.parent, nodes.Expr):
        return None  # a result nobody keeps: the transfer is the point (a device health probe, a warm-up)
    if keyword_named(inner, "pin_memory") is not None:
        return None  # built in pinned host memory for an asynchronous upload: the host tensor is the point
    if kind == "device" and _to_host(call) and factory not in LIKE_FACTORIES:
        return None  # `torch.tensor(x).to("cpu")`: built on the host already, the move copies nothing (OpenRLHF)
    # `torch.tensor(data)` builds on the host either way; `device=` only spares the extra call and host tensor.
    host_built = factory == "tensor" and kind == "device"
    if host_built and inner.args and method_call(inner.args[0], "tolist", "numpy") is not None:
        return None  # `torch.tensor(ids.tolist()).to(dev)`: the round trip through the host is the finding
    if factory not in CONVERTIBLE_FACTORIES and not host_built:
        return None
    if kind == "dtype" and factory in DEVICE_ONLY_FACTORIES:
        return None
    template = inner.args[0].as_string() if factory in LIKE_FACTORIES and inner.args else None
    if kind == "device":
        where = f"on `{template}`'s device" if template else "on the default device"
    else:
        where = f"with `{template}`'s dtype" if template else "in the default dtype"
    cost = "2 allocations and a host→device copy" if kind == "device" else "2 allocations and a conversion"
    saved = "1 allocation and 1 host→device copy" if kind == "device" else "1 allocation and 1 dtype conversion"
    if host_built:
        cost, saved = "a host tensor handed to a second call", "1 call (the host→device copy stays)"
        # Judged noise on four fresh trees (OpenRLHF, CosyVoice): nothing measurable goes, so never high.
        strength = min(strength, Strength.HEURISTIC)
    # Built on the target, nothing is copied: a `non_blocking=True` of the `.to()` has no copy left to apply to.
    async_note = " (no copy is left for its `non_blocking=True`)" if keyword_named(call, "non_blocking") is not None else ""
    passed = f"`{kind}=`"
    if also_device and keyword_named(inner, "device") is None:
        where, passed = f"{where} on the default device", "`dtype=` and `device=`"
        cost, saved = "3 allocations, a conversion and a host→device copy", "2 allocations, 1 conversion and 1 host→device copy"
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"allocates {where} and converts right after",
        cost=cost if host_built else f"{cost} where one allocation on the target suffices",
        fix=f"pass {passed} to `torch.{factory}(...)`{async_note}",
        evidence=(f"`torch.{factory}(...)` is given no {passed} and its result goes straight to "
                  f"`{through}.{call.func.attrname}()`" if through else
                  f"`torch.{factory}(...)` is given no `{kind}=` and its result goes straight to `.{call.func.attrname}()`"),
        strength=strength,
        saved=saved,
        risk=("none: the same values are copied to the device by one call instead of two" if host_built else
              f"values built directly in the target {kind} can differ in the last bits from values converted after"),
        unknown=("only a call and a short-lived host tensor go: the host→device copy stays" if host_built else
                 "" if strength >= Strength.PROVEN else f"the `.to()` argument is a {kind} by its name only"),
        pattern=f"factory converted after the fact ({'dtype and device' if passed.count('=') > 1 else kind})",
        micro=host_built,
    )


def contiguous_of_contiguous(call: nodes.Call) -> CopyFinding | None:
    """`.contiguous()` of a tensor just created from a shape or from data (always contiguous)."""
    if method_call(call, "contiguous") is None or call.args or call.keywords:
        return None
    subject, through = receiver(call), ""
    if isinstance(subject, nodes.Name):
        value = single_binding_value(subject)
        if value is None or isinstance(value, nodes.AssignName) or not unchanged_after_binding(subject, value):
            return None  # an in-place transpose or a callee could change the layout
        through, subject = f" (`{subject.name}`, bound at line {value.lineno})", value
    factory = torch_function(subject)
    strength, unknown = Strength.PROVEN, ""
    if factory in SHAPE_FACTORIES and keyword_named(subject, "memory_format") is None:
        reason = f"`torch.{factory}` returns a contiguous tensor"
    elif method_call(subject, "contiguous") is not None:
        reason = "the receiver is already `.contiguous()`"
    elif factory in JOINING_FUNCTIONS:
        reason = f"`torch.{factory}` returns new storage in the default layout"
        strength = Strength.HEURISTIC
        unknown = f"`torch.{factory}` keeps its inputs' memory format when all share one (channels_last 4-D inputs)"
    else:
        return None
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"asks for a layout the tensor already has{through}",
        cost="no copy: `.contiguous()` returns its receiver unchanged, a check and a line of noise",
        fix="drop the no-op `.contiguous()`",
        evidence=reason,
        strength=strength,
        unknown=unknown,
        saved="1 no-op `.contiguous()` call (no copy)",
        risk="none at run time: `.contiguous()` returned its receiver unchanged",
        pattern="no-op `.contiguous()` call",
        micro=True,
    )
