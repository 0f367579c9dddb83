"""Code as a token stream that two copies share: locals renamed, everything with meaning kept.

One pass over a module gives one token list and, for every statement, where its
tokens start, where its header ends and where its subtree ends. Hashes are taken
over slices of that list, so a statement, a function, a class and the module are
all fingerprinted from the same walk.

What a token keeps and drops (the rules both copy tiers rely on):
- local names (parameters, assignment targets, loop/with/except/comprehension names
  of the enclosing functions) become placeholders, numbered by first appearance in
  the hashed slice: `h = self.proj(x)` and `out = self.proj(inp)` are one statement;
- every other name is kept, resolved through the module's imports (`global_name`):
  `F.silu` is `torch.nn.functional.silu`, so `F.silu` vs `F.gelu`, or
  `ColumnParallelLinear` vs `nn.Linear`, never match;
- attributes, keyword names, constants and operators are kept as written;
- docstrings and bare string statements, comments (not in the tree), annotations of
  parameters, returns and local variables are dropped (class-level annotations are
  kept: they declare fields);
- a method's `self` or `cls` that its body never reads, and `@staticmethod`, are
  dropped: such a method is a function in a class, the same code as a module-level
  copy of it (a shared utility and the methods pasted beside it are one group);
- statement headers for the near tier (`shape_digest`) keep only the last part of an
  imported name and blank out hardware vendor names, so copies importing from
  elsewhere or with vendor calls swapped are found, then judged by what differs.
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass, field

from pylint_omni.index.vocabulary import DEFAULT_VOCABULARY
from pylint_omni.index.scan.ast_helpers import walk_nodes

NAME = "\x00"  # prefix of a name token not yet known to be local or global
LOCAL = "\x02"  # prefix of a local name's token; replaced by a placeholder when hashed
IMPORTED = "\x03"  # prefix of an imported name's token: the dotted path it binds
SKIPPED_FIELDS = frozenset({"ctx", "type_comment", "kind", "type_params"})
BODY_FIELDS = ("body", "orelse", "finalbody")
COMPOUND = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor,
    ast.While, ast.With, ast.AsyncWith, ast.Try,
) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ()) + ((ast.Match,) if hasattr(ast, "Match") else ())
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
FIELDS: dict[type, tuple[str, ...]] = {}  # fields of a node type that carry meaning
# A platform's name or API in a token (`torch.cuda` vs `torch.npu`): the vocabulary's default words, since the
# fingerprint scanner runs before any project setting is read (`index.vocabulary`).
VENDOR = DEFAULT_VOCABULARY.platform_token


MESSAGE_CALLS = frozenset({
    "debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log", "print",
    "info_once", "warning_once", "debug_once", "print_once",
})


def is_message(stmt: ast.AST) -> bool:
    """A statement that only tells (a log line, a print, a warning, a raise or an assert)."""
    if isinstance(stmt, (ast.Raise, ast.Assert)):
        return True
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return name in MESSAGE_CALLS
    return False


def is_string_statement(stmt: ast.stmt) -> bool:
    """A docstring or a bare string used as a comment."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


@dataclass
class Statement:
    """Where one statement's tokens lie in the module's token list."""

    node: ast.stmt
    start: int  # first token
    header_end: int  # end of the header (== end for a simple statement)
    end: int  # end of the subtree
    parent: int  # index of the enclosing compound statement, -1 at module level
    list_id: int  # the statement list it belongs to (siblings share it)
    in_function: bool
    name_end: int = -1  # for a def or class: first token after its name
    bound: frozenset[str] = frozenset()  # for a def: the names it binds (its locals)


@dataclass
class TokenStream:
    """Tokens of a module and its statements in pre-order.

    `shapes` holds each token as the near tier sees it (`shape_token`): an imported
    name by its last part, vendor names blanked out.
    """

    tokens: list[str] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    shapes: list[str] = field(default_factory=list)


