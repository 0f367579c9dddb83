"""Functions a command line is built from, and their parameters the body never reads.

Dataclass- and signature-driven command-line builders turn each parameter of a function
into a flag: `jsonargparse.CLI(main)` or `CLI({"generate": generate_fn, ...})`, `auto_cli`,
`fire.Fire(main)`, `tyro.cli(main)`, `typer.run(main)`, and `@click.command()` /
`@app.command()` functions. A parameter the function's body never reads is a flag that
is accepted, documented in `--help`, and does nothing (LitGPT's `generate_tp --top_p`,
never passed on to the sampler). For `unread-config-option`:
- `cli_functions` (a fact of the module that builds the command line): `[chain, line]`, the
  functions handed to a builder there, written through the module's imports
  (`litgpt.generate.tp.main`);
- `unread_parameters`: the parameters a function's body never loads (`self`/`cls`,
  `*args`/`**kwargs` and `_`-prefixed ones aside), and the line where it reads `locals()`
  or `vars()` (it may hand every parameter on by name). Asked of the few functions a
  builder receives, from their file's text, not scanned for every function of the project.
"""

from __future__ import annotations

import ast
from typing import Any

from pylint_omni.index.scan.ast_helpers import dotted, parse_source, walk_nodes
from pylint_omni.index.scan.bindings import resolve_written

BUILDERS = frozenset({"CLI", "auto_cli", "Fire", "cli", "run"})  # `typer.run`, `tyro.cli`: checked with their module
BUILDER_MODULES = frozenset({"jsonargparse", "fire", "tyro", "typer"})
COMMAND_DECORATORS = frozenset({"command"})  # `@click.command()`, `@app.command()` (typer, click groups)
COMMAND_MODULES = frozenset({"click", "typer"})


def _chain(node: ast.AST, imports: dict[str, str], module: str, defined: set[str]) -> str | None:
    """A handed function's dotted path, when the module imports or defines it."""
    written = dotted(node)
    if not written or written.partition(".")[0] not in imports.keys() | defined:
        return None
    return resolve_written(imports, module, defined, written)


def _handed(value: ast.AST, local_tables: dict[str, ast.AST]) -> list[ast.AST]:
    """The functions a builder call receives: the function, or the values of a dict / items of a list of them."""
    if isinstance(value, ast.Name) and value.id in local_tables:
        value = local_tables[value.id]
    if isinstance(value, ast.Dict):
        return [v for v in value.values if v is not None]
    if isinstance(value, (ast.List, ast.Tuple)):
        return list(value.elts)
    return [value]


def _builder(call: ast.Call, imports: dict[str, str]) -> bool:
    """`CLI(...)` imported from jsonargparse, `fire.Fire(...)`, `tyro.cli(...)`, `typer.run(...)`."""
    head, _, tail = (dotted(call.func) or "").rpartition(".")
    if tail not in BUILDERS:
        return False
    origin = imports.get(head.partition(".")[0], head) if head else imports.get(tail, "")
    return origin.partition(".")[0] in BUILDER_MODULES


def unread_parameters(text: str, name: str) -> tuple[list[tuple[str, int]], int | None]:
    """(parameter, line) of each parameter the module-level function `name` of this source never loads, and the
    line where it reads `locals()`/`vars()` (None if it does not)."""
    function = next((s for s in parse_source(text).body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and s.name == name), None)
    if function is None:
        return [], None
    args = function.args
    params = [a for a in [*args.posonlyargs, *args.args, *args.kwonlyargs] if a.arg not in ("self", "cls") and not a.arg.startswith("_")]
    loaded = {n.id for n in walk_nodes(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    reflective = next((n.lineno for n in walk_nodes(function) if isinstance(n, ast.Call)
                       and dotted(n.func) in ("locals", "vars") and not n.args), None)
    return [(a.arg, a.lineno) for a in params if a.arg not in loaded], reflective


def scan_cli_functions(tree: ast.Module, module: str, imports: dict[str, str], source: str) -> list[list[Any]]:
    """`cli_functions` of one module (see the module docstring); empty unless it imports a builder."""
    if not any(name in source for name in (*BUILDER_MODULES, *COMMAND_MODULES)):
        return []
    defined = {s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    handed: list[list[Any]] = []
    tables: dict[str, ast.AST] = {}
    for node in walk_nodes(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, (ast.Dict, ast.List, ast.Tuple)):
            tables[node.targets[0].id] = node.value
        elif isinstance(node, ast.Call) and node.args and _builder(node, imports):
            for value in _handed(node.args[0], tables):
                chain = _chain(value, imports, module, defined)
                if chain:
                    handed.append([chain, node.lineno])
    if any(name in source for name in COMMAND_MODULES):
        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    (dotted(d.func if isinstance(d, ast.Call) else d) or "").rpartition(".")[2] in COMMAND_DECORATORS
                    for d in stmt.decorator_list):
                handed.append([f"{module}.{stmt.name}", stmt.lineno])
    return handed
