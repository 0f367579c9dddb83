"""What differs between two copies, named: a constant, an operator, a call, a vendor API, a statement.

The copies' statements are aligned by their header hashes (the same normalised
tokens the fingerprints hash); statements that differ are compared node by node,
and each smallest differing pair of sub-expressions becomes a `Difference` of one
kind (`kinds`: message text, a vendor's API, a project name, a literal, a number,
or one of the kinds that change behaviour: math, a layer, a number in arithmetic, a
flag or mode, an outside function, a signature, a local's data flow, a statement
only one copy has; a log line added or removed is message text).
Both files are read through the index (`ProjectIndex.source`), parsed with `ast`
and tokenized exactly as the fingerprint scanner did, so statement numbers match.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Callable

from pylint_omni.copies.fingerprints import HASH_BYTES
from pylint_omni.copies.kinds import (
    ARITHMETIC, BEHAVIOUR_KINDS, BEHAVIOUR_ORDER, NAMING_KEYWORDS, OPERATORS, Listed, focused, is_layer_name, is_math_name, literal_kind, shown,
    structural_kind,
)
from pylint_omni.copies.members import Member
from pylint_omni.copies.normalize import (
    BODY_FIELDS, FUNCTIONS, IMPORTED, VENDOR, TokenStream, global_name, is_message, same_target, shape_digest, tokenize_module,
)
from pylint_omni.index.derived import Table
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.ast_helpers import parse_source

PARSED: Table[str, TokenStream | None] = Table("copies.parsed")  # the files parsed to compare copies, per state


@dataclass(frozen=True)
class Difference:
    """One smallest difference between the kept copy and another."""

    kind: str  # see `kinds`: a parameter kind (cosmetic, vendor, call, constant, number) or a behaviour kind
    kept: str  # the kept copy's text ("" when the statement is only in the other)
    other: str
    kept_line: int
    other_line: int

    def describe(self) -> str:
        if not self.kept:
            return f"`{self.other}` (line {self.other_line}) only in this copy"
        if not self.other:
            return f"`{self.kept}` (line {self.kept_line}) missing here"
        return f"`{self.other}` (line {self.other_line}) vs `{self.kept}`"


@dataclass(frozen=True)
class Drift:
    differences: tuple[Difference, ...]

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(d.kind for d in self.differences)

    def substantive(self) -> list[Difference]:
        """Differences beyond message text, changed expressions before added or removed statements."""
        return sorted((d for d in self.differences if d.kind != "cosmetic"), key=lambda d: d.kind == "statement")

    def behaviour(self) -> list[Difference]:
        """Differences that make the copies compute something else (`kinds.BEHAVIOUR_KINDS`): no plain parameter."""
        return sorted((d for d in self.substantive() if d.kind in BEHAVIOUR_KINDS), key=lambda d: BEHAVIOUR_ORDER.index(d.kind))


LOGGERS = frozenset({"logger", "log", "_logger", "LOGGER", "logging"})


@dataclass
class _Side:
    """One copy: its file's statements and how to read its names."""

    stream: TokenStream
    imports: dict[str, str]
    member: Member
    locals_of: dict[int, frozenset[str]]  # by statement index
    module: str = ""

    def locals(self, index: int) -> frozenset[str]:
        """Names local at a statement: bound by any function enclosing it (closures included)."""
        found = self.locals_of.get(index)
        if found is None:
            bound: set[str] = set()
            parent = self.stream.statements[index].parent
            while parent >= 0:
                bound.update(self.stream.statements[parent].bound)
                parent = self.stream.statements[parent].parent
            found = self.locals_of[index] = frozenset(bound)
        return found

    def dotted(self, node: ast.AST, local: frozenset[str]) -> str | None:
        """`torch.nn.functional.silu` for `F.silu`; None for a local's attribute or any other expression."""
        if isinstance(node, ast.Name):
            return None if node.id in local else self.imports.get(node.id, node.id)
        if isinstance(node, ast.Attribute):
            head = self.dotted(node.value, local)
            return f"{head}.{node.attr}" if head else None
        return None

    def outside(self, node: ast.AST, local: frozenset[str]) -> str | None:
        """The dotted path of a name imported from another top-level package than this copy's own (an outside
        function, type or constant: `flash_attn.flash_attn_func`, `torch.float16`); None for anything else."""
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or root.id in local or ("." not in root.id and root.id not in self.imports):
            return None  # a module-level name of the copy's own file, a builtin, or a local
        path = self.dotted(node, local)
        own = self.module.partition(".")[0]
        return path if path and own and path.partition(".")[0] != own else None


