"""Tensor helpers written by hand: key/value heads repeated by `expand` then `reshape` (`torch.repeat_interleave`)
and a vector divided by its norm (`torch.nn.functional.normalize`).
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.infrastructure.shapes import Lines, Replaceable, call_name, constant, keyword, pure, same


def _inserted_head_axis(node: nodes.NodeNG) -> nodes.NodeNG | None:
    """x of `x[:, :, None, :, :]` (a new axis after the heads of a 4-d tensor)."""
    if not isinstance(node, nodes.Subscript) or not isinstance(node.slice, nodes.Tuple) or len(node.slice.elts) != 5:
        return None
    axes = node.slice.elts
    full = [isinstance(a, nodes.Slice) and a.lower is None and a.upper is None and a.step is None for a in axes]
    new = isinstance(axes[2], nodes.Const) and axes[2].value is None
    return node.value if new and full == [True, True, False, True, True] and pure(node.value) else None


def repeat_heads(node: nodes.Call) -> Replaceable | None:
    """`x[:, :, None, :, :].expand(b, h, n, s, d).reshape(b, h * n, s, d)`, the expand possibly a name."""
    if call_name(node) != "reshape" or len(node.args) != 4 or node.keywords:
        return None
    assert isinstance(node.func, nodes.Attribute)
    lines = Lines(node)
    expanded = lines.value(node.func.expr)
    if call_name(expanded) != "expand" or len(expanded.args) != 5 or expanded.keywords:  # type: ignore[attr-defined]
        return None
    assert isinstance(expanded, nodes.Call) and isinstance(expanded.func, nodes.Attribute)
    x = _inserted_head_axis(expanded.func.expr)
    b, h, n, s, d = (a.as_string() for a in expanded.args)
    shape = [a.as_string() for a in node.args]
    if x is None or shape[0] != b or shape[2:] != [s, d] or shape[1] not in (f"{h} * {n}", f"{n} * {h}"):
        return None
    return Replaceable("KV head repeat", node.as_string(), "torch.repeat_interleave", "torch 1.1",
                       f"each of the {h} heads of `{x.as_string()}` repeated {n} times in place, along dim 1, is "
                       f"`torch.repeat_interleave({x.as_string()}, {n}, dim=1)`: the same values in the same order, "
                       "copied once as the reshape of the expanded view copies them",
                       goes=lines.goes(), places=lines.span())


def _norm_of(node: nodes.NodeNG) -> nodes.NodeNG | None:
    """x of `x.norm(dim=-1, keepdim=True)` (p=2 or none) or `torch.norm(x, dim=-1, keepdim=True)`."""
    if call_name(node) != "norm" or not isinstance(node, nodes.Call) or not isinstance(node.func, nodes.Attribute):
        return None
    function = node.func.expr.as_string() in ("torch", "torch.linalg")
    x = node.args[0] if function and node.args else node.func.expr
    given = {k.arg: k.value for k in node.keywords or ()}
    positional = node.args[1:] if function else node.args
    order = given.get("p", given.get("ord"))
    if positional or set(given) - {"p", "ord", "dim", "keepdim"} or (order is not None and constant(order) != 2.0):
        return None
    keep = given.get("keepdim")
    return x if "dim" in given and isinstance(keep, nodes.Const) and keep.value is True else None


def normalize(node: nodes.BinOp) -> Replaceable | None:
    """`x / x.norm(dim=d, keepdim=True)`, the norm possibly clamped below (`.clamp(min=eps)`, `.clamp_min(eps)`)."""
    if node.op != "/" or not pure(node.left):
        return None
    divisor, eps = node.right, None
    if call_name(divisor) in ("clamp", "clamp_min") and isinstance(divisor, nodes.Call) \
            and isinstance(divisor.func, nodes.Attribute):
        eps = keyword(divisor, "min", 0)
        if eps is None or len(divisor.args) + len(divisor.keywords or ()) != 1:
            return None
        divisor = divisor.func.expr
    x = _norm_of(divisor)
    if x is None or not same(node.left, x):
        return None
    assert isinstance(divisor, nodes.Call)
    dim = next(k.value for k in divisor.keywords if k.arg == "dim")  # `_norm_of` asks for it by keyword
    arguments = f"{x.as_string()}, dim={dim.as_string()}"
    if eps is not None:
        return Replaceable("L2 normalisation", node.as_string(), "torch.nn.functional.normalize", "torch 1.0",
                           f"`{x.as_string()}` over its 2-norm clamped below at `{eps.as_string()}` is "
                           f"`normalize({arguments}, eps={eps.as_string()})` exactly")
    return Replaceable("L2 normalisation", node.as_string(), "torch.nn.functional.normalize", "torch 1.0",
                       f"`{x.as_string()}` over its 2-norm is `normalize({arguments})`",
                       glue="`normalize` divides by at least eps (1e-12): a zero vector becomes zeros where it is NaN "
                       "here", confidence="medium")
