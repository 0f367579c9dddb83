"""Recognise version expressions in `ast`: what is compared (a subject) and against what.

A subject is the running version of something, as a JSON-ready dict:
- `{"imp": "torch"}`: the `__version__` of an imported module (`torch.__version__`,
  `from torch import __version__`), mapped to a distribution when judged;
- `{"dist": "torch"}`: `importlib.metadata.version("torch")`, `get_distribution("torch").version`;
- `{"py": 0}`: `sys.version_info` (or `platform.python_version()`), `{"py": 1}`: its major only;
- `{"ref": "pkg.mod.NAME"}`: a name imported from a project module, resolved when judged.
`"str": true` marks a raw version string compared as text (`torch.__version__ >= "2.1"`):
text order is not version order, so it is only judged against an exact pin.

Wrappers keep the subject: `version.parse(...)`, `Version(...)`, `parse_version`,
`LooseVersion`, `digit_version`, `.base_version`, `.release`. Thresholds are string
literals, the same wrappers around one, or tuples of integers (`(3, 10)`).
Nothing here imports or evaluates analysed code; versions are parsed later, with
`packaging`, by the evaluation.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Callable

from pylint_omni.index.scan.ast_helpers import dotted, literal_str

VERSION_PARSERS = frozenset({"parse", "Version", "parse_version", "LooseVersion", "StrictVersion", "digit_version"})
TEXT_VERSION_ATTRS = frozenset({"base_version", "public"})
METADATA_VERSION_CALLS = frozenset({"importlib.metadata.version", "importlib_metadata.version", "metadata.version"})
VERSION_TEXT = re.compile(r"^v?\d+(\.\d+)*([a-z]+\d*)?(\.post\d+|\.dev\d+)?(\+[\w.]+)?$")
OPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
# Version helpers of upstream libraries, called as `helper(">=", "1.11.0")`.
UPSTREAM_OP_HELPERS = {
    "is_torch_version": "torch",
    "is_transformers_version": "transformers",
    "is_accelerate_version": "accelerate",
    "is_peft_version": "peft",
    "is_diffusers_version": "diffusers",
    "is_torchvision_version": "torchvision",
}

Subject = dict[str, Any]
# name -> subject (a version value), for the scope being read
Lookup = Callable[[str], "Subject | None"]


def subject_of(node: ast.AST, imports: dict[str, str], lookup: Lookup, project_modules: Callable[[str], bool]) -> Subject | None:
    """The version subject `node` reads, or None."""
    if isinstance(node, ast.Call):
        func = dotted(node.func) or ""
        tail = func.rpartition(".")[2]
        resolved = _resolve(func, imports)
        if tail in VERSION_PARSERS and len(node.args) == 1 and not node.keywords:
            inner = subject_of(node.args[0], imports, lookup, project_modules)
            return {**inner, "str": False} if inner else None
        if resolved in METADATA_VERSION_CALLS or (tail == "version" and resolved.startswith(("importlib.metadata", "importlib_metadata"))):
            name = literal_str(node.args[0]) if node.args else None
            return {"dist": name, "str": True} if name else None
        if resolved == "platform.python_version":
            return {"py": 0, "str": True}
        return None
    if isinstance(node, ast.Attribute):
        if node.attr == "__version__":
            base = dotted(node.value)
            if base is None or base.partition(".")[0] not in imports:
                return None  # the version of a local object, not of an imported module
            return {"imp": _resolve(base, imports), "str": True}
        if node.attr in TEXT_VERSION_ATTRS or node.attr == "release":
            inner = subject_of(node.value, imports, lookup, project_modules)
            return {**inner, "str": node.attr != "release"} if inner else None
        if node.attr == "version" and isinstance(node.value, ast.Call):
            func = _resolve(dotted(node.value.func) or "", imports)
            name = literal_str(node.value.args[0]) if node.value.args else None
            if func.rpartition(".")[2] == "get_distribution" and name:
                return {"dist": name, "str": True}
        if node.attr == "major" and _resolve(dotted(node.value) or "", imports) == "sys.version_info":
            return {"py": 1, "str": False}
        if _resolve(dotted(node) or "", imports) == "sys.version_info":
            return {"py": 0, "str": False}
        return None
    if isinstance(node, ast.Subscript):
        base = _resolve(dotted(node.value) or "", imports)
        if base == "sys.version_info":
            index = node.slice
            if isinstance(index, ast.Constant) and index.value == 0:
                return {"py": 1, "str": False}
            if isinstance(index, ast.Slice) and index.lower is None and index.step is None:
                return {"py": 0, "str": False}
        return None
    if isinstance(node, ast.Name):
        found = lookup(node.id)
        if found is not None:
            return found
        target = imports.get(node.id)
        if target is None:
            return None
        if target == "sys.version_info":
            return {"py": 0, "str": False}
        module, _, name = target.rpartition(".")
        if name == "__version__" and module:
            return {"imp": module, "str": True}
        if module and project_modules(module):
            return {"ref": target}
    return None


def _resolve(name: str, imports: dict[str, str]) -> str:
    head, _, rest = name.partition(".")
    if head in imports:
        return imports[head] + ("." + rest if rest else "")
    return name


def threshold_of(node: ast.AST) -> tuple[str, bool] | None:
    """(version text, compared as text) of a threshold literal, or None."""
    text = literal_str(node)
    if text is not None:
        return (text, True) if VERSION_TEXT.match(text.strip()) else None
    if isinstance(node, ast.Call) and len(node.args) == 1 and (dotted(node.func) or "").rpartition(".")[2] in VERSION_PARSERS:
        inner = threshold_of(node.args[0])
        return (inner[0], False) if inner else None
    if isinstance(node, ast.Attribute) and node.attr in ("release", "base_version"):
        inner = threshold_of(node.value)
        return (inner[0], node.attr == "base_version") if inner else None
    if isinstance(node, ast.Tuple) and node.elts and all(isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts):
        return ".".join(str(e.value) for e in node.elts), False  # type: ignore[attr-defined]
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return str(node.value), False
    return None


def comparison(
    left: ast.AST, op: ast.cmpop, right: ast.AST, imports: dict[str, str], lookup: Lookup, project_modules: Callable[[str], bool]
) -> dict[str, Any] | None:
    """`subject OP threshold` (either order) as a condition atom, or None."""
    symbol = OPS.get(type(op))
    if symbol is None:
        return None
    subject = subject_of(left, imports, lookup, project_modules)
    threshold = threshold_of(right)
    if subject is None or threshold is None:
        subject = subject_of(right, imports, lookup, project_modules)
        threshold = threshold_of(left)
        symbol = FLIPPED[symbol]
    if subject is None or threshold is None:
        return None
    as_text = bool(subject.get("str")) and threshold[1]
    return {"t": "cmp", "s": {k: v for k, v in subject.items() if k != "str"}, "op": symbol, "v": threshold[0], "text": as_text}


def op_helper_call(node: ast.Call, imports: dict[str, str]) -> dict[str, Any] | None:
    """`is_torch_version(">=", "2.1")` (upstream helpers) as a comparison atom."""
    tail = (dotted(node.func) or "").rpartition(".")[2]
    module = UPSTREAM_OP_HELPERS.get(tail)
    if module is None or len(node.args) != 2:
        return None
    op, version = literal_str(node.args[0]), literal_str(node.args[1])
    if op not in FLIPPED or version is None or not VERSION_TEXT.match(version):
        return None
    return {"t": "cmp", "s": {"imp": module}, "op": op, "v": version, "text": False, "via": tail}
