"""PyTorch primitives written by hand: activations, softmax, log-softmax and attention (norms: `shapes_norms`).

Each recogniser takes the outermost `BinOp` of the expression (`visit_binop` sees
every one; inner ones simply do not match) and follows a name to its value only
through the nearest plain assignment of the same block (`bound_value`).
`x * torch.sigmoid(1.702 * x)` (quick-GELU), an eps outside the square root or a
clamped operand have other numerics and are left alone.
"""

from __future__ import annotations

from collections import Counter

from astroid import nodes

from pylint_omni.infrastructure.shapes import (
    Lines, Replaceable, call_name, close, constant, keyword, method_operand, pure, reduced, same)

Monomial = tuple[float, Counter[str], list[nodes.NodeNG]]  # coefficient, plain factors by text, other factors


def _sigmoid_operand(node: nodes.NodeNG) -> nodes.NodeNG | None:
    """The tensor inside `torch.sigmoid(t)` or `t.sigmoid()`, else None."""
    if call_name(node) != "sigmoid":
        return None
    assert isinstance(node, nodes.Call)
    return method_operand(node)


def silu(node: nodes.BinOp) -> Replaceable | None:
    """`x * torch.sigmoid(x)` (either order, `x.sigmoid()` too) with the same plain operand on both sides."""
    if node.op != "*":
        return None
    for plain, gate in ((node.left, node.right), (node.right, node.left)):
        inner = _sigmoid_operand(gate)
        if inner is not None and same(plain, inner):
            return Replaceable("SiLU", node.as_string(), "torch.nn.functional.silu", "torch 1.7",
                               f"`{plain.as_string()}` times its own sigmoid is SiLU exactly")
    return None


def relu(node: nodes.BinOp) -> Replaceable | None:
    """`x * (x > 0)` (either order) with the same plain operand on both sides.

    `x.clamp(min=0)` is not matched: swapping one call for another deletes nothing, and
    most clamps at zero in serving code bound indices and lengths, not activations.
    """
    if node.op != "*":
        return None
    for plain, mask in ((node.left, node.right), (node.right, node.left)):
        if isinstance(mask, nodes.Compare) and len(mask.ops) == 1 and mask.ops[0][0] == ">" \
                and constant(mask.ops[0][1]) == 0.0 and same(plain, mask.left):
            return Replaceable("ReLU", node.as_string(), "torch.nn.functional.relu", "torch 1.0",
                               f"`{plain.as_string()}` kept where positive and zeroed elsewhere is ReLU",
                               glue="differs where x is -inf (NaN here, as -inf times 0, and 0 from relu) and keeps "
                               "-0.0; relu also skips the boolean mask tensor", confidence="medium")
    return None


def _monomial(node: nodes.NodeNG) -> Monomial | None:
    """A product as coefficient * plain factors * other factors (`x ** 3` and `torch.pow(x, 3)` count x three times)."""
    value = constant(node)
    if value is not None:
        return value, Counter(), []
    if isinstance(node, nodes.BinOp) and node.op == "*":
        left, right = _monomial(node.left), _monomial(node.right)
        if left is None or right is None:
            return None
        return left[0] * right[0], left[1] + right[1], left[2] + right[2]
    if isinstance(node, nodes.BinOp) and node.op == "/":
        divisor = constant(node.right)
        left = _monomial(node.left)
        if divisor in (None, 0.0) or left is None:
            return None
        return left[0] / divisor, left[1], left[2]
    power = _power(node)
    if power is not None:
        return 1.0, Counter({power[0].as_string(): power[1]}), []
    if pure(node):
        return 1.0, Counter({node.as_string(): 1}), []
    return 1.0, Counter(), [node]


def _power(node: nodes.NodeNG) -> tuple[nodes.NodeNG, int] | None:
    """`x ** n`, `torch.pow(x, n)` or `x.pow(n)` with a plain x and a small whole n."""
    if isinstance(node, nodes.BinOp) and node.op == "**":
        base, exponent = node.left, constant(node.right)
    elif call_name(node) == "pow" and isinstance(node, nodes.Call) and not node.keywords and isinstance(node.func, nodes.Attribute):
        if node.func.expr.as_string() == "torch" and len(node.args) == 2:
            base, exponent = node.args[0], constant(node.args[1])
        elif len(node.args) == 1:
            base, exponent = node.func.expr, constant(node.args[0])
        else:
            return None
    else:
        return None
    if not pure(base) or exponent is None or exponent != int(exponent) or not 1 <= exponent <= 4:
        return None
    return base, int(exponent)


def _one_plus(node: nodes.NodeNG, function: str) -> nodes.NodeNG | None:
    """The argument of `1 + function(arg)` (either order), else None."""
    if not isinstance(node, nodes.BinOp) or node.op != "+":
        return None
    for one, call in ((node.left, node.right), (node.right, node.left)):
        if constant(one) == 1.0 and call_name(call) == function and isinstance(call, nodes.Call):
            return method_operand(call)
    return None


