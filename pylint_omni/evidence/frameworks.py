"""Framework conventions as data: code a widely used framework finds and calls by its own rules, not by a reference.

Like knip's plugins, each `Convention` is one row of data: the framework, how its use
is recognised in a project, and what it keeps alive. The families read the table,
never a framework's name: `unused-registry-entry` rejects an entry of a table a
framework reads (`framework_table`), `unused-surface` and `test-only-surface` treat
what a framework calls as reached (`framework_method`, `framework_roots`). The
README's "Framework conventions" section lists the rows (a test keeps it in step).

Recognition is by what the framework itself looks for: a module-level name in a file
it loads (ComfyUI reads `NODE_CLASS_MAPPINGS` from a custom-node package's
`__init__.py`), a decorator or a base class resolved through the file's imports
(`ray.serve.deployment`, `django.apps.AppConfig`), a file name and a function name
pattern (pytest's `pytest_*` hooks in `conftest.py`, or in a module a `pytest11`
entry point names), a key of a JSON config (Hugging Face's `auto_map`). HTTP routes
(`@app.get("/x")`) are judged apart, by path (`surfaces.routes`): their row gives the
decorator methods that register one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location, matches_any
from pylint_omni.index.project_index import ProjectIndex


@dataclass(frozen=True)
class Convention:
    """One framework's discovery rule (every field but the first three is data a rule below reads)."""

    name: str
    recognised: str  # how a project's use of it is recognised (the README's words)
    keeps: str  # what it keeps alive (the README's words)
    tables: tuple[str, ...] = ()  # module-level tables the framework reads by name ...
    table_files: tuple[str, ...] = ()  # ... in files matching these globs
    methods: frozenset[str] = frozenset()  # methods it calls on the classes it is given (below)
    decorators: tuple[str, ...] = ()  # classes it is given: decorated with one of these (resolved dotted name)
    bases: tuple[str, ...] = ()  # ... or derived from one of these
    functions: str = ""  # a regular expression of module-level functions it calls by name ...
    function_files: tuple[str, ...] = ()  # ... in files matching these globs ...
    entry_point_groups: tuple[str, ...] = ()  # ... or in modules an entry point of these groups names
    config_key: str = ""  # a key of JSON config files whose values name classes (`module.Class`, beside the file)
    route_methods: frozenset[str] = frozenset()  # `@app.<method>("/path")` registers an HTTP route


CONVENTIONS: tuple[Convention, ...] = (
    Convention(
        "ComfyUI custom nodes",
        "`NODE_CLASS_MAPPINGS` / `NODE_DISPLAY_NAME_MAPPINGS` in a package's `__init__.py`",
        "every entry of both tables, the node classes, their `INPUT_TYPES`, `IS_CHANGED`, `VALIDATE_INPUTS` and "
        "`check_lazy_status` (the method a node's `FUNCTION` string names is reached through that string)",
        tables=("NODE_CLASS_MAPPINGS", "NODE_DISPLAY_NAME_MAPPINGS"), table_files=("**/__init__.py", "__init__.py"),
        methods=frozenset({"INPUT_TYPES", "IS_CHANGED", "VALIDATE_INPUTS", "check_lazy_status"}),
    ),
    Convention(
        "pytest plugins",
        "`pytest_*` functions in `conftest.py` or in a module a `pytest11` entry point names",
        "those hook functions (fixtures are kept by their `@pytest.fixture` decorator)",
        functions=r"^pytest_\w+$", function_files=("**/conftest.py", "conftest.py"), entry_point_groups=("pytest11",),
    ),
    Convention(
        "Django apps",
        "a subclass of `django.apps.AppConfig` (apps are named by `INSTALLED_APPS` strings, which the index reads as "
        "qualnames); a management command's `Command(BaseCommand)`",
        "`AppConfig.ready`; a command's `handle` and `add_arguments`",
        methods=frozenset({"ready", "handle", "add_arguments"}),
        bases=("django.apps.AppConfig", "django.apps.config.AppConfig", "django.core.management.base.BaseCommand",
               "django.core.management.BaseCommand"),
    ),
    Convention(
        "FastAPI / Starlette routes",
        "`@app.get(\"/x\")`, `@router.post(...)`, `@app.api_route`, `@app.websocket`; a subclass of Starlette's "
        "`HTTPEndpoint` or `WebSocketEndpoint`",
        "the handler (judged as a route by its path); an endpoint class's HTTP-verb and WebSocket methods",
        methods=frozenset({"get", "post", "put", "delete", "patch", "head", "options", "on_connect", "on_receive",
                           "on_disconnect"}),
        bases=("starlette.endpoints.HTTPEndpoint", "starlette.endpoints.WebSocketEndpoint",
               "fastapi.routing.HTTPEndpoint"),
        route_methods=frozenset({"get", "post", "put", "delete", "patch", "head", "options", "route", "websocket",
                                 "api_route"}),
    ),
    Convention(
        "Ray Serve deployments",
        "a class decorated with `@serve.deployment` (`ray.serve.deployment`)",
        "the class, its `__call__`, `reconfigure` and `check_health`",
        methods=frozenset({"__call__", "reconfigure", "check_health"}), decorators=("ray.serve.deployment",),
    ),
    Convention(
        "Hugging Face remote code",
        "`auto_map` in a `config.json` (or `tokenizer_config.json`, `preprocessor_config.json`) beside the modules it "
        "names",
        "the classes its values name (`modeling_x.XForCausalLM`: transformers loads them with `trust_remote_code`)",
        config_key="auto_map",
    ),
)
ROUTE_METHODS = frozenset().union(*(c.route_methods for c in CONVENTIONS))


