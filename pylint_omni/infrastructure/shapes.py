"""What a recogniser returns, and the AST helpers the torch and stdlib recognisers share.

Only exact shapes are matched; a variant with other numerics or other semantics is
either left alone or reported medium with the difference spelled out (`glue`).
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
    since: str  # "<distribution> <version>" that first has the replacement: "torch 2.4", "Python 3.9"
    evidence: str
    glue: str = ""  # semantics the replacement does not carry, which stay around the call (or must be decided)
    confidence: str = "high"  # "medium" when `glue` names a difference in semantics, numerics or version
    goes: str = "the expression"  # the lines that go
    decorator: bool = False  # the replacement decorates the function instead of being called
    places: tuple[tuple[int, int], ...] = ()  # (first, last) line spans that go; none: the reported node's own lines
    size: int = 0  # hand-written lines that go, when `places` holds lines that stay (a decorated function's body)
    idiom: bool = False  # a style idiom (try/except/pass): the same small saving however long or repeated, never high

    @property
    def requirement(self) -> tuple[str, str]:
        """(distribution as declared, version): ("torch", "2.4"), ("python", "3.9")."""
        dist, _, version = self.since.partition(" ")
        return dist.lower(), version

    def hand_lines(self, node_lines: tuple[int, int]) -> int:
        """How many hand-written lines go: `size`, else the lines of `places` (else of the reported node)."""
        return self.size or sum(last - first + 1 for first, last in self.places or (node_lines,))


def pure(node: nodes.NodeNG) -> bool:
    """A plain name or attribute chain: reading it twice reads the same tensor."""
    while isinstance(node, nodes.Attribute):
        node = node.expr
    return isinstance(node, nodes.Name)


def same(left: nodes.NodeNG, right: nodes.NodeNG) -> bool:
    return pure(left) and left.as_string() == right.as_string()


def bound_value(node: nodes.NodeNG) -> nodes.NodeNG:
    """A name's value when one plain assignment earlier in the same block binds it, else the node itself.

    Only the nearest preceding statement of the same block that binds the name counts, so
    `v = x.pow(2).mean(-1, keepdim=True)` then `x * torch.rsqrt(v + eps)` reads as one expression.
    """
    if not isinstance(node, nodes.Name):
        return node
    statement = node.statement()
    block = statement.parent
    siblings = getattr(block, "body", None)
    if not isinstance(siblings, list) or statement not in siblings:
        return node
    between: set[str] = set()  # names bound after the assignment and before the use: its value would read them stale
    for earlier in reversed(siblings[:siblings.index(statement)]):
        bound = {n.name for n in earlier.nodes_of_class(nodes.AssignName)}
        if isinstance(earlier, (nodes.Assign, nodes.AnnAssign, nodes.AugAssign)):
            targets = earlier.targets if isinstance(earlier, nodes.Assign) else [earlier.target]
            if any(isinstance(t, nodes.AssignName) and t.name == node.name for t in targets):
                single = isinstance(earlier, nodes.Assign) and len(targets) == 1 and earlier.value is not None
                stale = {n.name for n in earlier.value.nodes_of_class(nodes.Name)} & between if single else set()
                return earlier.value if single and not stale else node
            between |= bound
        elif node.name in bound:
            return node  # bound in a loop, branch or with: not one value
        else:
            between |= bound
    return node


def call_name(node: nodes.NodeNG) -> str:
    """`exp` for `torch.exp(...)`, `F.softmax(...)`, `math.sqrt(...)` or `x.exp()`; '' for anything else."""
    if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Attribute):
        return node.func.attrname
    return ""


def method_operand(node: nodes.Call, modules: tuple[str, ...] = ("torch", "F", "functional", "special", "math", "np", "numpy")
                   ) -> nodes.NodeNG | None:
    """The tensor a unary torch call works on: `torch.f(t)` -> t, `t.f()` -> t."""
    func = node.func
    assert isinstance(func, nodes.Attribute)
    qualifier = func.expr.as_string().rpartition(".")[2]
    if qualifier in modules:
        return node.args[0] if len(node.args) == 1 and not node.keywords else None
    return func.expr if not node.args and not node.keywords else None


def constant(node: nodes.NodeNG) -> float | None:
    """The value of a numeric constant expression (`0.5`, `math.sqrt(2 / math.pi)`, `2 ** 0.5`), else None."""
    if isinstance(node, nodes.Const) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, nodes.Attribute) and node.attrname == "pi" and node.expr.as_string() in ("math", "np", "numpy", "torch"):
        return 3.141592653589793
    if isinstance(node, nodes.UnaryOp) and node.op == "-":
        inner = constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, nodes.BinOp) and node.op in ("+", "-", "*", "/", "**"):
        left, right = constant(node.left), constant(node.right)
        if left is None or right is None or (node.op == "/" and right == 0):
            return None
        try:
            return {"+": left + right, "-": left - right, "*": left * right, "/": left / (right or 1),
                    "**": left ** right if left > 0 else None}[node.op]
        except OverflowError:
            return None
    if call_name(node) == "sqrt" and isinstance(node, nodes.Call) and len(node.args) == 1:
        inner = constant(node.args[0])
        return inner ** 0.5 if inner is not None and inner >= 0 else None
    return None


def close(value: float | None, expected: float, tolerance: float = 1e-4) -> bool:
    return value is not None and abs(value - expected) <= tolerance * abs(expected)


class Lines:
    """The statements a multi-statement shape spans: they all go with it."""

    def __init__(self, node: nodes.NodeNG) -> None:
        self.first = self.use = node.statement().lineno
        self.last = node.statement().tolineno

    def value(self, node: nodes.NodeNG) -> nodes.NodeNG:
        found = bound_value(node)
        if found is not node:
            self.first = min(self.first, found.lineno)
        return found

    def goes(self) -> str:
        return "the expression" if self.first == self.use else f"lines {self.first}-{self.use} (the temporaries too)"

    def span(self) -> tuple[tuple[int, int], ...]:
        return ((self.first, self.last),)


def keyword(call: nodes.Call, name: str, position: int) -> nodes.NodeNG | None:
    """The argument `name` of a call, by keyword or at `position`."""
    for given in call.keywords or ():
        if given.arg == name:
            return given.value
    return call.args[position] if len(call.args) > position else None


def reduced(node: nodes.NodeNG, reduction: str) -> tuple[nodes.NodeNG, str] | None:
    """(tensor, dim text) of `t.reduction(dim, keepdim=True)` or `torch.reduction(t, dim, keepdim=True)`."""
    if call_name(node) != reduction:
        return None
    assert isinstance(node, nodes.Call) and isinstance(node.func, nodes.Attribute)
    offset = 1 if node.func.expr.as_string() == "torch" else 0
    tensor = node.args[0] if offset and node.args else node.func.expr
    dim, keepdim = keyword(node, "dim", offset), keyword(node, "keepdim", offset + 1)
    if dim is None or not (isinstance(keepdim, nodes.Const) and keepdim.value is True):
        return None
    return tensor, dim.as_string()


def _block(statement: nodes.NodeNG) -> tuple[list[nodes.NodeNG], int]:
    """The statements of the block holding `statement`, and its index there ([] when it is in none)."""
    siblings = getattr(statement.parent, "body", None)
    if not isinstance(siblings, list) or statement not in siblings:
        return [], 0
    return siblings, siblings.index(statement)


def earlier_statements(statement: nodes.NodeNG) -> list[nodes.NodeNG]:
    """The statements before `statement` in its block, nearest first."""
    siblings, index = _block(statement)
    return siblings[:index][::-1]


def later_statements(statement: nodes.NodeNG) -> list[nodes.NodeNG]:
    """The statements after `statement` in its block, nearest first."""
    siblings, index = _block(statement)
    return siblings[index + 1:] if siblings else []