def _gelu_outer(node: nodes.BinOp, function: str) -> tuple[str, nodes.NodeNG] | None:
    """`0.5 * x * (1 + function(arg))` in any order: (x, arg)."""
    found = _monomial(node) if node.op in ("*", "/") else None
    if found is None or not close(found[0], 0.5) or len(found[2]) != 1 or sum(found[1].values()) != 1:
        return None
    (x, count), = found[1].items()
    inner = _one_plus(found[2][0], function)
    return (x, inner) if count == 1 and inner is not None else None


def gelu(node: nodes.BinOp) -> Replaceable | None:
    """Tanh-approximated GELU `0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x**3)))` and erf GELU `0.5*x*(1+erf(x/sqrt(2)))`."""
    for function in ("tanh", "erf"):
        outer = _gelu_outer(node, function)
        if outer is None:
            continue
        x, inner = outer
        argument = _monomial(inner)
        if argument is None:
            return None
        if function == "erf":
            if close(argument[0], 0.5 ** 0.5) and argument[1] == Counter({x: 1}) and not argument[2]:
                return Replaceable("GELU", node.as_string(), "torch.nn.functional.gelu", "torch 1.12",
                                   "half of x times 1 + erf(x / sqrt 2) is the exact GELU (`approximate='none'`, the default)")
            return None
        # sqrt(2/pi) * (x + 0.044715 x^3), or factored as x * sqrt(2/pi) * (1 + 0.044715 x^2) (the "fast" GELU)
        power = sum(argument[1].values())
        if close(argument[0], (2 / 3.141592653589793) ** 0.5) and set(argument[1]) <= {x} and power <= 1 \
                and len(argument[2]) == 1 and _cubic(argument[2][0], x, 1 - power):
            return Replaceable("GELU (tanh)", node.as_string(), "torch.nn.functional.gelu", "torch 1.12",
                               "the tanh approximation with sqrt(2/pi) and 0.044715 is `approximate='tanh'`; "
                               "pass it, the default is the erf form" + ("; the factored form rounds differently in the "
                                                                          "last bits" if power else ""))
    return None


def _cubic(node: nodes.NodeNG, x: str, lowest: int) -> bool:
    """`x ** lowest + 0.044715 * x ** (lowest + 2)` in either order (`x + 0.044715 * x ** 3`, `1 + 0.044715 * x * x`)."""
    if not isinstance(node, nodes.BinOp) or node.op != "+":
        return False
    terms = [_monomial(node.left), _monomial(node.right)]
    shapes = sorted((sum(t[1].values()), t[0]) for t in terms if t is not None and not t[2] and set(t[1]) <= {x})
    return (len(shapes) == 2 and shapes[0] == (lowest, 1.0) and shapes[1][0] == lowest + 2
            and close(shapes[1][1], 0.044715, 1e-6))


def _exp_shifted(node: nodes.NodeNG, lines: Lines) -> tuple[nodes.NodeNG, str] | None:
    """(x, dim) of `torch.exp(x - x.max(dim, keepdim=True)[0])` (`.values`, `amax` too)."""
    if call_name(node) != "exp" or not isinstance(node, nodes.Call):
        return None
    shifted = method_operand(node)
    shifted = lines.value(shifted) if shifted is not None else None
    if not isinstance(shifted, nodes.BinOp) or shifted.op != "-" or not pure(shifted.left):
        return None
    peak = lines.value(shifted.right)
    if isinstance(peak, nodes.Subscript) and constant(peak.slice) == 0.0:
        peak = peak.value
    elif isinstance(peak, nodes.Attribute) and peak.attrname == "values":
        peak = peak.expr
    maximum = reduced(peak, "max") or reduced(peak, "amax")
    if maximum is None or not same(shifted.left, maximum[0]):
        return None
    return shifted.left, maximum[1]


def softmax(node: nodes.BinOp) -> Replaceable | None:
    """`e / e.sum(dim, keepdim=True)` with `e = torch.exp(x - x.max(dim, keepdim=True)[0])`, one dim throughout."""
    if node.op != "/":
        return None
    lines = Lines(node)
    found = _exp_shifted(lines.value(node.left), lines)
    total = reduced(node.right, "sum")
    if found is None or total is None or total[1] != found[1] or total[0].as_string() != node.left.as_string():
        return None
    return Replaceable("softmax", node.as_string(), "torch.softmax", "torch 1.0",
                       f"exp of `{found[0].as_string()}` minus its max over dim {found[1]}, over its sum there, "
                       f"is softmax with the same max shift (pass dim={found[1]})", goes=lines.goes(), places=lines.span())


