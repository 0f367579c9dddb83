"""What one difference between two copies is, and how it reads: the kinds of `drift.Difference`.

Each smallest differing pair of sub-expressions has one kind, and the kinds fall in
two classes that decide which fix a message may propose:
- **parameters**: one shared function takes the difference as an argument and runs the
  same code for each copy: message text (`cosmetic`), a project name, attribute or
  callee (`call`: `output.token_ids` vs `output.new_token_ids`, `Qwen2Model` vs
  `LlamaModel`), a literal that names something (`constant`: a weight prefix, a key), a
  number passed along (`number`), a hardware vendor's API (`vendor`, judged apart:
  parallel backends behind a device-agnostic call);
- **behaviour**: the copies compute something else: an operator, a math function or
  activation (`math`), a layer class (`layer`), a number or an expression in arithmetic
  (`numeric`: `x * 2` vs `x * 3`, `n - 1` vs `n`), a flag or mode (`mode`: `True`/`False`/`None`, a
  one-word string passed as a keyword: `padding="same"` vs `padding="causal"`),
  another function, type or constant of an outside package (`operation`:
  `flash_attn_func` vs `flash_attn_varlen_func`, `torch.float16` vs `torch.bfloat16`),
  another signature (`signature`: parameters, bases, decorators, or the arguments a
  call passes), another local in the same place (`local`: the data flows otherwise), a
  statement only one copy has (`statement`).
A copy whose drift has a behaviour kind is never "share one, the differences as
parameters": its message names what differs and proposes at most extracting the part
the copies share.
"""

from __future__ import annotations

import ast
import re

MATH_PREFIXES = ("torch.nn.functional.", "torch.special.", "math.", "numpy.", "torch.fft.", "torch.linalg.")
MATH_NAMES = frozenset({
    "silu", "gelu", "relu", "tanh", "sigmoid", "softmax", "log_softmax", "softplus", "exp", "log", "sqrt", "rsqrt",
    "pow", "mean", "sum", "max", "min", "amax", "amin", "norm", "abs", "clamp", "erf", "sin", "cos", "matmul", "bmm",
    "einsum", "baddbmm", "mul", "add", "sub", "div", "square", "cumsum", "prod", "var", "std", "floor", "ceil", "round",
    "quick_gelu", "gelu_tanh", "swiglu", "layer_norm", "rms_norm", "group_norm", "dropout",
})
LAYER = re.compile(r"(Linear|Norm|Conv\w*|Embedding|Attention|MLP|GELU|SiLU|ReLU|Tanh|Sigmoid|Dropout|Pool\w*|Activation\w*)$")
MODE_WORD = re.compile(r"^[a-z][a-z0-9_]{0,23}$")  # a one-word keyword value selects a mode: "same", "causal", "bilinear"
# Keywords whose value names something rather than selecting a behaviour (`register(name="qwen2")`): a plain parameter.
NAMING_KEYWORDS = frozenset({"name", "prefix", "key", "tag", "label", "title", "alias", "model_type", "help", "desc",
                             "description", "id", "group", "scope", "namespace"})
OPERATORS = (ast.operator, ast.cmpop, ast.unaryop, ast.boolop)
ARITHMETIC = (ast.BinOp, ast.UnaryOp, ast.AugAssign)
SYMBOLS = {
    "Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "FloorDiv": "//", "Mod": "%", "Pow": "**", "MatMult": "@",
    "LShift": "<<", "RShift": ">>", "BitOr": "|", "BitAnd": "&", "BitXor": "^", "Eq": "==", "NotEq": "!=",
    "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=", "Is": "is", "IsNot": "is not", "In": "in", "NotIn": "not in",
    "And": "and", "Or": "or", "Not": "not", "USub": "-", "UAdd": "+", "Invert": "~",
}
SHOWN_CHARS = 48  # characters of a differing expression shown
PARAMETER_KINDS = frozenset({"cosmetic", "call", "constant", "number", "vendor"})
# The kinds that change behaviour, the most telling first (a message names the first one a copy has).
BEHAVIOUR_ORDER = ("math", "layer", "numeric", "operation", "mode", "signature", "local", "statement")
BEHAVIOUR_KINDS = frozenset(BEHAVIOUR_ORDER)
WHAT_DIFFERS = {  # a behaviour kind in words, for a message ("they differ in ...")
    "math": "an operator or math call", "layer": "a layer class", "numeric": "arithmetic",
    "mode": "a flag or mode", "operation": "an outside function", "signature": "a signature",
    "local": "which variable flows where", "statement": "a statement only one has",
}


