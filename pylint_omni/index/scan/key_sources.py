"""Where a value comes from, in the few words the reference graph needs.

Used for the key of a registry read (`REG[key]`) and for the arguments of a call
(so that a key handed in through a parameter can be traced to its call sites):
- `lit:K` a string literal (or a local or module constant bound to one);
- `pattern:SHAPE` an f-string or concatenation (`f"{m}_linear"` -> `*_linear`);
- `classname` a class's name (`type(x).__name__`, `x.__class__.__name__`, `Cls.__name__`);
- `external` outside data (HF `architectures`, `model_index.json` `_class_name`, `model_type`);
- `user:env` / `user:cli` an environment variable or a command-line argument;
- `param:FUNC:POS:NAME` a parameter of the enclosing function (POS counts the
  arguments a caller passes: `self`/`cls` excluded);
- `config:ATTR` a field of some configuration object (`stage_config.pipeline`);
- `attribute` a module `__getattr__` name (the key is a name written in code);
- `var` anything else.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from pylint_omni.index.scan.ast_helpers import dotted, literal_str

EXTERNAL_MARKERS = ("architectures", "_class_name", "model_type", "hf_config", "hf_text_config", "model_index")
ENV_MARKERS = ("environ", "getenv")
CLI_MARKERS = ("argv", "args.", "cli_args", "parsed_args")
MAX_KEY_HOPS = 3  # assignments and str()/lower() wrappers followed back to where a key comes from


@dataclass
class FunctionScope:
    """What a function knows while it is scanned: its parameters and its locals' last values."""

    dotted: str
    params: list[str]
    bound: bool  # the first parameter is self/cls (callers do not pass it)
    receivers: dict[str, str] = field(default_factory=dict)  # local -> class chain of its value
    # local -> the class every binding of it creates ("" once two bindings disagree or one is unknown): the scan
    # does not follow branches, so `m = A()` in one arm and `m = B()` in the other leaves `m` of no known class
    bound_class: dict[str, str] = field(default_factory=dict)
    values: dict[str, ast.AST] = field(default_factory=dict)  # local -> last assigned expression
    imports: dict[str, str] = field(default_factory=dict)  # local -> dotted path its latest import statement binds
    # local -> the other paths earlier import statements of this function bound to it: `if name == "hf": from .hf
    # import HfStrategy as cls` / `elif ...: from .vllm import VllmStrategy as cls` (a lazy factory); one arm runs,
    # which one the caller's value decides, so a use of `cls` uses each of them
    import_alternatives: dict[str, list[str]] = field(default_factory=dict)

    def position(self, name: str) -> int | None:
        if name not in self.params:
            return None
        index = self.params.index(name)
        return index - 1 if self.bound else index


def fstring_shape(node: ast.AST) -> str | None:
    """`f"{a}_attn"` -> `*_attn`; `prefix + kind` -> `prefix*`; None for other expressions."""
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            text = literal_str(part)
            parts.append(text.replace("*", "") if text is not None else "*")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        parts = []
        for side in (node.left, node.right):
            text = literal_str(side)
            parts.append(text if text is not None else "*")
        return "".join(parts)
    return None


def is_classname(node: ast.AST) -> bool:
    """`type(x).__name__`, `x.__class__.__name__`, `Cls.__name__`, `__qualname__` too."""
    return isinstance(node, ast.Attribute) and node.attr in ("__name__", "__qualname__")


def _shallow_text(node: ast.AST) -> str:
    """The dotted names an expression is made of (`cfg.architectures[0]`, `os.getenv(...)`), cheaply:
    the scanners classify every call argument, and `ast.unparse` would dominate the scan."""
    parts = []
    for child in (node, *(getattr(node, f, None) for f in ("value", "func", "slice"))):
        text = dotted(child) if child is not None else None
        if text:
            parts.append(text)
    if isinstance(node, ast.Call):
        parts += [d for a in node.args if (d := dotted(a))]
    return " ".join(parts) + ("." if isinstance(node, ast.Attribute) else "")


def key_source(node: ast.AST | None, scope: FunctionScope | None, constants: dict[str, str], depth: int = 0) -> str:
    """The source of the value `node` evaluates to (see the module docstring)."""
    if node is None:
        return "var"
    text = literal_str(node)
    if text is not None:
        return f"lit:{text}"
    shape = fstring_shape(node)
    if shape is not None:
        return f"pattern:{shape}"
    if is_classname(node):
        return "classname"
    if isinstance(node, ast.IfExp) and depth < MAX_KEY_HOPS:  # `x.__class__.__name__ if x is not None else None`
        arms = [arm for arm in (node.body, node.orelse) if not (isinstance(arm, ast.Constant) and arm.value is None)]
        if len(arms) == 1:
            return key_source(arms[0], scope, constants, depth + 1)
    if isinstance(node, ast.Name):
        if scope is not None and node.id in scope.values and depth < MAX_KEY_HOPS:
            return key_source(scope.values[node.id], scope, constants, depth + 1)
        if scope is not None and node.id in scope.params:
            return f"param:{scope.dotted}:{scope.position(node.id)}:{node.id}"
        if node.id in constants:
            return f"lit:{constants[node.id]}"
        return "var"
    source = _shallow_text(node)
    if any(marker in source for marker in EXTERNAL_MARKERS):
        return "external"
    if any(marker in source for marker in ENV_MARKERS):
        return "user:env"
    if any(marker in source for marker in CLI_MARKERS):
        return "user:cli"
    if isinstance(node, ast.Call):
        func = dotted(node.func) or ""
        if func.rpartition(".")[2] in ("str", "lower", "upper", "strip") and depth < MAX_KEY_HOPS:
            inner = node.args[0] if node.args else getattr(node.func, "value", None)
            return key_source(inner, scope, constants, depth + 1)
    if isinstance(node, ast.Attribute):
        return f"config:{node.attr}"
    return "var"


def argument_summary(node: ast.AST, scope: FunctionScope | None, constants: dict[str, str], chain: str | None) -> str:
    """One argument of a call: `s:K` literal, `n` a class name, `c:CHAIN` code, `p:FUNC:POS:NAME` a
    parameter, `x`/`u` outside data or user input, `f:SHAPE` a pattern, `` anything else."""
    if chain:
        return f"c:{chain}"
    source = key_source(node, scope, constants)
    kind, _, rest = source.partition(":")
    return {
        "lit": f"s:{rest}",
        "classname": "n",
        "param": f"p:{rest}",
        "external": "x",
        "user": "u",
        "pattern": f"f:{rest}",
    }.get(kind, "")