@dataclass(frozen=True)
class Source:
    """Where a copy's file comes from: its text, its imports, and what names it among parsed files."""

    key: str  # unique among the run's parsed files (an upstream file is prefixed with its package)
    text: str | None
    imports: dict[str, str]
    module: str = ""  # its dotted module: a name it defines is `module.name` to a file importing it


def project_source(index: ProjectIndex, path: str) -> Source:
    return Source(path, index.source(path), index.facts(path).get("imports", {}), index.entries.get(path, {}).get("module", ""))


def parsed(index: ProjectIndex, source: Source) -> TokenStream | None:
    memo = PARSED.values(index)
    if source.key not in memo:
        try:
            memo[source.key] = tokenize_module(parse_source(source.text), source.imports) if source.text is not None else None
        except (SyntaxError, ValueError, RecursionError):
            memo[source.key] = None
    return memo[source.key]


class _Comparer:
    """Node-by-node comparison of two aligned statements."""

    def __init__(self, kept: _Side, other: _Side, canonical: Callable[[str], str]) -> None:
        self.kept, self.other = kept, other
        self.canonical = canonical
        self.arithmetic = False
        self.found: list[Difference] = []
        self._keyword_values: set[int] = set()  # the kept copy's keyword argument values (a one-word string there is a mode)
        self._operands: set[int] = set()  # the kept copy's operands of arithmetic (a number there is a computation)
        self._annotations: set[int] = set()  # the kept copy's field types (`x: torch.Tensor | None`)
        self._bound: dict[str, str] = {}  # a local of the kept copy -> the other copy's local in its place
        self._bound_back: dict[str, str] = {}

    def statements(self, i: int, j: int) -> None:
        a, b = self.kept.stream.statements[i].node, self.other.stream.statements[j].node
        self._local_a, self._local_b = self.kept.locals(i), self.other.locals(j)
        module_level = not self.kept.stream.statements[i].in_function
        if module_level and isinstance(a, FUNCTIONS):
            self._bound, self._bound_back = {}, {}  # a method or function of its own: its locals are its own
        parent = self.kept.stream.statements[i].parent
        self._field_level = parent >= 0 and isinstance(self.kept.stream.statements[parent].node, ast.ClassDef)
        self._message = (is_message(a) and is_message(b)) or (  # a module's imports follow its code; a function's pick what it calls
            module_level and isinstance(a, (ast.Import, ast.ImportFrom)) and isinstance(b, (ast.Import, ast.ImportFrom)))
        # A raise or an assert also decides: only its text is cosmetic (`assert self.rank ...` is not
        # `assert self.rank_in_group ...`); a log line's arguments only tell.
        self._checks = isinstance(a, (ast.Raise, ast.Assert)) and isinstance(b, (ast.Raise, ast.Assert))
        self._lines = (a.lineno, b.lineno)
        pairs: list[tuple[ast.AST, ast.AST]] = []
        if type(a) is not type(b):
            pairs.append((a, b))
        else:
            self._fields(a, b, pairs, header=True)
        for x, y in pairs:
            text_x, text_y = focused(shown(x, None), shown(y, None))
            self.found.append(Difference(self._kind(x, y), text_x, text_y,
                                         getattr(x, "lineno", a.lineno), getattr(y, "lineno", b.lineno)))

    def _fields(self, a: ast.AST, b: ast.AST, pairs: list[tuple[ast.AST, ast.AST]], header: bool = False) -> None:
        if isinstance(a, ARITHMETIC):
            self._operands.update(id(child) for child in ast.iter_child_nodes(a))
        for name in a._fields:
            if name == "annotation" and isinstance(a, ast.AnnAssign) and self._field_level:
                # a class-level annotation declares a field's type: another type is another signature, not arithmetic
                self._annotations.update(id(node) for node in ast.walk(a.annotation) if a.annotation is not None)
            elif name in ("ctx", "type_comment", "kind", "annotation", "returns", "type_params") or (
                header and name in (*BODY_FIELDS, "handlers", "cases")
            ):
                continue
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and name == "name":
                continue
            x, y = getattr(a, name, None), getattr(b, name, None)
            if name == "keywords" and isinstance(x, list) and isinstance(y, list):
                self._keywords(a, b, x, y, pairs)
            elif isinstance(x, list) and isinstance(y, list):
                if len(x) != len(y):
                    line_a, line_b = getattr(a, "lineno", 0), getattr(b, "lineno", 0)
                    pairs.append((Listed(name, x, line_a), Listed(name, y, line_b)) if isinstance(a, ast.stmt) else (a, b))
                    return
                for p, q in zip(x, y):
                    if isinstance(p, ast.AST) and isinstance(q, ast.AST):
                        self._node(p, q, pairs)
                    elif p != q:
                        pairs.append((a, b))
                        return
            elif isinstance(x, ast.AST) and isinstance(y, ast.AST):
                self._node(x, y, pairs)
            elif isinstance(a, ast.arg) and name == "arg":
                self._bind(str(x), str(y))
            elif x != y:
                pairs.append((a, b))
                return

    def _names(self, a: ast.Name, b: ast.Name, pairs: list[tuple[ast.AST, ast.AST]]) -> None:
        """Locals match locals; globals match when they name one object (a re-export counts), shown by their path."""
        local_a, local_b = a.id in self._local_a, b.id in self._local_b
        if local_a and local_b:
            if not self._bind(a.id, b.id):
                pairs.append((a, b))  # one copy uses another variable here: a data flow difference
            return
        if local_a != local_b:
            if a.id != b.id:  # the same name local in one copy (imported inside it) and global in the other is one name
                pairs.append((a, b))
            return
        first, second = global_name(a.id, self.kept.imports), global_name(b.id, self.other.imports)
        if first == second:
            return
        if second == f"{IMPORTED}{self.kept.module}.{first}" or first == f"{IMPORTED}{self.other.module}.{second}":
            return  # one copy defines the name, the other imports it from that copy's module
        if first.startswith(IMPORTED) and second.startswith(IMPORTED) and (
            same_target(first[1:], second[1:]) or self.canonical(first[1:]) == self.canonical(second[1:])
        ):
            return
        shown_a = ast.copy_location(ast.Name(id=first.lstrip(IMPORTED), ctx=ast.Load()), a)
        shown_b = ast.copy_location(ast.Name(id=second.lstrip(IMPORTED), ctx=ast.Load()), b)
        pairs.append((shown_a, shown_b))  # the import paths say which object each copy uses

    def _bind(self, first: str, second: str) -> bool:
        """Record that two locals take each other's place; False when either already stands for another."""
        if self._bound.setdefault(first, second) != second or self._bound_back.setdefault(second, first) != first:
            return False
        return True

    def _parameters(self, a: ast.arguments, b: ast.arguments, pairs: list[tuple[ast.AST, ast.AST]]) -> None:
        """Parameters by name (a renamed one is cosmetic), then their defaults."""
        def names(arguments: ast.arguments) -> list[ast.arg]:
            found = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            return found + [extra for extra in (arguments.vararg, arguments.kwarg) if extra is not None]

        params_a, params_b = names(a), names(b)
        if len(params_a) != len(params_b):
            only_a = [p for p in params_a if p.arg not in {q.arg for q in params_b}]
            only_b = [p for p in params_b if p.arg not in {q.arg for q in params_a}]
            line_a, line_b = self._lines
            pairs.append((Listed("parameters", [ast.Name(p.arg) for p in only_a], line_a),
                          Listed("parameters", [ast.Name(p.arg) for p in only_b], line_b)))
            return
        for name in ("defaults", "kw_defaults"):
            x, y = getattr(a, name), getattr(b, name)
            if len(x) != len(y):
                pairs.append((Listed(name, [d for d in x if d is not None], self._lines[0]),
                              Listed(name, [d for d in y if d is not None], self._lines[1])))
                continue
            for p, q in zip(x, y):
                if p is not None and q is not None:
                    self._node(p, q, pairs)
                elif p is not q:
                    pairs.append((a, b))

    def _keywords(self, a: ast.AST, b: ast.AST, x: list[ast.keyword], y: list[ast.keyword],
                  pairs: list[tuple[ast.AST, ast.AST]]) -> None:
        """Keyword arguments by name: one passed by only one copy is its own difference."""
        by_name = {k.arg: k for k in y}
        names = {k.arg for k in x}
        for keyword in x:
            other = by_name.get(keyword.arg)
            if other is None:
                pairs.append((keyword, Listed("keywords", [], getattr(b, "lineno", 0))))
            else:
                if keyword.arg not in NAMING_KEYWORDS:
                    self._keyword_values.add(id(keyword.value))
                self._node(keyword.value, other.value, pairs)
        for keyword in y:
            if keyword.arg not in names:
                pairs.append((Listed("keywords", [], getattr(a, "lineno", 0)), keyword))

    def _node(self, a: ast.AST, b: ast.AST, pairs: list[tuple[ast.AST, ast.AST]]) -> None:
        if type(a) is not type(b):
            pairs.append((a, b))
        elif isinstance(a, ast.arguments):
            self._parameters(a, b, pairs)
        elif isinstance(a, ast.Name):
            self._names(a, b, pairs)
        elif isinstance(a, ast.Constant):
            if a.value != b.value or type(a.value) is not type(b.value):
                pairs.append((a, b))
        elif not isinstance(a, OPERATORS):
            self._fields(a, b, pairs)

    def _kind(self, a: ast.AST, b: ast.AST) -> str:
        if self._message and (not self._checks or _text(a) or _text(b)):
            return "cosmetic"
        text_a, text_b = shown(a), shown(b)
        if text_a in LOGGERS and text_b in LOGGERS or {text_a, text_b} <= {"staticmethod", ""}:
            return "cosmetic"  # the logger object, or a function and the same staticmethod
        if VENDOR.search(text_a) or VENDOR.search(text_b):
            return "vendor"
        if isinstance(a, OPERATORS) or isinstance(b, OPERATORS):
            return "math"
        if id(a) in self._annotations:
            return "signature"
        literal = literal_kind(a, b, id(a) in self._keyword_values, id(a) in self._operands)
        if literal is not None:
            return literal
        if isinstance(a, (ast.BinOp, ast.UnaryOp)) or isinstance(b, (ast.BinOp, ast.UnaryOp)):
            return "math" if self.arithmetic else "numeric"  # another computation (in model code: model math)
        if isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id in self._local_a and b.id in self._local_b:
            return "local"
        names = [self.kept.dotted(a, self._local_a), self.other.dotted(b, self._local_b)]
        if any(is_math_name(name) for name in names):
            return "math"
        if any(is_layer_name(name) for name in names):
            return "layer"
        structural = structural_kind(a, b)
        if structural is not None:
            return structural
        outside = [self.kept.outside(a, self._local_a), self.other.outside(b, self._local_b)]
        if all(outside) and len({(name or "").rpartition(".")[2] for name in names}) > 1:
            return "operation"  # another function, type or constant of an outside package
        return "call"