class Listed(ast.AST):
    """A list field of a node (decorators, keywords, parameters) shown as one difference."""

    _fields = ()

    def __init__(self, field: str, items: list[ast.AST], lineno: int) -> None:
        super().__init__()
        self.field, self.items, self.lineno = field, items, lineno


def focused(a: str, b: str) -> tuple[str, str]:
    """Both texts from a little before where they first differ, each cut to fit a message."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    start = max(0, start - 12)
    cut = []
    for text in (a, b):
        part = ("…" if start else "") + text[start:]
        cut.append(part if len(part) <= SHOWN_CHARS else part[: SHOWN_CHARS - 1] + "…")
    return cut[0], cut[1]


def shown(node: ast.AST | None, limit: int | None = SHOWN_CHARS) -> str:
    if node is None:
        return ""
    if isinstance(node, OPERATORS):
        return SYMBOLS.get(type(node).__name__, type(node).__name__)
    if isinstance(node, Listed):
        return ", ".join(shown(item) for item in node.items)  # empty: the other copy has what this one lacks
    try:
        text = ast.unparse(node).splitlines()[0] if not isinstance(node, ast.stmt) else ast.unparse(header_only(node)).splitlines()[0]
    except (ValueError, TypeError, AttributeError, IndexError, RecursionError):
        return type(node).__name__
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def header_only(stmt: ast.stmt) -> ast.stmt:
    """A compound statement without its body, to show its header alone."""
    bodies = ("body", "orelse", "finalbody", "handlers")
    if not any(getattr(stmt, name, None) for name in bodies):
        return stmt
    copy = ast.copy_location(type(stmt)(**{f: getattr(stmt, f, None) for f in stmt._fields}), stmt)
    for name in bodies:
        if hasattr(copy, name):
            setattr(copy, name, [ast.Pass()] if name == "body" else [])
    return copy


def is_math_name(dotted: str | None) -> bool:
    return bool(dotted) and (dotted.startswith(MATH_PREFIXES) or dotted.rpartition(".")[2] in MATH_NAMES)  # type: ignore[union-attr]


def is_layer_name(dotted: str | None) -> bool:
    return bool(dotted) and LAYER.search(dotted.rpartition(".")[2]) is not None  # type: ignore[union-attr]


def number_of(node: ast.AST) -> complex | None:
    """The value of a numeric literal (`-1` included), None for anything else."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = number_of(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex)) and not isinstance(node.value, bool):
        return node.value
    return None


def literal_kind(a: ast.AST, b: ast.AST, keyword: bool, arithmetic: bool) -> str | None:
    """The kind of two differing literals: a flag or mode, a number (in arithmetic or not), another constant;
    None when either is not a literal. `keyword`: both are values of one keyword argument; `arithmetic`: both are
    operands of an arithmetic expression."""
    values = []
    for node in (a, b):
        number = number_of(node)
        if number is not None:
            values.append(number)
        elif isinstance(node, ast.Constant):
            values.append(node.value)
        else:
            return None
    if any(v is None or isinstance(v, bool) for v in values):
        return "mode"
    if all(isinstance(v, (int, float, complex)) for v in values):
        return "numeric" if arithmetic else "number"
    if keyword and all(isinstance(v, str) and MODE_WORD.match(v) for v in values):
        return "mode"
    return "constant"


def structural_kind(a: ast.AST, b: ast.AST) -> str | None:
    """A list of parameters, bases, decorators or arguments that differs, or one call passing other arguments."""
    if isinstance(a, Listed) or isinstance(b, Listed):
        return "signature"
    if isinstance(a, ast.Call) and isinstance(b, ast.Call):
        return "signature"
    return None
