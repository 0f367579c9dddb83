"""Fingerprints of one Python source file: the per-file fact both copy messages are built on.

`fingerprint_module(tree, context)` is the scanner this family hands to the index
(`checker.AUDITED_SCANNERS`): it runs on every Python file the audit reports on
(a test is never a copy's keeper or copy) and on upstream's, and its JSON-ready result is cached with the file's other facts.
It needs only the parsed tree and the module's imports (`ModuleContext`), so any
source file can be fingerprinted; `fingerprint_source(text, module)` does it from
text (tests, tools). Nothing is imported or run.

The fact (`FingerprintFact`):
- `units`: every function, method and class outside a function body, and the module
  itself: kind, qualified name, first and last line, the range of its statements, the
  exact hash of its normalised tokens (`normalize`) without its own name, and its
  weight: the statements that do something (not `pass`, `raise`, imports, a bare
  `return`, a def or class line, a field declaration, a log line, `self.x = x` or
  `self.x = config.x`, a message built from an f-string), so
  stubs and parameter bookkeeping never count as copies;
- `h` / `hh`: for every statement in pre-order, the hash of the whole statement and of
  its header alone, vendor names blanked out (`normalize.shape_digest`) (10 hex digits
  each, concatenated), each renamed on its own so a statement matches wherever it is
  pasted;
- `pos`: per statement `line,end,size,list,weight`, flattened (size: statements in its
  subtree; list: the statement list it belongs to inside a function, -1 outside
  functions; weight: the statements of its subtree that do something).
Statements of a unit are `[first, last]` in that order, so the near tier (similar
units) and the block tier (shared runs of sibling statements) need nothing else.
- `state`: the module-level names units use (a registry dict, a constant, a function or
  class of the module), each with the hash of its assignment or definition: two
  identical functions using their own module's registry are two registries, a
  constant may differ between the copies, and so may the helper they call.
"""

from __future__ import annotations

import ast
from typing import Any, TypedDict

from pylint_omni.copies.normalize import FUNCTIONS, digest, digest_text, is_message, renamed, shape_digest, tokenize_module
from pylint_omni.index.scan.ast_helpers import parse_source
from pylint_omni.index.scanners import ModuleContext

FACT_KEY = "copies.fingerprints"  # where the index stores this fact (`ProjectIndex.extra`)
HASH_BYTES = 5  # bytes of a statement hash
HASH_CHARS = HASH_BYTES * 2
MIN_STORED_STATEMENTS = 3  # smaller units are never copies worth a message; not stored


class FingerprintFact(TypedDict):
    units: list[list[object]]  # [kind, qual, line, end, first, last, exact, weight, module names used]
    h: str
    hh: str
    pos: str
    state: dict[str, list[object]]  # module-level name a unit uses -> [hash of its assignment, mutable]


CONTAINERS = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Counter", "WeakValueDictionary",
                        "WeakKeyDictionary", "Lock", "RLock", "local"})


def _mutable(value: ast.AST | None) -> bool:
    """A module-level value that is state of its own (a registry dict, a lock), not a constant."""
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return name in CONTAINERS
    return False


def _module_names(statements: list[Any], whole: list[str]) -> dict[str, list[object]]:
    """Names bound at module level: an assignment (one target) -> the hash of the assignment and whether it
    holds state (a mutable container, or a name some function rebinds through `global`); a function or class
    -> the hash of its whole definition and "def". Two copies that call their own module's `_kernel` run
    the same code only if both `_kernel`s are the same."""
    rebound = {name for record in statements if isinstance(record.node, ast.Global) for name in record.node.names}
    found: dict[str, list[object]] = {}
    for index, record in enumerate(statements):
        node = record.node
        if record.parent < 0 and isinstance(node, FUNCTIONS + (ast.ClassDef,)):
            found[node.name] = [whole[index], False, "def"]
            continue
        if record.parent >= 0 or not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            found[targets[0].id] = [whole[index], _mutable(node.value) or targets[0].id in rebound]
    return found


TRIVIAL = (ast.Pass, ast.Raise, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.FunctionDef,
           ast.AsyncFunctionDef, ast.ClassDef)


def _plain_value(value: ast.expr) -> bool:
    """A parameter, a constant, or a field read off one (`config.hidden_size`): storing it is plumbing."""
    while isinstance(value, ast.Attribute):
        value = value.value
    return isinstance(value, (ast.Name, ast.Constant))


def _trivial(node: ast.stmt) -> bool:
    """A statement that does nothing worth sharing: a stub body, an import, a def line, a field declaration,
    a log line or a message built from an f-string, `self.x = x` or `self.x = config.x`."""
    if isinstance(node, TRIVIAL) or is_message(node):
        return True
    if isinstance(node, ast.Return):
        return node.value is None or isinstance(node.value, (ast.Constant, ast.JoinedStr))
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant)
    if isinstance(node, (ast.Assign, ast.AugAssign)) and isinstance(node.value, ast.JoinedStr):
        return True  # building a message (`info += f"..."`) is text, like a log line
    if isinstance(node, (ast.Assign, ast.AnnAssign)):  # storing a parameter or a constant on self is bookkeeping
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        stored = len(targets) == 1 and isinstance(targets[0], ast.Attribute) and isinstance(targets[0].value, ast.Name)
        return node.value is None or (stored and _plain_value(node.value))
    return False


