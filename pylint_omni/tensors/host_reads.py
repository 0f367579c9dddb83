"""Host reads and copies that one call does already: per-element reads in a loop, `.cpu()` before `.item()`, a
move before `.copy_()`, a copy before `.pin_memory()`.

Part of `redundant-tensor-materialization`. Each function takes one node and returns a
`CopyFinding` or None; doubt means None. Why each is redundant:
- an element of a device tensor read on the host (`.item()`, `int()`, a slice bound) waits
  for the device and copies one number; in a loop that is one sync per element, where one
  `.tolist()` before the loop copies them all at once;
- `.item()` reads one number from any device straight into a Python value: a `.cpu()` before
  it only adds a host tensor; not so `.tolist()`, which copies a device tensor into a host
  tensor of its own, so a `.cpu()` before it saves nothing;
- `.copy_()` moves across devices and converts dtypes itself: `dst.copy_(src.to(dev))`
  materializes `src` on `dev` first, then copies that;
- `.pin_memory()` always copies an unpinned tensor: a `.clone()` right before it copies
  twice, a `.cpu()` of an accelerator tensor too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from astroid import nodes

from pylint_omni.tensors.copy_findings import CopyFinding, code_span
from pylint_omni.tensors.facts import (
    DEVICE_METHODS,
    Strength,
    device_target,
    host_named,
    method_call,
    receiver,
    tensor_strength,
    to_arguments,
    torch_function,
)
from pylint_omni.tensors.local_flow import enclosing_function, keyword_named, single_binding_value, uses_of


@dataclass(frozen=True)
class HostRead:
    """One host read of a loop element: the reading node (`.item()`, `int()`, a slicing) and the element it reads."""

    node: nodes.NodeNG
    element: nodes.NodeNG


ATOMS = (nodes.Name, nodes.Attribute, nodes.Call, nodes.Subscript)  # receivers that need no parentheses
HOST_CASTS = frozenset({"int", "float", "bool"})  # builtins that read a 0-d tensor's value on the host


def _to_host(call: nodes.NodeNG) -> nodes.Call | None:
    """The call when it is `x.cpu()` or `x.to("cpu")`."""
    step = method_call(call, "cpu", "to")
    if step is None:
        return None
    target = device_target(step)
    return step if target is not None and target[0] == "cpu" else None


def read_of_host_copy(call: nodes.Call) -> CopyFinding | None:
    """`x.cpu().item()`: `.item()` reads one number from a tensor on any device without a host tensor; `.tolist()`
    is no case: it copies a device tensor into a host tensor of its own, so a `.cpu()` before it saves nothing."""
    read = method_call(call, "item")
    if read is None or read.args or read.keywords:
        return None
    step = _to_host(receiver(read))
    if step is None:
        return None
    tensor = receiver(step)
    method = read.func.attrname
    # `(a / b).cpu().item()` keeps its parentheses: `a / b.item()` would read only `b`.
    subject = tensor.as_string() if isinstance(tensor, ATOMS) else f"({tensor.as_string()})"
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"copies a tensor to the host before `.{method}()`, which copies to the host itself",
        cost=f"1 host tensor allocated only to be read by `.{method}()`",
        fix=f"drop the `.{step.func.attrname}({'...' if step.args else ''})`: `{subject}.{method}()`",
        evidence=f"`.{method}()` returns a Python value from a tensor on any device",
        strength=Strength.PROVEN,
        saved="1 host tensor allocation",
        risk="none: the value read is the same",
        pattern=f"`.cpu()` before `.{method}()`",
        micro=True,
        habit=True,
    )


def copy_of_moved(call: nodes.Call) -> CopyFinding | None:
    """`dst.copy_(src.to(device))`, also through a local used only there: `.copy_()` moves and casts itself."""
    if method_call(call, "copy_") is None or len(call.args) != 1:
        return None
    source, through = call.args[0], ""
    if isinstance(source, nodes.Name):
        value = single_binding_value(source)
        function = enclosing_function(call)
        if not isinstance(value, nodes.Call) or function is None or len(uses_of(function, source.name)) != 1:
            return None
        through, source = f" (`{source.name}`, bound at line {value.lineno} and used only here)", value
    step = method_call(source, "to", "cpu", *DEVICE_METHODS)
    if step is None or step.func.attrname == "to" and set(to_arguments(step) or ()) != {"device"}:
        # A cast before `.copy_()` is rounding (`x.copy_(x.to(torch.bfloat16))`): `.copy_()` alone would not round.
        return None
    src = receiver(step).as_string()
    blocking = " (with its `non_blocking=True`)" if any(kw.arg == "non_blocking" for kw in step.keywords or ()) else ""
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem=f"materializes the source on the target before `.copy_()` copies it again{through}",
        cost="1 extra full-size allocation and copy: `.copy_()` moves across devices and converts the dtype itself",
        fix=f"copy from the source directly: `{receiver(call).as_string()}.copy_({src}{', non_blocking=True' if blocking else ''})`",
        evidence=f"`.{step.func.attrname}(...)` feeds `.copy_()` and nothing else",
        strength=Strength.PROVEN,
        saved="1 full-size allocation and 1 copy",
        risk="none: `.copy_()` gives the destination the same values, device and dtype",
        pattern="move before `.copy_()`",
    )


def copy_before_pin(call: nodes.Call) -> CopyFinding | None:
    """`x.clone().pin_memory()` (two copies, always) and `x.cpu().pin_memory()` (two when `x` is on a device)."""
    pin = method_call(call, "pin_memory")
    if pin is None or pin.args or pin.keywords:
        return None
    inner = receiver(pin)
    clone = method_call(inner, "clone")
    if clone is not None and not clone.args and not clone.keywords:
        tensor = receiver(clone)
        return CopyFinding(
            node=call,
            surface=code_span(call),
            problem="copies a tensor, then `.pin_memory()` copies the copy into pinned memory",
            cost="2 full host copies where `.pin_memory()` alone makes one",
            fix=f"drop the `.clone()`: `{tensor.as_string()}.pin_memory()` already returns new pinned storage",
            evidence="`.pin_memory()` copies any tensor that is not pinned, and a fresh clone never is",
            strength=Strength.PROVEN,
            saved="1 full host allocation and copy",
            risk="none: the pinned result is new storage either way",
            pattern="copy before `.pin_memory()`",
        )
    step = _to_host(inner)
    if step is None or host_named(receiver(step)) or _staged_for_device(call):
        return None
    tensor = receiver(step).as_string()
    return CopyFinding(
        node=call,
        surface=code_span(call),
        problem="copies an accelerator tensor to pageable host memory, then again to pinned memory",
        cost="2 host allocations and copies (the device→host copy is not the pinned one)",
        fix=f"copy once into pinned memory: `torch.empty_like({tensor}, device=\"cpu\", pin_memory=True).copy_({tensor})`",
        evidence="`.cpu()` makes a pageable copy that `.pin_memory()` copies again",
        strength=Strength.HEURISTIC,
        saved="1 full host allocation and copy per call",
        risk="none for the values; the copy into pinned memory may then run asynchronously (`non_blocking=True`)",
        unknown=f"when `{tensor}` is already on the host, `.cpu()` returns it and only one copy is made",
        pattern="copy before `.pin_memory()`",
    )


def _staged_for_device(pinned: nodes.Call) -> bool:
    """`x.cpu().pin_memory().to(device, non_blocking=True)`: a host tensor staged for an async upload, so `x` was
    on the host and `.cpu()` returned it (one copy, the pinned one)."""
    parent = pinned.parent
    if not (isinstance(parent, nodes.Attribute) and isinstance(parent.parent, nodes.Call) and parent.parent.func is parent):
        return False
    target = device_target(parent.parent)
    return target is not None and target[0] != "cpu"


def _loop_body(loop: nodes.For | nodes.Comprehension) -> list[nodes.NodeNG]:
    if isinstance(loop, nodes.For):
        return list(loop.body)
    comprehension = loop.parent
    parts = [getattr(comprehension, field, None) for field in ("elt", "key", "value")]
    return [part for part in parts if part is not None] + list(loop.ifs)


def _host_reads(body: list[nodes.NodeNG], is_element: Callable[[nodes.NodeNG], bool]) -> list[HostRead]:
    """Places in `body` where an element (`is_element(node)`) is read on the host."""
    reads: list[HostRead] = []
    for statement in body:
        for node in statement.nodes_of_class((nodes.Call, nodes.Slice)):
            if isinstance(node, nodes.Slice):  # a slice bound becomes a Python int: one read
                for bound in (node.lower, node.upper):
                    found = next((n for n in bound.nodes_of_class((nodes.Name, nodes.Subscript)) if is_element(n)), None) \
                        if bound is not None else None
                    if found is not None:
                        reads.append(HostRead(node.parent, found))
            elif method_call(node, "item") is not None and not node.args and is_element(receiver(node)):
                reads.append(HostRead(node, receiver(node)))
            elif (isinstance(node.func, nodes.Name) and node.func.name in HOST_CASTS and len(node.args) == 1
                  and is_element(node.args[0])):
                reads.append(HostRead(node, node.args[0]))
    return reads


def _written_in(body: list[nodes.NodeNG], name: str) -> bool:
    """The loop rebinds `name`, writes into it, or calls an in-place method of it."""
    for statement in body:
        for node in statement.nodes_of_class((nodes.AssignName, nodes.Subscript, nodes.Call)):
            if isinstance(node, nodes.AssignName) and node.name == name:
                return True
            if (isinstance(node, nodes.Subscript) and node.ctx is not None and node.ctx.name == "Store"
                    and isinstance(node.value, nodes.Name) and node.value.name == name):
                return True
            step = method_call(node)
            if (step is not None and step.func.attrname.endswith("_") and isinstance(receiver(step), nodes.Name)
                    and receiver(step).name == name):
                return True
    return False


def _indexed_reads(loop: nodes.For | nodes.Comprehension, body: list[nodes.NodeNG]) -> tuple[nodes.Name, list[HostRead]] | None:
    """`T` and its host reads for `for i in range(...)` whose body reads `T[i]` on the host."""
    if not (isinstance(loop.iter, nodes.Call) and isinstance(loop.iter.func, nodes.Name)
            and loop.iter.func.name == "range" and isinstance(loop.target, nodes.AssignName)):
        return None
    index = loop.target.name

    def is_element(node: nodes.NodeNG) -> bool:
        return (isinstance(node, nodes.Subscript) and isinstance(node.slice, nodes.Name) and node.slice.name == index
                and isinstance(node.value, nodes.Name))

    reads = _host_reads(body, is_element)
    for read in reads:
        tensor = read.element.value
        if not _written_in(body, tensor.name) and tensor_strength(tensor) and not host_named(tensor):
            return tensor, [r for r in reads if r.element.value.name == tensor.name]
    return None


def _iterated_tensors(loop: nodes.For | nodes.Comprehension) -> dict[str, nodes.NodeNG]:
    """Element name -> the tensor it iterates, for `for x in T` or `for a, b in zip(T, U)` over tensors."""
    if isinstance(loop.target, nodes.AssignName):
        pairs = [(loop.target, loop.iter)]
    elif (isinstance(loop.target, nodes.Tuple) and isinstance(loop.iter, nodes.Call)
          and isinstance(loop.iter.func, nodes.Name) and loop.iter.func.name == "zip"
          and len(loop.target.elts) == len(loop.iter.args)):
        pairs = list(zip(loop.target.elts, loop.iter.args))
    else:
        return {}
    return {target.name: source for target, source in pairs if isinstance(target, nodes.AssignName) and tensor_strength(source)}


def _built_on_host(tensor: nodes.NodeNG) -> bool:
    """`torch.linspace(0, 1, n)`: a factory given no `device=` builds on the default device, the host."""
    return torch_function(tensor) is not None and keyword_named(tensor, "device") is None


def per_element_host_reads(loop: nodes.For | nodes.Comprehension) -> CopyFinding | None:
    """A loop reading the elements of one tensor on the host, one at a time."""
    body = _loop_body(loop)
    iterated = _iterated_tensors(loop)
    if iterated:
        reads = _host_reads(body, lambda node: isinstance(node, nodes.Name) and node.name in iterated)
        if not reads:
            return None
        # `for row, n in zip(ids, lens)`: the tensor is the one whose element is read (`n.item()` reads `lens`)
        name = next(r.element.name for r in reads if isinstance(r.element, nodes.Name))
        tensor = iterated[name]
        reads = [r for r in reads if isinstance(r.element, nodes.Name) and r.element.name == name]
    else:
        indexed = _indexed_reads(loop, body)
        if indexed is None:
            return None
        tensor, reads = indexed
    if not reads:
        return None
    on_host = host_named(tensor) or _to_host(tensor) is not None or _built_on_host(tensor)
    strength = tensor_strength(tensor)
    node = reads[0].node
    per = f"{len(reads)} read{'s' if len(reads) > 1 else ''} per element"
    return CopyFinding(
        node=node,
        surface=code_span(node),
        problem=f"reads `{tensor.as_string()[:40]}` on the host one element at a time ({per}, line {(loop.lineno or loop.parent.lineno)} loop)",
        cost=("one `.item()`-sized call and 0-d tensor per element" if on_host else
              "one device sync and one device→host copy per element read, where one `.tolist()` copies them all"),
        fix=f"read it once before the loop: `{tensor.as_string()[:40]}.tolist()`, then index the list",
        evidence="every element is read by its own host read inside the loop",
        strength=strength,
        saved="per-element host reads replaced by one `.tolist()`" + ("" if on_host else " (one device sync)"),
        risk="none for the values; the list holds Python numbers, so code that needs tensors keeps using the tensor",
        unknown="" if strength >= Strength.PROVEN else f"`{tensor.as_string()[:40]}` is a tensor by annotation or method only",
        pattern="per-element host reads in a loop",
        micro=on_host,
    )
