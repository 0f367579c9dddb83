"""How `link_scan.LinkScanner` names what it sees: the dotted path a name or attribute chain spells, and the class
of a receiver, from the module's imports and definitions and the scopes open at the node.

A local, a parameter or a function-level import shadows the module's names; a class body's
statements see the body's earlier names bare; a module's own definition replaces an import
of the same name from its line on.
"""

from __future__ import annotations

import ast

from pylint_omni.index.scan.ast_helpers import dotted
from pylint_omni.index.scan.key_sources import FunctionScope

NOT_CLASSES = frozenset({"typing", "typing_extensions", "collections", "builtins", "types", "abc"})
# Attributes of the interpreter that hold an object Python itself calls methods of (a stream's write and flush,
# a hook): assigning a project object there hands it to outside code (GPT-NeoX's `sys.stdout = Tee(...)`).
PYTHON_CALLS_BACK = frozenset({"sys.stdout", "sys.stderr", "sys.stdin", "sys.excepthook", "sys.displayhook",
                               "sys.__stdout__", "sys.__stderr__"})


class ChainResolution:
    """The resolution part of `link_scan.LinkScanner` (it provides the attributes used here)."""

    module: str
    imports: dict[str, str]
    bindings: dict[str, list[str]]
    rebound: dict[str, int]
    classes: list[tuple[str, set[str]]]
    bodies: list[frozenset[str] | None]
    functions: list[FunctionScope]
    module_scope: FunctionScope
    attr_types: dict[str, dict[str, str]]

    def chain_of(self, node: ast.AST) -> str | None:
        """The dotted path a Name/Attribute chain spells through imports and module definitions."""
        written = dotted(node)
        if not written:
            return None
        head, _, rest = written.partition(".")
        if self.bodies and self.bodies[-1] is not None and head in self.bodies[-1]:
            return f"{self.classes[-1][0]}.{written}"
        if self.functions:
            scope = self.functions[-1]
            if head in scope.imports:
                return scope.imports[head] + ("." + rest if rest else "")
            if head in scope.values or head in scope.params:
                return None  # a local shadows the module name
        if head in self.rebound and (self.functions or getattr(node, "lineno", 0) > self.rebound[head]):
            return f"{self.module}.{written}"  # the module's own definition replaced the import by then
        if head in self.imports:
            return self.imports[head] + ("." + rest if rest else "")
        if head in self.bindings:
            return f"{self.module}.{written}"
        return None

    def class_chain(self, node: ast.AST | None) -> str | None:
        """The chain of a class-like name (CamelCase, private `_CamelCase` too, not a typing construct), else None."""
        chain = self.chain_of(node) if node is not None else None
        if not chain or chain.partition(".")[0] in NOT_CLASSES or not chain.rpartition(".")[2].lstrip("_")[:1].isupper():
            return None
        return chain

    def receiver_class(self, node: ast.AST) -> str | None:
        """The class chain of an object expression whose class is known here."""
        if isinstance(node, ast.Name):
            for scope in [*reversed(self.functions), self.module_scope]:
                if node.id in scope.receivers:
                    return scope.receivers[node.id]
                if node.id in scope.params or node.id in scope.values:
                    return None
            return None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = self.receiver_class(node.value)  # `self.od_config`: the class the class's statements give it
            return self.attr_types.get(owner, {}).get(node.attr) if owner else None
        return None