class Tokenizer:
    """Walks one module once; `imports` maps a local name to the dotted path it binds.

    Whether a name is local is known only when its function ends (a loop may read a
    name before the line that binds it), so names are written as `NAME + name` and
    settled when their function closes: bound there -> local; else left for an
    enclosing function, and at the end resolved through the imports.
    """

    def __init__(self, imports: dict[str, str]) -> None:
        self.imports = imports
        self.stream = TokenStream()
        self.out = self.stream.tokens
        self.frames: list[tuple[set[str], set[str]]] = []  # (bound, declared global/nonlocal) per open function
        self._lists = 0

    # -- expressions ---------------------------------------------------------------------
    def expr(self, node: ast.AST) -> None:
        out = self.out
        kind = type(node)
        if kind is ast.Name:
            out.append(NAME + node.id)
            if self.frames and type(node.ctx) is not ast.Load:
                self.frames[-1][0].add(node.id)
        elif kind is ast.Attribute:
            self.expr(node.value)
            out.append("." + node.attr)
        elif kind is ast.Constant:
            out.append("#" + repr(node.value))
        elif kind is ast.arg:
            out.append(NAME + node.arg)  # annotations of parameters are dropped
            if self.frames:
                self.frames[-1][0].add(node.arg)
        else:
            out.append(kind.__name__)
            self.generic(node)

    def generic(self, node: ast.AST) -> None:
        out = self.out
        fields = FIELDS.get(type(node))
        if fields is None:
            fields = FIELDS[type(node)] = tuple(f for f in node._fields if f not in SKIPPED_FIELDS)
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                out.append("[")
                for item in value:
                    if isinstance(item, ast.AST):
                        self.expr(item)
                    else:
                        out.append(repr(item))
                out.append("]")
            elif value is None:
                out.append("~")
            elif isinstance(value, ast.AST):
                self.expr(value)
            else:
                out.append(repr(value))

    # -- statements ----------------------------------------------------------------------
    def body(self, stmts: list[ast.stmt], parent: int, in_function: bool, in_class: bool = False) -> None:
        list_id = self._lists
        self._lists += 1
        self.out.append("{")
        for stmt in stmts:
            if is_string_statement(stmt):
                continue
            self.statement(stmt, parent, list_id, in_function, in_class)
        self.out.append("}")

    def _bind(self, name: str) -> None:
        if self.frames:
            self.frames[-1][0].add(name)

    def statement(self, node: ast.stmt, parent: int, list_id: int, in_function: bool, in_class: bool) -> None:
        out = self.out
        index = len(self.stream.statements)
        record = Statement(node, len(out), 0, 0, parent, list_id, in_function)
        self.stream.statements.append(record)
        if isinstance(node, FUNCTIONS):
            self._bind(node.name)
            self._function(node, record, index, in_class)
        elif isinstance(node, ast.ClassDef):
            self._bind(node.name)
            out.extend(("class", node.name))
            record.name_end = len(out)
            self._list_of(node.decorator_list)
            self._list_of(node.bases)
            for keyword in node.keywords:
                out.append("k=" + str(keyword.arg))
                self.expr(keyword.value)
            record.header_end = len(out)
            self.body(node.body, index, in_function, in_class=True)
        elif isinstance(node, ast.AnnAssign) and not in_class:
            out.append("Assign")  # a local annotation is cosmetic; a class-level one declares a field
            self.expr(node.target)
            if node.value is not None:
                self.expr(node.value)
            record.header_end = len(out)
        elif isinstance(node, COMPOUND):
            self._compound(node, record, index, in_function)
        else:
            if isinstance(node, (ast.Global, ast.Nonlocal)) and self.frames:
                self.frames[-1][1].update(node.names)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    self._bind((alias.asname or alias.name).split(".")[0])
            out.append(type(node).__name__)
            self.generic(node)
            record.header_end = len(out)
        record.end = len(out)

    def _compound(self, node: ast.stmt, record: Statement, index: int, in_function: bool) -> None:
        out = self.out
        out.append(type(node).__name__)
        for name in node._fields:
            if name in BODY_FIELDS or name in SKIPPED_FIELDS or name in ("handlers", "cases"):
                continue
            value = getattr(node, name, None)
            if isinstance(value, list):
                self._list_of(value)
            elif isinstance(value, ast.AST):
                self.expr(value)
        record.header_end = len(out)
        for name in BODY_FIELDS:
            stmts = getattr(node, name, None)
            if stmts:
                self.body(stmts, index, in_function)
        for handler in getattr(node, "handlers", ()):
            out.append("except")
            if handler.type is not None:
                self.expr(handler.type)
            if handler.name:
                out.append(NAME + handler.name)
                self._bind(handler.name)
            self.body(handler.body, index, in_function)
        for case in getattr(node, "cases", ()):
            out.append("case")
            self.expr(case.pattern)
            if case.guard is not None:
                self.expr(case.guard)
            self.body(case.body, index, in_function)

    def _list_of(self, items: list[ast.AST]) -> None:
        self.out.append("[")
        for item in items:
            self.expr(item)
        self.out.append("]")

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, record: Statement, index: int,
                  in_class: bool) -> None:
        out = self.out
        out.extend(("def" if isinstance(node, ast.FunctionDef) else "async def", node.name))
        record.name_end = len(out)
        decorators = [d for d in node.decorator_list if not (in_class and _is_name(d, "staticmethod"))]
        self._list_of(decorators)  # decorators and defaults belong to the enclosing scope
        arguments = node.args
        self._list_of(arguments.defaults)
        self._list_of([d for d in arguments.kw_defaults if d is not None])
        start = len(out)
        self.frames.append((set(), set()))
        unused = _unused_receiver(node) if in_class and len(decorators) == len(node.decorator_list) else None
        for group in (arguments.posonlyargs, arguments.args, arguments.kwonlyargs):
            out.append("(")
            for arg in group:
                if arg is not unused:
                    self.expr(arg)
            out.append(")")
        for extra, mark in ((arguments.vararg, "*"), (arguments.kwarg, "**")):
            if extra is not None:
                out.append(mark)
                self.expr(extra)
        record.header_end = len(out)
        self.body(node.body, index, True)
        record.bound = self._settle(start)

    def _settle(self, start: int) -> frozenset[str]:
        """Close a function: its bound names become locals in its tokens."""
        bound, declared = self.frames.pop()
        bound -= declared
        if not bound:
            return frozenset()
        out = self.out
        for position in range(start, len(out)):
            token = out[position]
            if token[0] == NAME and token[1:] in bound:
                out[position] = LOCAL + token[1:]
        return frozenset(bound)

    def finish(self) -> TokenStream:
        """Names no function binds are global: resolved through the imports (`global_name`)."""
        imports = self.imports
        out = self.out
        for position, token in enumerate(out):
            if token[0] == NAME:
                out[position] = global_name(token[1:], imports)
        memo = _SHAPES if len(_SHAPES) < MAX_SHAPES else {}
        self.stream.shapes = [memo.get(t) or memo.setdefault(t, shape_token(t)) for t in out]
        return self.stream