def log_softmax(node: nodes.BinOp) -> Replaceable | None:
    """`x - torch.logsumexp(x, dim, keepdim=True)` (or `x.logsumexp(...)`)."""
    total = reduced(node.right, "logsumexp") if node.op == "-" and pure(node.left) else None
    if total is None or not same(node.left, total[0]):
        return None
    return Replaceable("log-softmax", node.as_string(), "torch.log_softmax", "torch 1.0",
                       f"`{node.left.as_string()}` minus its log-sum-exp over dim {total[1]} is log-softmax "
                       f"(pass dim={total[1]})")


def _matmul(node: nodes.NodeNG) -> tuple[nodes.NodeNG, nodes.NodeNG] | None:
    if isinstance(node, nodes.BinOp) and node.op == "@":
        return node.left, node.right
    if call_name(node) in ("matmul", "bmm") and isinstance(node, nodes.Call) and len(node.args) == 2 and not node.keywords:
        return node.args[0], node.args[1]
    return None


def _key_transposed(node: nodes.NodeNG) -> nodes.NodeNG | None:
    """k of `k.transpose(-2, -1)` (either order of the dims) or `k.mT`."""
    if isinstance(node, nodes.Attribute) and node.attrname == "mT":
        return node.expr
    if call_name(node) == "transpose" and isinstance(node, nodes.Call) and isinstance(node.func, nodes.Attribute):
        if sorted(a.as_string() for a in node.args) == ["-1", "-2"] and not node.keywords:
            return node.func.expr
    return None


def attention(node: nodes.NodeNG) -> Replaceable | None:
    """`softmax(q @ k.transpose(-2, -1) * scale [+ mask], dim=-1) @ v`, each step possibly a name."""
    product = _matmul(node)
    if product is None or not pure(product[1]):
        return None
    lines = Lines(node)
    probabilities = lines.value(product[0])
    if call_name(probabilities) != "softmax" or not isinstance(probabilities, nodes.Call):
        return None
    assert isinstance(probabilities.func, nodes.Attribute)
    method = probabilities.func.expr.as_string().rpartition(".")[2] not in ("torch", "F", "functional")
    scores = probabilities.func.expr if method else (probabilities.args[0] if probabilities.args else None)
    dim = keyword(probabilities, "dim", 0 if method else 1)
    extra = [k.arg for k in probabilities.keywords or () if k.arg != "dim"] + probabilities.args[1 if method else 2:]
    if scores is None or dim is None or dim.as_string() != "-1" or extra:
        return None
    scores, mask = lines.value(scores), None
    if isinstance(scores, nodes.BinOp) and scores.op == "+":
        scores, mask = lines.value(scores.left), scores.right
    scale = None
    if isinstance(scores, nodes.BinOp) and scores.op in ("*", "/") and _matmul(lines.value(scores.left)) is not None:
        scale = scores.right.as_string() if scores.op == "*" else f"1 / {scores.right.as_string()}"
        scores = lines.value(scores.left)
    pair = _matmul(scores)
    key = _key_transposed(pair[1]) if pair is not None else None
    if pair is None or key is None or not pure(pair[0]) or not pure(key):
        return None
    q, k, v = pair[0].as_string(), key.as_string(), product[1].as_string()
    arguments = ", ".join([q, k, v] + ([f"attn_mask={mask.as_string()}"] if mask is not None else [])
                          + ([f"scale={scale}"] if scale is not None else []))
    glue = (f"as `scaled_dot_product_attention({arguments})`; no dropout here (dropout_p stays 0)"
            + ("; an additive float mask is `attn_mask` as is (a boolean mask would mean the opposite: keep, not drop)"
               if mask is not None else "")
            + ("; pass `scale=`: the default is 1/sqrt(head_dim)" if scale is not None else
               "; the scores here are unscaled: pass scale=1.0, the default is 1/sqrt(head_dim)")
            + "; fused kernels round differently from the two matmuls (not bit-identical)")
    weights = product[0]
    kept = sorted({n.lineno for n in node.scope().nodes_of_class(nodes.Name) if isinstance(weights, nodes.Name)
                   and n.name == weights.name and n is not weights and n.lineno > node.lineno})
    if kept:
        glue += (f"; the weights `{weights.as_string()}` are also used after it (line {', '.join(map(str, kept))}), "
                 "which SDPA does not return")
    # Medium: the fused kernels' numerics differ, and a model's attention is often kept as written to match a reference.
    return Replaceable("attention", node.as_string(), "torch.nn.functional.scaled_dot_product_attention", "torch 2.1",
                       "the softmax over the last dim of query times transposed key, times value, is scaled dot-product "
                       "attention", glue=glue, confidence="medium", goes=lines.goes(), places=lines.span())
