"""Norms written by hand: RMSNorm (`torch.nn.functional.rms_norm`) and LayerNorm (`torch.nn.functional.layer_norm`).

Only a normalisation over the last dim with eps inside the root matches; eps added
after the root, another dim, or an unbiased variance have other numerics. Never high:
the library's fused kernels sum in another order, so outputs are not bit-identical, and a
model's norm is often kept as written to match its reference numerics.
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.infrastructure.shapes import (
    Lines, Replaceable, bound_value, call_name, constant, method_operand, pure, reduced, same,
)


def _upcast(node: nodes.NodeNG) -> nodes.NodeNG | None:
    """x of `x.float()` or `x.to(torch.float32)`."""
    if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Attribute):
        if node.func.attrname == "float" and not node.args or (
                node.func.attrname == "to" and [a.as_string() for a in node.args] == ["torch.float32"]):
            return node.func.expr
    return None


def _squared(node: nodes.NodeNG) -> nodes.NodeNG | None:
    """x of `x.pow(2)`, `x ** 2`, `x.square()`, `torch.square(x)` or `x * x`, x possibly upcast (`x.float().pow(2)`)."""
    if call_name(node) == "square" and isinstance(node, nodes.Call):
        return method_operand(node)
    if isinstance(node, nodes.BinOp) and node.op == "*" and node.left.as_string() == node.right.as_string():
        return node.left
    if isinstance(node, nodes.BinOp) and node.op == "**" or call_name(node) == "pow":
        base = node.left if isinstance(node, nodes.BinOp) else None
        if base is None:
            assert isinstance(node, nodes.Call) and isinstance(node.func, nodes.Attribute)
            base, exponent = (node.args[0], node.args[1:]) if node.func.expr.as_string() == "torch" else (node.func.expr, node.args)
            return base if len(exponent) == 1 and constant(exponent[0]) == 2.0 and not node.keywords else None
        return base if constant(node.right) == 2.0 else None
    return None


def _centred(x: nodes.NodeNG) -> bool:
    """`x` holds a tensor minus its mean (`h - h.mean(-1, keepdim=True)`, or a name bound to that mean); read
    without widening the lines that go."""
    value = bound_value(x)
    return isinstance(value, nodes.BinOp) and value.op == "-" and reduced(bound_value(value.right), "mean") is not None


# ATen's rms_norm upcasts half and bfloat16 input to float32 (its opmath type) and casts the result back.
FUSED = "not bit-identical: the library's fused kernel sums in another order"
RMS_GLUE = ("F.rms_norm computes in float32 for half/bfloat16 input and casts back, where this code rounds in x's "
            "dtype unless x is float32 already; ")
RMS_EPS = ("it needs eps passed (its default is the dtype's epsilon); a float32 upcast before it, the cast back and a "
           "weight multiply in another dtype stay in glue")


def rms_norm(node: nodes.BinOp) -> Replaceable | None:
    """`x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)` or `x / torch.sqrt(...)`, the mean possibly a name."""
    lines = Lines(node)
    shapes = {"*": ((node.left, node.right, "rsqrt"), (node.right, node.left, "rsqrt")), "/": ((node.left, node.right, "sqrt"),)}
    for x, root, function in shapes.get(node.op, ()):
        if call_name(root) != function or not pure(x) or not isinstance(root, nodes.Call) or method_operand(root) is None:
            continue
        total = lines.value(method_operand(root))  # type: ignore[arg-type]
        if not isinstance(total, nodes.BinOp) or total.op != "+":
            continue
        for mean, eps in ((total.left, total.right), (total.right, total.left)):
            averaged = reduced(lines.value(mean), "mean")
            if averaged is None or averaged[1] != "-1" or x.as_string() in eps.as_string():
                continue
            base = _squared(lines.value(averaged[0]))
            if base is None:
                continue
            if _centred(x):
                continue  # `(x - x.mean()) * rsqrt(var + eps)` subtracts the mean: a LayerNorm without bias
            if same(x, base):
                return Replaceable("RMSNorm", node.as_string(), "torch.nn.functional.rms_norm", "torch 2.4",
                                   f"`{x.as_string()}` over the root of its mean square over the last dim plus "
                                   f"`{eps.as_string()}` is RMSNorm, eps inside the root as the library has it",
                                   glue=f"{FUSED}; " + ("" if _upcast(bound_value(x)) is not None else RMS_GLUE) + RMS_EPS,
                                   confidence="medium", goes=lines.goes(), places=lines.span())
            upcast = _upcast(base)
            if upcast is not None and same(x, upcast):
                return Replaceable("RMSNorm", node.as_string(), "torch.nn.functional.rms_norm", "torch 2.4",
                                   f"`{x.as_string()}` over the root of its float32 mean square plus `{eps.as_string()}`",
                                   glue=f"{FUSED}; here only the statistic is float32 while x keeps its dtype: F.rms_norm on "
                                   "`x.float()` then a cast back rounds differently; decide which numerics the model wants",
                                   confidence="medium", goes=lines.goes(), places=lines.span())
    return None


def _variance(node: nodes.NodeNG, centered: str, x: str) -> bool:
    """`(x - mean).pow(2).mean(-1, keepdim=True)` of the same centred tensor, or a biased `x.var(-1, keepdim=True, ...)`."""
    averaged = reduced(node, "mean")
    if averaged is not None:
        base = _squared(averaged[0])
        return averaged[1] == "-1" and base is not None and base.as_string() == centered
    spread = reduced(node, "var")
    if spread is None or spread[1] != "-1" or spread[0].as_string() != x or not isinstance(node, nodes.Call):
        return False
    biased = {k.arg: k.value.as_string() for k in node.keywords or ()}
    return biased.get("unbiased") == "False" or biased.get("correction") == "0"


def layer_norm(node: nodes.BinOp) -> Replaceable | None:
    """`(x - u) / torch.sqrt(s + eps)` (or `* torch.rsqrt`), u the mean of x and s the biased variance over the last dim."""
    lines = Lines(node)
    function = {"/": "sqrt", "*": "rsqrt"}.get(node.op)
    centered, root = lines.value(node.left), node.right
    if function is None or call_name(root) != function or not isinstance(root, nodes.Call) or method_operand(root) is None:
        return None
    if not isinstance(centered, nodes.BinOp) or centered.op != "-" or not pure(centered.left):
        return None
    x = centered.left.as_string()
    mean = reduced(lines.value(centered.right), "mean")
    total = lines.value(method_operand(root))  # type: ignore[arg-type]
    if mean is None or mean[1] != "-1" or mean[0].as_string() != x or not isinstance(total, nodes.BinOp) or total.op != "+":
        return None
    for spread, eps in ((total.left, total.right), (total.right, total.left)):
        if x not in eps.as_string() and _variance(lines.value(spread), node.left.as_string(), x):
            return Replaceable("LayerNorm", node.as_string(), "torch.nn.functional.layer_norm", "torch 1.0",
                               f"`{x}` minus its mean over the last dim, over the root of its biased variance plus "
                               f"`{eps.as_string()}`, is LayerNorm without affine terms (eps inside the root)",
                               glue=f"{FUSED}; pass normalized_shape=({x}.shape[-1],) and eps; a weight and bias applied "
                               "after it become its `weight` and `bias` arguments", confidence="medium", goes=lines.goes(),
                               places=lines.span())
    return None
