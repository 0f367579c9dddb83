"""References a module builds from strings, for the link scan (`scan.link_scan`).

- `getattr(mod, "Name")` / `setattr(...)`: a chain read by name, or a substitution of
  another module's name (also over every module of `sys.modules`); `getattr(self, "hook")`
  and `hasattr(obj, "hook")` on a receiver of known class: an attribute use there;
- `import_module(".x", package=__name__)`: a relative dynamic import made absolute, and
  `import_module(f"{PKG}.{name}")`: a qualname pattern;
- f-strings shaped like qualnames (`f"{_PROC}.{name}"` -> `pkg.proc.*`);
- `walk(Base)` where `def walk(cls): ... cls.__subclasses__()`: Base's subclasses enumerated.

A mixin of `LinkScanner`: it records into the scanner's `chains`, `flows`, `subst`,
`dyn` and `patterns`, and resolves with its `chain_of`, `receiver_class`, `constants`.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Callable

from pylint_omni.index.scan.ast_helpers import fstring_parts, literal_str, walk_nodes
from pylint_omni.index.scan.bindings import absolute_module
from pylint_omni.index.scan.key_sources import fstring_shape

CLS_SLOT = re.compile(r"^\w*(?:_cls|_class|_cls_name|_class_name|_klass)$")
QUALNAME_SHAPE = re.compile(r"^[A-Za-z_][\w]*(?:\.[\w]+)*\.[\w*.:]*\*[\w*.:]*$")


class DynamicReferences:
    """getattr/setattr by name, dynamic imports and qualname f-strings (see the module docstring)."""

    module: str
    package: str
    constants: dict[str, str]
    chains: dict[str, list[str]]
    attrs: dict[str, list[str]]
    flows: list[list[Any]]
    subst: list[list[Any]]
    dyn: list[list[Any]]
    patterns: list[list[Any]]

    # the scanner's own resolvers (annotations only: `LinkScanner` defines them)
    enumerators: dict[str, set[int]]  # `subclass_enumerators` of the module

    chain_of: Callable[[ast.AST], str | None]
    class_chain: Callable[[ast.AST], str | None]
    receiver_class: Callable[[ast.AST], str | None]
    _add: Callable[[dict[str, list[str]], str, int, str], None]
    generic_visit: Callable[[ast.AST], None]

    def _getattr_call(self, tail: str, node: ast.Call) -> None:
        name = literal_str(node.args[1])
        if name is None:
            return
        if CLS_SLOT.match(name) and tail == "getattr":
            self.flows.append([name, "", node.lineno, "read"])
        base = self.chain_of(node.args[0])
        if base:
            self._add(self.chains, f"{base}.{name}", node.lineno, "getattr")
        elif tail in ("getattr", "hasattr") and (owner := self.receiver_class(node.args[0])) and owner != "sys.modules:*":
            # `getattr(self, "create_masks_for_generate", default)`: a hook the class looks up on its own instances
            self._add(self.attrs, f"{owner}|{name}", node.lineno, "getattr")
        elif tail == "setattr" and len(node.args) == 3 and self.receiver_class(node.args[0]) == "sys.modules:*":
            replacement = self.chain_of(node.args[2])
            if replacement:
                self.subst.append([f"*.{name}", replacement, node.lineno])
        if tail == "setattr" and base and len(node.args) == 3:
            replacement = self.chain_of(node.args[2])
            if replacement:
                self.subst.append([f"{base}.{name}", replacement, node.lineno])

    def _import_module(self, node: ast.Call) -> None:
        name = literal_str(node.args[0])
        package_node = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "package"), None)
        if name and name.startswith("."):
            package = literal_str(package_node)
            if package is None and isinstance(package_node, ast.Name) and package_node.id in ("__name__", "__package__"):
                package = self.module if package_node.id == "__name__" and self.module == self.package else self.package
            if package:
                level = len(name) - len(name.lstrip("."))
                self.dyn.append([absolute_module(name.lstrip(".") or None, level, package), node.lineno, "import_module"])
        elif name is None:
            shape = fstring_shape(node.args[0])
            if shape and QUALNAME_SHAPE.match(shape):
                self.patterns.append([shape, node.lineno])

    def _enumerating_call(self, function: str, node: ast.Call) -> None:
        """A call of a function that enumerates its argument's subclasses: the class passed there is enumerated."""
        for position in self.enumerators[function]:
            enumerated = self.class_chain(node.args[position]) if position < len(node.args) else None
            if enumerated:
                self._add(self.chains, f"{enumerated}.__subclasses__", node.lineno, "call")

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        shape = "".join("*" if part is None else part for part in fstring_parts(node, self.constants))
        if "*" in shape and QUALNAME_SHAPE.match(shape):
            self.patterns.append([shape, node.lineno])
        self.generic_visit(node)


def subclass_enumerators(tree: ast.Module) -> dict[str, set[int]]:
    """Functions of the module (nested ones too) that call `__subclasses__()` on a parameter: name -> the
    positions of those parameters. A call passing a class there enumerates that class's subclasses."""
    found: dict[str, set[int]] = {}
    for function in walk_nodes(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
        for node in walk_nodes(function):
            if (isinstance(node, ast.Attribute) and node.attr == "__subclasses__" and isinstance(node.value, ast.Name)
                    and node.value.id in params):
                found.setdefault(function.name, set()).add(params.index(node.value.id))
    return found