def fingerprint_module(tree: ast.Module, context: ModuleContext) -> FingerprintFact:
    """The fingerprint fact of one parsed module (the registered scanner).

    Hashes are composed bottom-up so each token is renamed about twice: a simple
    statement once, a compound statement as its header plus its children's hashes, a
    function over its whole text (its locals renamed consistently), a class as its
    header plus its members' hashes, the module as its statements' hashes.
    """
    stream = tokenize_module(tree, context.imports)
    tokens, statements, shapes = stream.tokens, stream.statements, stream.shapes
    count = len(statements)
    last = list(range(count))
    children: list[list[int]] = [[] for _ in range(count)]
    top: list[int] = []
    for index in range(count - 1, -1, -1):
        parent = statements[index].parent
        if parent >= 0:
            children[parent].append(index)
            if last[index] > last[parent]:
                last[parent] = last[index]
        else:
            top.append(index)
    whole = [""] * count
    headers = [""] * count
    exact: dict[int, str] = {}
    for index in range(count - 1, -1, -1):
        record = statements[index]
        header = tokens[record.start:record.header_end]
        shape = shapes[record.start:record.header_end]
        kids = children[index]
        if not kids and record.header_end == record.end:
            whole[index] = digest(header, HASH_BYTES)
            headers[index] = whole[index] if shape == header else shape_digest(shape, HASH_BYTES)
            continue
        headers[index] = shape_digest(shape, HASH_BYTES)
        parts = [renamed(tokens[record.start:record.header_end])]
        list_id = None
        for kid in reversed(kids):
            if statements[kid].list_id != list_id:
                list_id = statements[kid].list_id
                parts.append("|")
            parts.append(whole[kid])
        if isinstance(record.node, FUNCTIONS) and not record.in_function:
            exact[index] = digest(tokens[record.name_end:record.end])
            parts = [record.node.name, exact[index]]
        elif isinstance(record.node, ast.ClassDef):
            exact[index] = digest_text("\x01".join([renamed(tokens[record.name_end:record.header_end]), *parts[1:]]))
        whole[index] = digest_text("\x01".join(parts), HASH_BYTES)
    weights = [0]
    for record in statements:
        weights.append(weights[-1] + (0 if _trivial(record.node) else 1))
    positions = []
    for index, record in enumerate(statements):
        node = record.node
        positions.append(f"{node.lineno},{node.end_lineno or node.lineno},{last[index] - index + 1},"
                         f"{record.list_id if record.in_function else -1},{weights[last[index] + 1] - weights[index]}")
    units: list[list[object]] = []
    if count >= MIN_STORED_STATEMENTS:
        units.append(["module", context.module, statements[0].node.lineno,
                      max((s.node.end_lineno or 0) for s in statements), 0, count - 1,
                      digest_text("\x01".join(whole[i] for i in reversed(top))), weights[count], []])
    module_names = _module_names(statements, whole)
    state: dict[str, list[object]] = {}
    quals: dict[int, str] = {}
    for index, record in enumerate(statements):
        node = record.node
        if record.in_function or not isinstance(node, FUNCTIONS + (ast.ClassDef,)):
            continue
        parent = record.parent
        qual = f"{quals[parent]}.{node.name}" if parent in quals else node.name
        quals[index] = qual
        if last[index] - index < MIN_STORED_STATEMENTS or index not in exact:
            continue
        if isinstance(node, ast.ClassDef):
            kind = "class"
        else:
            kind = "method" if parent >= 0 and isinstance(statements[parent].node, ast.ClassDef) else "function"
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        used = sorted(module_names.keys() & set(tokens[record.start:record.end])) if module_names else []
        state.update((name, module_names[name]) for name in used)
        units.append([kind, qual, first, node.end_lineno or node.lineno, index + 1, last[index], exact[index],
                      weights[last[index] + 1] - weights[index + 1], used])
    return {"units": units, "h": "".join(whole), "hh": "".join(headers), "pos": ",".join(positions), "state": state}


def fingerprint_source(text: str, module: str, relpath: str = "<source>", is_package: bool = False) -> FingerprintFact:
    """The fingerprint of a source text, imports resolved as the index resolves them."""
    from pylint_omni.index.scan.python_scan import module_imports  # the index's own import resolution

    tree = parse_source(text, filename=relpath)
    context = ModuleContext(module, relpath, is_package, module_imports(tree, module, is_package), text)
    return fingerprint_module(tree, context)
