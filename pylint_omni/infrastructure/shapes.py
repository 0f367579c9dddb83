"""AST shapes of hand-written primitives that a dependency replaces as is.

Only exact shapes are matched: `x * torch.sigmoid(x)` is SiLU, while
`x * torch.sigmoid(1.702 * x)` (quick-GELU) or a clamped operand has other
numerics and is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from astroid import nodes


@dataclass(frozen=True)
class Replaceable:
    """One hand-written primitive and the library call that replaces it."""

    name: str
    written: str
    replacement: str
    since: str
    evidence: str


def _sigmoid_operand(node: nodes.NodeNG) -> nodes.NodeNG | None:
    """The tensor inside `torch.sigmoid(t)` or `t.sigmoid()`, else None."""
    if not isinstance(node, nodes.Call) or not isinstance(node.func, nodes.Attribute) or node.keywords:
        return None
    func = node.func
    if func.attrname != "sigmoid":
        return None
    if len(node.args) == 1 and isinstance(func.expr, nodes.Name) and func.expr.name == "torch":
        return node.args[0]
    if not node.args and not (isinstance(func.expr, nodes.Name) and func.expr.name == "torch"):
        return func.expr
    return None


def silu(node: nodes.BinOp) -> Replaceable | None:
    """`x * torch.sigmoid(x)` (either order, `x.sigmoid()` too) with the same plain operand on both sides."""
    if node.op != "*":
        return None
    for plain, gate in ((node.left, node.right), (node.right, node.left)):
        inner = _sigmoid_operand(gate)
        if inner is not None and isinstance(plain, (nodes.Name, nodes.Attribute)) and plain.as_string() == inner.as_string():
            return Replaceable("SiLU", node.as_string(), "torch.nn.functional.silu", "torch 1.7",
                               f"`{plain.as_string()}` times its own sigmoid is SiLU exactly")
    return None