def framework_table(relpath: str, name: str) -> Convention | None:
    """The framework that reads the module-level table `name` of the file `relpath` by convention."""
    return next((c for c in CONVENTIONS if name in c.tables and matches_any(relpath, c.table_files)), None)


def _resolved(index: ProjectIndex, relpath: str, written: str) -> str:
    """A decorator or base as written (`serve.deployment(num_replicas=2)`), through the file's imports."""
    head, _, rest = written.partition("(")[0].strip().partition(".")
    imported = index.facts(relpath).get("imports", {}).get(head, head)
    return f"{imported}.{rest}" if rest else imported


def _given_classes(index: ProjectIndex) -> dict[str, tuple[Convention, str]]:
    """Class -> (the convention that is given it, how): by a table's entries, a decorator or a base."""
    found: dict[str, tuple[Convention, str]] = {}
    for rel, registry in index.registries():
        convention = framework_table(rel, registry["name"])
        for entry in registry["entries"] if convention is not None else ():
            target = index.resolve_target(entry["target"], entry["suffix"]) if entry["target"] else None
            if target is not None and target.kind == "class":
                found.setdefault(target.dotted, (convention, f"{registry['name']} ({rel}:{entry['line']})"))
    graph = class_graph(index)
    for dotted, node in graph.nodes.items():
        rel = node.definition.path
        decorators = {_resolved(index, rel, text) for text in node.definition.data.get("decorators", [])}
        bases = set(graph.upstream_bases(dotted))
        for convention in CONVENTIONS:
            decorated = decorators & set(convention.decorators)
            derived = bases & set(convention.bases)
            if decorated or derived:
                how = f"decorated with {min(decorated)}" if decorated else f"derived from {min(derived)}"
                found.setdefault(dotted, (convention, how))
    return found


_GIVEN: Derived[dict[str, tuple[Convention, str]]] = Derived("frameworks.given_classes", _given_classes)


def framework_method(index: ProjectIndex, class_dotted: str, method: str) -> str | None:
    """Why a framework calls `method` of the class (None: no convention does)."""
    given = _GIVEN.of(index).get(class_dotted)
    if given is None or method not in given[0].methods:
        return None
    convention, how = given
    return f"{convention.name}: the framework calls {method} on the class it is given ({how})"


def _entry_point_modules(index: ProjectIndex, groups: tuple[str, ...]) -> set[str]:
    modules: set[str] = set()
    for _, entry in index.entries.items():
        for point in entry.get("facts", {}).get("entry_points", ()) if entry.get("kind") == "toml" else ():
            if point.get("group") in groups:
                modules.add(str(point.get("target", "")).partition(":")[0].strip())
    return modules


def _config_classes(index: ProjectIndex, relpath: str) -> list[tuple[str, int]]:
    """(dotted class, line) of each `module.Class` string of a JSON file naming a module beside it (`auto_map`
    values: `modeling_x.XForCausalLM`, or `repo--modeling_x.XForCausalLM` for code of another repository)."""
    folder = PurePosixPath(relpath).parent
    found = []
    for token in index.entries[relpath].get("facts", {}).get("refs", {}):
        module, _, name = token.rpartition("--")[2].rpartition(".")
        if not module or not name.isidentifier():
            continue
        dotted = index.entries.get((folder / (module.replace(".", "/") + ".py")).as_posix(), {}).get("module", "")
        if dotted:
            found.append((f"{dotted}.{name}", next((h.line for h in index.hits(token) if h.path == relpath), 1)))
    return found


def framework_roots(index: ProjectIndex) -> list[tuple[str, str]]:
    """(dotted surface, why) of the functions and classes a framework loads by name: production roots."""
    found: list[tuple[str, str]] = []
    for convention in CONVENTIONS:
        if convention.functions:
            pattern = re.compile(convention.functions)
            plugins = _entry_point_modules(index, convention.entry_point_groups)
            for rel, facts in index.python_files():
                module = index.entries[rel].get("module", "")
                if not (matches_any(rel, convention.function_files) or module in plugins):
                    continue
                found += [(f"{module}.{f['name']}", f"{convention.name}: {f['name']} is a hook the framework calls by name")
                          for f in facts.get("functions", []) if f.get("toplevel") and pattern.match(f["name"])]
        if convention.config_key:
            for rel, entry in index.entries.items():
                if entry.get("kind") != "json" or convention.config_key not in entry.get("facts", {}).get("refs", {}):
                    continue
                if index.location(rel) is not Location.VALIDATION:
                    found += [(dotted, f"{convention.name}: {convention.config_key} in {rel}:{line} names it")
                              for dotted, line in _config_classes(index, rel)]
        found += [(dotted, f"{convention.name}: {how}") for dotted, (c, how) in _GIVEN.of(index).items()
                  if c is convention and (convention.decorators or convention.bases)]
    return found