def _members_statements(side: _Side) -> list[int]:
    member = side.member
    indices = list(range(member.first, member.last + 1))
    if member.kind in ("function", "method", "class") and member.first > 0:
        indices.insert(0, member.first - 1)  # the def itself: parameters, defaults, decorators, bases
    return indices


def drift(index: ProjectIndex, kept: Member, other: Member, kept_source: Source | None = None,
          canonical: Callable[[str], str] | None = None, arithmetic: bool = False) -> Drift | None:
    """The differences of `other` from `kept`, or None when a file cannot be read again.

    Both copies are project files unless `kept_source` says where the kept one lives
    (an upstream package's file); `canonical` follows re-exports of imported names
    (`vllm.v1.engine.X` is `vllm.v1.outputs.X`); with `arithmetic`, a changed arithmetic
    expression counts as math (model code, or an upstream original: a changed computation).
    """
    sources = kept_source or project_source(index, kept.path), project_source(index, other.path)
    streams = parsed(index, sources[0]), parsed(index, sources[1])
    if streams[0] is None or streams[1] is None:
        return None
    sides = [_Side(stream, source.imports, m, {}, source.module) for stream, source, m in zip(streams, sources, (kept, other))]
    indices = [_members_statements(side) for side in sides]
    if any(i >= len(side.stream.statements) for side, found in zip(sides, indices) for i in found):
        return None  # the file changed since it was indexed
    comparer = _Comparer(*sides, canonical or (lambda dotted: dotted))
    comparer.arithmetic = arithmetic
    if indices[0] and indices[1] and indices[0][0] == kept.first - 1 and indices[1][0] == other.first - 1:
        comparer.statements(indices[0].pop(0), indices[1].pop(0))  # the defs themselves: signature, decorators, bases
    shapes = [[_header_hash(side.stream, i) for i in found] for side, found in zip(sides, indices)]
    for tag, a0, a1, b0, b1 in SequenceMatcher(None, shapes[0], shapes[1], autojunk=False).get_opcodes():
        if tag in ("equal", "replace") and a1 - a0 == b1 - b0:
            for offset in range(a1 - a0):  # equal shapes too: vendor names, and which local goes where
                comparer.statements(indices[0][a0 + offset], indices[1][b0 + offset])
            continue
        for side, found, start, stop, is_kept in ((sides[0], indices[0], a0, a1, True), (sides[1], indices[1], b0, b1, False)):
            for position in range(start, stop):
                node = side.stream.statements[found[position]].node
                if _inside_listed(side, found[position], found[start:position]):
                    continue
                module_import = isinstance(node, (ast.Import, ast.ImportFrom)) and not side.stream.statements[found[position]].in_function
                kind = "cosmetic" if is_message(node) or module_import else "statement"
                text = shown(node)
                comparer.found.append(Difference(kind, text if is_kept else "", "" if is_kept else text,
                                                 node.lineno if is_kept else 0, 0 if is_kept else node.lineno))
    return Drift(tuple(comparer.found))


def _text(node: ast.AST) -> bool:
    """A string or the parts of an f-string: what a message says, not what the code checks."""
    return isinstance(node, (ast.JoinedStr, ast.FormattedValue)) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _inside_listed(side: _Side, index: int, listed: list[int]) -> bool:
    """A statement nested in one already named (a removed `if` names its body too)."""
    parent = side.stream.statements[index].parent
    while parent >= 0:
        if parent in listed:
            return True
        parent = side.stream.statements[parent].parent
    return False


def _header_hash(stream: TokenStream, index: int) -> str:
    """A statement's header hash, as the scanner made it."""
    record = stream.statements[index]
    return shape_digest(stream.shapes[record.start:record.header_end], HASH_BYTES)
