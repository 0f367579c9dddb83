"""`redundant-tensor-materialization`: a tensor copied, moved or converted more than once on one path.

Each pattern is proven inside one function (see `tensors.facts` and `tensors.local_flow`):
- a round trip back to a tensor: `torch.tensor(x.tolist())`, `torch.tensor(x.cpu().numpy())`,
  `torch.from_numpy(x.cpu().numpy()).cuda()`, also through a local bound once and never mutated;
- a device round trip: `x.cpu().cuda()`, `x.to("cpu").to(device)`;
- `torch.tensor(t)` of a tensor (a copy plus a run-time warning);
- `.clone()` of fresh storage nothing else references (`torch.cat(...).clone()`, or a
  local bound to it whose only use is the clone, in the same loop body);
- chained conversions: `.to(device).to(dtype)`, a no-op `.to(x.device)` on `*_like(x)` or
  on `x` itself, a factory built on the wrong device or dtype then converted,
  `.contiguous()` of a freshly created (contiguous) tensor;
- the same `.item()` / `.tolist()` / `.cpu()` of one value twice on one path;
- host reads one call does already (`tensors.host_reads`): a loop reading a tensor's elements
  one at a time, `.cpu()` before `.item()`, a move before `.copy_()`, a copy before `.pin_memory()`.
`.to()`, `.float()`, `.cuda()` are never "fresh" (they return the receiver when nothing
changes), `.to(low).to(orig)` is rounding, and receivers named `*_cpu` are host copies.
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.tensors.copy_findings import CopyChecker, CopyFinding, code_span
from pylint_omni.tensors.conversions import chained_conversion, clone_of_fresh, contiguous_of_contiguous, late_cast
from pylint_omni.tensors.host_reads import copy_before_pin, copy_of_moved, per_element_host_reads, read_of_host_copy
from pylint_omni.tensors.local_flow import single_binding_value, unchanged_after_binding
from pylint_omni.tensors.repeated_values import repeated_pairs
from pylint_omni.tensors.facts import (
    Strength,
    device_target,
    host_named,
    method_call,
    receiver,
    tensor_strength,
    torch_function,
)

HOST_METHODS = ("item", "tolist", "cpu")


def _peel_host_chain(expr: nodes.NodeNG) -> tuple[nodes.NodeNG, bool]:
    """`x` of `x.detach().cpu()`, and whether a `.cpu()` was on the way."""
    moved = False
    while (call := method_call(expr, "cpu", "detach")) is not None and not call.args:
        moved = moved or call.func.attrname == "cpu"
        expr = receiver(call)
    return expr, moved


def _moved_to_device(call: nodes.Call) -> bool:
    """The tensor built by `call` goes on to a device (`device=` or a following `.cuda()`/`.to(dev)`)."""
    parent = call.parent
    if isinstance(parent, nodes.Attribute) and isinstance(parent.parent, nodes.Call) and parent.parent.func is parent:
        target = device_target(parent.parent)
        return target is not None and target[0] != "cpu"
    return any(kw.arg == "device" for kw in call.keywords or ())


def round_trip_to_tensor(call: nodes.Call) -> CopyFinding | None:
    """`torch.tensor(x.tolist())`, `torch.from_numpy(x.cpu().numpy()).cuda()`, or through a local."""
    function = torch_function(call)
    if function not in ("tensor", "as_tensor", "from_numpy", "asarray") or not call.args:
        return None
    source, through = call.args[0], ""
    if isinstance(source, nodes.Name):
        value = single_binding_value(source)
        if value is None or isinstance(value, nodes.AssignName) or not unchanged_after_binding(source, value):
            return None
        source, through = value, f" (through `{call.args[0].as_string()}`, line {value.lineno})"
    host = method_call(source, "tolist", "numpy")
    if host is None or host.args:
        return None
    kind = host.func.attrname
    tensor, via_cpu = _peel_host_chain(receiver(host))
    moved = _moved_to_device(call)
    if kind == "numpy" and function != "tensor" and not moved:
        return None  # as_tensor/from_numpy share the array's memory: no copy unless it moves back
    strength = tensor_strength(tensor)
    steps = ["device→host (.cpu())"] if via_cpu else []
    steps.append("Python list (.tolist(), a device sync on an accelerator)" if kind == "tolist" else "NumPy view (.numpy())")
    steps.append(f"new tensor (torch.{function})" if function == "tensor" or kind == "tolist" else "tensor view")
    if moved:
        steps.append("host→device")
    is_tensor = kind == "numpy" or strength > Strength.NONE
    name = tensor.as_string()
    fix = (
        f"use `{name}` itself (`.to(...)`/`.clone()` where a move, dtype or copy is wanted)"
        if is_tensor
        else f"convert once: `torch.as_tensor({name})` (or `{name}.clone()` if `{name}` is a tensor)"
    )
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"rebuilds a tensor from its own {'list' if kind == 'tolist' else 'array'} copy{through}",
        cost=" → ".join(steps) + f": {len(steps)} steps for a value that already was a tensor",
        fix=fix,
        evidence=f"`.{kind}()` of `{name}` feeds `torch.{function}` in this function",
        strength=Strength.PROVEN,
        saved=f"{len(steps)} steps ({' → '.join(steps)})" if is_tensor else f"1 {'Python list' if kind == 'tolist' else 'array'} copy",
        risk="the rebuilt tensor had an inferred dtype, no autograd history and storage of its own; "
        "code relying on those needs the `.to(...)`/`.clone()` of the fix",
        pattern="tensor rebuilt from its own host copy",
    )


def device_round_trip(call: nodes.Call) -> CopyFinding | None:
    """`x.cpu().cuda()`, `x.to("cpu").to(device)`, `x.cpu().detach().to(dev)`."""
    target = device_target(call) if isinstance(call.func, nodes.Attribute) else None
    if target is None or target[0] == "cpu":
        return None
    inner = receiver(call)
    while (detach := method_call(inner, "detach")) is not None:
        inner = receiver(detach)
    if not isinstance(inner, nodes.Call) or not isinstance(inner.func, nodes.Attribute):
        return None
    hop = device_target(inner)
    if hop is None or hop[0] != "cpu" or host_named(receiver(inner)):
        return None  # a receiver named *_cpu is already on the host: one transfer, not a round trip
    tensor = receiver(inner)
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem="moves a tensor to the host and straight back",
        cost="device→host then host→device: 2 transfers and 1 host allocation where at most one transfer is needed",
        fix=f"move it once: `{call.as_string().replace(inner.as_string(), tensor.as_string(), 1)}` "
        "(`.clone()` if a same-device copy was the point)",
        evidence=f"`{inner.func.attrname}` to the host then `{call.func.attrname}` to `{target[0]}` in one expression",
        strength=target[1],
        saved="1 device→host copy and 1 host allocation (both transfers when the tensor is already on the target)",
        risk=f"when `{tensor.as_string()}` is already on `{target[0]}` the result is no longer a copy: "
        "in-place writes to it reach the original",
        unknown="" if target[1] >= Strength.PROVEN else f"`{target[0]}` is a device by its name only",
        pattern="device round trip",
    )


def tensor_of_tensor(call: nodes.Call) -> CopyFinding | None:
    """`torch.tensor(t)` where `t` is already a tensor."""
    if torch_function(call) != "tensor" or not call.args:
        return None
    source = call.args[0]
    if isinstance(source, (nodes.List, nodes.Tuple, nodes.Const, nodes.ListComp)):
        return None
    strength = tensor_strength(source)
    if strength is Strength.NONE:
        return None
    name = source.as_string()
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem="copy-constructs a tensor from a tensor",
        cost="1 full copy plus a UserWarning at run time",
        fix=f"use `{name}.clone().detach()` if a copy is needed, else `{name}` (`.to(...)` for a new dtype or device)",
        evidence=f"`{name}` is a tensor by the code that binds it",
        strength=strength,
        saved="1 full copy and 1 UserWarning",
        risk=f"without `.clone().detach()` the result aliases `{name}`: in-place writes and autograd reach it",
        unknown="" if strength >= Strength.PROVEN else f"`{name}` is a tensor by annotation or method name only",
        pattern="`torch.tensor` of a tensor",
    )


PATTERNS = (
    round_trip_to_tensor, device_round_trip, tensor_of_tensor, clone_of_fresh, chained_conversion, contiguous_of_contiguous,
    late_cast, read_of_host_copy, copy_of_moved, copy_before_pin,
)


def _host_key(call: nodes.Call) -> tuple[str, nodes.NodeNG] | None:
    found = method_call(call, *HOST_METHODS)
    if found is None or found.args or found.keywords:
        return None
    subject = receiver(found)
    if isinstance(subject, nodes.Name) and subject.name in ("self", "cls"):
        return None
    return f"{found.func.attrname}:{subject.as_string()}", subject


def repeated_host_copy(earlier: nodes.Call, later: nodes.Call) -> CopyFinding | None:
    subject = receiver(later)
    method = later.func.attrname
    if host_named(subject):
        return None  # a host tensor: no device sync to save
    strength = tensor_strength(subject)
    sure = strength >= Strength.PROVEN and method != "cpu"
    return CopyFinding(
        node=later,
        surface=code_span(later),
        problem=f"materializes the same value on the host again (first at line {earlier.lineno})",
        cost="2 device→host copies, each a device sync when the tensor is on an accelerator",
        fix=f"keep the line-{earlier.lineno} result in a local and reuse it",
        evidence=f"`{subject.as_string()}` is not rebound, mutated in place or passed to a call between the two, "
        "and the second always runs after the first",
        saved="1 device→host copy" + ("" if method == "cpu" else " and its device sync"),
        risk=f"if `{subject.as_string()}` changes between the two lines through an alias (another thread, a callback), "
        "the reused value is the earlier one",
        strength=Strength.PROVEN if sure else Strength.HEURISTIC,
        pattern=f"repeated `.{method}()`",
        unknown="" if sure else (
            "`.cpu()` is free when the tensor is already on the host" if method == "cpu"
            else f"`{subject.as_string()}` is a tensor (not a NumPy array) by heuristic only"
        ),
    )


class TensorMaterializationChecker(CopyChecker):
    """Flags redundant tensor copies, device round trips and repeated host transfers."""

    symbol = "redundant-tensor-materialization"
    msgs = {
        "R7304": (
            "%s",
            "redundant-tensor-materialization",
            "A tensor is materialized or converted more than once on one path: a device round "
            "trip, torch.tensor(x.tolist()), torch.tensor of a tensor, .clone() of fresh storage, "
            "chained or no-op .to(), .contiguous() of a new tensor, or the same .item()/.tolist()/"
            ".cpu() twice. Keep one transfer or conversion and reuse its result.",
        ),
    }

    def visit_call(self, node: nodes.Call) -> None:
        if self.skipping:
            return
        for pattern in PATTERNS:
            finding = pattern(node)
            if finding is not None:
                self.report(finding)
                return

    def visit_functiondef(self, node: nodes.FunctionDef) -> None:
        if self.skipping:
            return
        for earlier, later in repeated_pairs(node, _host_key):
            finding = repeated_host_copy(earlier, later)
            if finding is not None:
                self.report(finding)

    visit_asyncfunctiondef = visit_functiondef

    def visit_for(self, node: nodes.For) -> None:
        if self.skipping:
            return
        finding = per_element_host_reads(node)
        if finding is not None:
            self.report(finding)

    visit_comprehension = visit_for


def register(linter: PyLinter) -> None:
    linter.register_checker(TensorMaterializationChecker(linter))
