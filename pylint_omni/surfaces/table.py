"""The surfaces of a project: modules, classes, functions and methods, with where they sit.

A surface is a definition whose deletion is one decision: a module, a class at
module level or inside a class, a module-level function, a method. Functions and
classes defined inside a function belong to that function. A definition that a
later one of the same name replaces in the same body (`surfaces.scan`) is a
`shadowed` surface (its dotted name carries `@line`). `@overload` stubs are not
surfaces. Every file of the index has its surfaces, validation files included:
their references are evidence too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.vocabulary import decorator_tail

SURFACE_FACTS = "surfaces.module"
STUBS = frozenset({"overload"})


@dataclass(frozen=True)
class Surface:
    """One surface: its dotted name, kind, place, container and decorators."""

    dotted: str
    kind: str  # module | class | function | method | shadowed
    path: str
    line: int
    end: int
    container: str | None  # the enclosing module or class (a package for a module)
    decorators: tuple[str, ...] = ()
    production: bool = True
    name: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", self.dotted.partition("@")[0].rpartition(".")[2])

    @property
    def lines(self) -> int:
        return self.end - self.line + 1


# What a test runner runs: the validation files that are tests (not scripts, examples or docs).
TEST_GLOBS = ("tests/**", "test/**", "**/tests/**", "**/test/**", "**/*_tests/**", "**/test_*.py", "**/*_test.py",
              "**/conftest.py")

def may_load(written: str, module: str) -> bool:
    """A computed import written as `written` (a literal head `pkg.models.`, or a glob `pkg.*.modeling_*` when
    literal text follows the computed part) may load `module`."""
    return fnmatchcase(module, written) if "*" in written else module.startswith(written)


@dataclass
class SurfaceTable:
    """Every surface of the project, by dotted name, by name and by container."""

    surfaces: dict[str, Surface] = field(default_factory=dict)
    children: dict[str, list[str]] = field(default_factory=dict)
    by_name: dict[str, list[str]] = field(default_factory=dict)  # classes and functions
    methods_by_name: dict[str, list[str]] = field(default_factory=dict)
    spans: dict[str, list[tuple[int, int, str]]] = field(default_factory=dict)  # relpath -> (line, end, dotted)
    module_of_path: dict[str, str] = field(default_factory=dict)

    def add(self, surface: Surface) -> None:
        self.surfaces[surface.dotted] = surface
        if surface.container is not None:
            self.children.setdefault(surface.container, []).append(surface.dotted)
        if surface.kind == "method":
            self.methods_by_name.setdefault(surface.name, []).append(surface.dotted)
        elif surface.kind in ("class", "function"):
            self.by_name.setdefault(surface.name, []).append(surface.dotted)
        if surface.kind != "module":
            self.spans.setdefault(surface.path, []).append((surface.line, surface.end, surface.dotted))

    def owners(self, relpath: str, length: int) -> list[str | None]:
        """The innermost surface owning each line of a file (index = line number); the module elsewhere."""
        module = self.module_of_path.get(relpath)
        owned: list[str | None] = [module] * (length + 2)
        for line, end, dotted in sorted(self.spans.get(relpath, ())):
            for number in range(line, min(end, length) + 1):
                owned[number] = dotted
        return owned

    def modules_under(self, prefix: str) -> list[str]:
        """Modules a computed import of `prefix` may load (`may_load`)."""
        return [m for m in self.module_of_path.values() if may_load(prefix, m) and m != prefix.rstrip(".")]

    def methods(self, class_dotted: str) -> list[str]:
        return [c for c in self.children.get(class_dotted, ()) if self.surfaces[c].kind == "method"]

    def contained(self, dotted: str) -> list[str]:
        """Every surface inside `dotted`, transitively (a module's classes and their methods)."""
        found: list[str] = []
        stack = list(self.children.get(dotted, ()))
        while stack:
            current = stack.pop()
            found.append(current)
            stack.extend(self.children.get(current, ()))
        return found


def _module_container(module: str, modules: set[str]) -> str | None:
    parent = module.rpartition(".")[0]
    while parent:
        if parent in modules:
            return parent
        parent = parent.rpartition(".")[0]
    return None


def _file_surfaces(table: SurfaceTable, rel: str, module: str, facts: dict[str, Any], production: bool) -> None:
    classes = {c["qual"]: c for c in facts.get("classes", [])}
    surface_quals: set[str] = set()
    for data in sorted(facts.get("classes", []), key=lambda c: c["qual"].count(".")):
        parent = data["qual"].rpartition(".")[0]
        if parent and parent not in surface_quals:
            continue  # defined inside a function
        surface_quals.add(data["qual"])
        container = f"{module}.{parent}" if parent else module
        table.add(Surface(f"{module}.{data['qual']}", "class", rel, data["line"], data["end"], container,
                          tuple(data.get("decorators", [])), production))
    shadowed = {(row[0], row[1]) for row in (facts.get("extra", {}).get(SURFACE_FACTS) or {}).get("shadowed", [])}
    for data in facts.get("functions", []):
        parent = data["qual"].rpartition(".")[0]
        decorators = tuple(data.get("decorators", []))
        if (parent and parent not in surface_quals) or (decorators and {decorator_tail(d) for d in decorators} & STUBS):
            continue
        kind = "method" if parent in classes else "function"
        dotted = f"{module}.{data['qual']}"
        if (data["qual"], data["line"]) in shadowed:
            kind, dotted = "shadowed", f"{dotted}@{data['line']}"
        table.add(Surface(dotted, kind, rel, data["line"], data["end"], f"{module}.{parent}" if parent else module,
                          decorators, production))


def build_table(index: ProjectIndex) -> SurfaceTable:
    """The surfaces of every Python file of the index (memoised per index state)."""
    return _TABLE.of(index)


def _build_table(index: ProjectIndex) -> SurfaceTable:
    table = SurfaceTable()
    files = [(rel, index.entries[rel].get("module", ""), facts) for rel, facts in index.python_files()]
    modules = {module for _, module, _ in files if module}
    for rel, module, facts in files:
        if not module:
            continue
        production = index.location(rel) is Location.PRODUCTION
        extra = facts.get("extra", {}).get(SURFACE_FACTS) or {}
        table.module_of_path[rel] = module
        table.add(Surface(module, "module", rel, 1, int(extra.get("lines") or 1), _module_container(module, modules),
                          (), production))
        _file_surfaces(table, rel, module, facts, production)
    return table


_TABLE: Derived[SurfaceTable] = Derived("surfaces.table", _build_table)
