"""A method of a class an outside decorator takes: that framework may call it by name.

MLC LLM's compiler passes (round 16) are classes decorated with `@tvm.transform.module_pass(...)`:
TVM wraps the class and calls its `transform_module` method itself, so nothing in the
project calls it and it looked dead. A class handed to a decorator of a package outside the
project (not the standard library's `dataclass`, `total_ordering`, ...) is handed to code
that may call its methods by name; a dead method of it is medium, naming the decorator. Not
when the project calls methods of the class itself (a `@ray.remote` actor driven through
`worker.method.remote(...)`): then the decorator wraps an object the project drives.
"""

from __future__ import annotations

from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import SurfaceAnalysis
from pylint_omni.surfaces.lines import file_lines
from pylint_omni.surfaces.reach import PRODUCTION
from pylint_omni.surfaces.table import Surface

# Decorators of the standard library that take a class and call none of its public methods.
STDLIB_CLASS_DECORATORS = frozenset({"dataclasses", "functools", "typing", "typing_extensions", "enum", "abc",
                                     "contextlib", "builtins"})
CALL_VIAS = frozenset({"attr", "call", "getattr"})  # a method named on an object: the project calls it
MAX_DECORATOR_LINES = 12  # lines above a class looked at for its decorators


def _called_here(index: ProjectIndex, analysis: SurfaceAnalysis, owner: Surface) -> bool:
    """Whether the project itself calls methods of the class (a `@ray.remote` actor's `worker.generate.remote(...)`,
    or any method production reaches): the decorator wraps an object the project drives, not one it hands over."""
    methods = [analysis.table.surfaces[m] for m in analysis.table.methods(owner.dotted)]
    if any(analysis.reach.phase.get(m.dotted) == PRODUCTION for m in methods if not m.name.startswith("__")):
        return True
    return any(hit.via in CALL_VIAS and not (hit.path == owner.path and owner.line <= hit.line <= owner.end)
               for m in methods if not m.name.startswith("__") for hit in index.hits(m.name))


def _outside_decorator(index: ProjectIndex, owner: Surface) -> tuple[str, str] | None:
    """(decorator as written, its package) of the first decorator above the class from a package outside the project
    and the standard library's class decorators, or None."""
    lines = file_lines(index, owner.path)
    imports = index.facts(owner.path).get("imports", {})
    number = owner.line - 1  # the `class` line may follow its decorators; look above it
    while number > 0 and owner.line - number <= MAX_DECORATOR_LINES:
        text = lines[number - 1].strip()
        number -= 1
        if not text.startswith("@"):
            if text and not text.startswith("#") and not text.endswith((",", "(")) and not text.startswith(")"):
                return None  # above the decorators
            continue
        head = text[1:].split("(")[0].strip()
        dotted = imports.get(head.partition(".")[0], "") if isinstance(imports, dict) else ""
        package = dotted.partition(".")[0]
        if dotted and package not in STDLIB_CLASS_DECORATORS and not any(
                index.module_file(".".join(dotted.split(".")[:n])) for n in range(1, dotted.count(".") + 2)):
            return head, package
    return None


def outside_decorator(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> str | None:
    """The doubt of a method whose class an outside decorator takes (see the module docstring)."""
    owner = analysis.table.surfaces.get(root.container) if root.kind == "method" and root.container else None
    if owner is None or owner.kind != "class":
        return None
    found = _outside_decorator(index, owner)
    if found is None or _called_here(index, analysis, owner):
        return None
    head, package = found
    return f"its class is decorated with `@{head}` ({package}), outside code that may call its methods by name (a framework's convention)"