def _is_name(node: ast.AST, name: str) -> bool:
    return (isinstance(node, ast.Name) and node.id == name) or (isinstance(node, ast.Attribute) and node.attr == name)


def _unused_receiver(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.arg | None:
    """A method's `self`/`cls` that its body never reads (a zero-argument `super()` reads it)."""
    positional = [*node.args.posonlyargs, *node.args.args]
    if not positional:
        return None
    receiver = positional[0].arg
    for statement in node.body:
        for child in walk_nodes(statement):
            if isinstance(child, ast.Name) and child.id in (receiver, "super"):
                return None
    return positional[0]


def global_name(name: str, imports: dict[str, str]) -> str:
    """The token of a global name: `IMPORTED` + the dotted path an import binds it to, else the name.

    `F` of `import torch.nn.functional as F` is `torch.nn.functional`, so `F.silu` and
    `torch.nn.functional.silu` agree; a name defined in the module itself stays bare.
    The exact tier keeps the whole path (`kernels.cuda.rms_norm` is not
    `kernels.dlinfer.rms_norm`: a backend's own kernel); statement shapes keep only
    its last part (`shape_digest`), so a copy importing the same names from elsewhere
    (a re-export, another package's copy) is still a near copy, and the drift decides.
    """
    target = imports.get(name)
    return IMPORTED + target if target else name


def same_target(first: str, second: str) -> bool:
    """Two import paths of one object: equal, or one module re-exporting the other's (`pkg.x` and `pkg.sub.x`)."""
    if first == second:
        return True
    head_a, _, last_a = first.rpartition(".")
    head_b, _, last_b = second.rpartition(".")
    if last_a != last_b or not head_a or not head_b:
        return False
    return head_b.startswith(head_a + ".") or head_a.startswith(head_b + ".")


def tokenize_module(tree: ast.Module, imports: dict[str, str]) -> TokenStream:
    tokenizer = Tokenizer(imports)
    tokenizer.body(tree.body, -1, False)
    return tokenizer.finish()


PLACEHOLDERS = [f"${n}" for n in range(1024)]


def renamed(tokens: list[str]) -> str:
    """The tokens joined, local names replaced by their number of first appearance."""
    names: dict[str, str] = {}
    return "\x01".join([names.get(t) or names.setdefault(t, _placeholder(len(names))) if t[0] == LOCAL else t for t in tokens])


def _placeholder(number: int) -> str:
    return PLACEHOLDERS[number] if number < len(PLACEHOLDERS) else f"${number}"


def digest_text(text: str, size: int = 8) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=size).hexdigest()


def digest(tokens: list[str], size: int = 8) -> str:
    """Hex digest of a token slice after renaming (`size` bytes)."""
    return digest_text(renamed(tokens), size)


def shape_token(token: str) -> str:
    """A token as statement shapes see it: an imported name by its last part, vendor names blanked out.

    `torch.cuda.set_device(dev)` and `torch.npu.set_device(dev)` have one shape, and so
    have `kernels.cuda.rms_norm` and `kernels.npu.rms_norm`: a backend copied with its
    vendor calls swapped is still a near copy, judged by what it differs in (`drift`).
    """
    if token[0] == IMPORTED:
        token = token.rpartition(".")[2] or token[1:]
    return VENDOR.sub("VENDOR", token) if token[0] != LOCAL else token


_SHAPES: dict[str, str] = {}  # token -> its shape, shared by every file a process scans
MAX_SHAPES = 500_000  # statement shapes memoised per process


def shape_digest(shapes: list[str], size: int) -> str:
    """Digest of a slice of `TokenStream.shapes` (the near tier's statement headers)."""
    return digest_text(renamed(shapes), size)
