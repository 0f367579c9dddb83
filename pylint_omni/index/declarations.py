"""What the project declares it runs on: `requires-python` and its dependency pins.

Read, never executed, from the project root: `pyproject.toml` (`[project]`
`requires-python`, `dependencies`, `optional-dependencies`, `classifiers`), `setup.py`
(literal `python_requires`, `install_requires`, `extras_require`, `classifiers` of the
`setup(...)` call, read with `ast`), `setup.cfg` (`[options]`,
`[options.extras_require]` and `[metadata] classifiers`, read with configparser) and runtime requirement files (`requirements*.txt`,
`requirements/*.txt`, following `-r` includes; files named for tests, docs, linting,
development or builds are not runtime). Specifiers and names go through `packaging`.

A declaration with an environment marker (`; sys_platform == "linux"`) is
conditional, and an extra is optional: neither makes a dependency hard. What could
not be read literally (a computed `install_requires`) is kept as a note, so a finding
can say what stayed unknown.
"""

from __future__ import annotations

import ast
import configparser
import fnmatch
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

from pylint_omni.index.derived import Derived
from pylint_omni.index.discovery import read_text
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.ast_helpers import walk_nodes
from pylint_omni.index.scan.data_scan import InputProblem

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

NOT_RUNTIME_WORDS = re.compile(r"test|dev|doc|lint|build|bench|ci\b|format|mypy|readthedocs|example|style|typing|lock", re.I)
MAX_INCLUDE_DEPTH = 5  # nested `-r other.txt` requirement files followed
PRIMARY_FILE = "requirements.txt"  # the conventional install list; other files may be per-device lists or extras


@dataclass(frozen=True)
class Declared:
    """One declared requirement (`python` for requires-python), where it is written and what kind."""

    name: str  # canonical distribution name, or "python"
    spec: str  # specifier text; "" when the name is given without a version
    source: str  # `pyproject.toml:31`
    text: str  # the requirement as written
    optional: bool = False  # an extra
    conditional: bool = False  # an environment marker
    role: str = "install"  # "install": package metadata, the root requirements.txt or a file setup.py installs;
    # "unknown": another requirement file (it may list one device's requirements or an extra's)
    origin: str = ""  # the requirement file this was read from, through `-r` includes
    group: str = ""  # setup.py installs one of several files (`runtime_{device}.txt`): the pattern

    @property
    def primary(self) -> bool:
        return self.role == "install"

    def specifiers(self) -> SpecifierSet | None:
        try:
            return SpecifierSet(self.spec)
        except InvalidSpecifier:
            return None


@dataclass(frozen=True)
class Declarations:
    """Every declaration of the project, plus what could not be read literally."""

    python: tuple[Declared, ...]
    deps: tuple[Declared, ...]
    notes: tuple[str, ...]
    groups: tuple[tuple[str, tuple[str, ...]], ...] = ()  # install pattern -> the alternative files it matches
    classifiers: tuple[tuple[str, str], ...] = ()  # (trove classifier, where): the platforms it runs on (`platforms`)

    def of(self, name: str) -> list[Declared]:
        wanted = canonicalize_name(name)
        return [d for d in self.deps if d.name == wanted]

    def hard(self, name: str) -> list[Declared]:
        """Declarations that install `name` unconditionally (not an extra, no marker; in every alternative file)."""
        found = [d for d in self.of(name) if not d.optional and not d.conditional]
        groups = dict(self.groups)
        for pattern, files in groups.items():
            in_group = [d for d in found if d.group == pattern]
            if in_group and {d.origin for d in in_group} != set(files):
                found = [d for d in found if d.group != pattern]  # only some devices install it
        return found

    def runtime(self, name: str) -> list[Declared]:
        """Declarations that bound the version whenever `name` is installed with the project."""
        return [d for d in self.of(name) if not d.optional and not d.conditional]


def _line_of(text: str, needle: str) -> int:
    position = text.find(needle)
    return text.count("\n", 0, position) + 1 if position >= 0 else 1


def _requirement(text: str, source: str, optional: bool) -> Declared | None:
    try:
        req = Requirement(text)
    except InvalidRequirement:
        return None
    return Declared(canonicalize_name(req.name), str(req.specifier), source, text.strip(), optional, req.marker is not None)


def _python(spec: Any, source: str) -> Declared | None:
    if not isinstance(spec, str):
        return None
    try:
        SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    return Declared("python", spec, source, f"requires-python {spec}")


def _read(root: Path, relpath: str, notes: list[str]) -> str | None:
    path = root / relpath
    if not path.is_file():
        return None
    try:
        return read_text(path, 2_000_000)
    except InputProblem as exc:
        notes.append(f"{relpath}: {exc}")
        return None


def _from_pyproject(root: Path, notes: list[str], roles: list[tuple[str, str]],
                    classifiers: list[tuple[str, str]]) -> tuple[list[Declared], list[Declared]]:
    text = _read(root, "pyproject.toml", notes)
    if text is None:
        return [], []
    try:
        project = tomllib.loads(text).get("project", {})
    except tomllib.TOMLDecodeError as exc:
        notes.append(f"pyproject.toml is not valid TOML ({exc})")
        return [], []
    if not isinstance(project, dict):
        return [], []
    python: list[Declared] = []
    trove = project.get("classifiers")
    for item in trove if isinstance(trove, list) else []:
        if isinstance(item, str):
            classifiers.append((item, f"pyproject.toml:{_line_of(text, item)}"))
    found = _python(project.get("requires-python"), f"pyproject.toml:{_line_of(text, 'requires-python')}")
    if found:
        python.append(found)
    deps: list[Declared] = []
    listed = project.get("dependencies")
    for item in listed if isinstance(listed, list) else []:
        if isinstance(item, str):
            deps += [d for d in [_requirement(item, f"pyproject.toml:{_line_of(text, item)}", False)] if d]
    extras = project.get("optional-dependencies")
    for extra in extras.values() if isinstance(extras, dict) else []:
        for item in extra if isinstance(extra, list) else []:
            if isinstance(item, str):
                deps += [d for d in [_requirement(item, f"pyproject.toml:{_line_of(text, item)}", True)] if d]
    return python, deps


def _literal(node: ast.AST, constants: dict[str, ast.AST]) -> Any:
    if isinstance(node, ast.Name) and node.id in constants:
        node = constants[node.id]
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _element_lines(node: ast.AST, constants: dict[str, ast.AST], count: int) -> list[int]:
    """The line of each element of a literal list (the list's own line when it is bound elsewhere)."""
    if isinstance(node, ast.Name) and node.id in constants:
        node = constants[node.id]
    if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == count:
        return [elt.lineno for elt in node.elts]
    return [getattr(node, "lineno", 1)] * count


def _built_value(tree: ast.Module, value: ast.AST) -> ast.AST:
    """What a computed setup() argument is built from: the value itself, or, for a name (`extras_require=extras`),
    every statement that stores into that name (`extras["eval"], _ = parse_requirements("requirements/eval.txt")`)."""
    if not isinstance(value, ast.Name):
        return value
    stores = [stmt for stmt in walk_nodes(tree) if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign))
              and any(isinstance(n, ast.Name) and n.id == value.id and isinstance(n.ctx, ast.Store)
                      or isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == value.id
                      and isinstance(n.ctx, ast.Store)
                      for target in ([stmt.target] if not isinstance(stmt, ast.Assign) else stmt.targets)
                      for n in walk_nodes(target))]
    return ast.Module(body=stores, type_ignores=[]) if stores else value


def _file_patterns(node: ast.AST) -> list[str]:
    """Requirement files a computed value names: `"requirements/x.txt"`, f"requirements/runtime_{dev}.txt" -> a glob."""
    found = []
    for item in walk_nodes(node):
        if isinstance(item, ast.Constant) and isinstance(item.value, str) and item.value.endswith(".txt"):
            found.append(item.value)
        elif isinstance(item, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.Constant) else "*" for v in item.values]
            if str(parts[-1]).endswith(".txt"):
                found.append("".join(str(p) for p in parts))
    return [f.removeprefix("./") for f in found]


def _from_setup_py(root: Path, notes: list[str], roles: list[tuple[str, str]],
                   classifiers: list[tuple[str, str]]) -> tuple[list[Declared], list[Declared]]:
    text = _read(root, "setup.py", notes)
    if text is None:
        return [], []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        notes.append("setup.py could not be parsed")
        return [], []
    constants = {t.id: s.value for s in tree.body if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)}
    python: list[Declared] = []
    deps: list[Declared] = []
    for call in (n for n in walk_nodes(tree) if isinstance(n, ast.Call)):
        if (getattr(call.func, "id", None) or getattr(call.func, "attr", None)) != "setup":
            continue
        for keyword in call.keywords:
            value = _literal(keyword.value, constants)
            where = f"setup.py:{keyword.value.lineno}"
            if keyword.arg == "python_requires":
                python += [d for d in [_python(value, where)] if d]
            elif keyword.arg == "classifiers" and isinstance(value, (list, tuple)):
                lines = _element_lines(keyword.value, constants, len(value))
                classifiers += [(item, f"setup.py:{line}") for item, line in zip(value, lines) if isinstance(item, str)]
            elif keyword.arg in ("install_requires", "extras_require") and (
                    value is None or not value and isinstance(keyword.value, ast.Name)):  # `extras = {}`, filled below
                role = "install" if keyword.arg == "install_requires" else "extra"
                roles += [(pattern, role) for pattern in _file_patterns(_built_value(tree, keyword.value))]
                notes.append(f"setup.py {keyword.arg} is computed ({where}); the requirement files it names were read")
            elif keyword.arg == "install_requires":
                if isinstance(value, (list, tuple)):
                    lines = _element_lines(keyword.value, constants, len(value))
                    deps += [d for item, line in zip(value, lines) if isinstance(item, str)
                             for d in [_requirement(item, f"setup.py:{line}", False)] if d]
            elif keyword.arg == "extras_require" and isinstance(value, dict):
                for items in value.values():
                    deps += [d for item in (items if isinstance(items, (list, tuple)) else []) if isinstance(item, str)
                             for d in [_requirement(item, where, True)] if d]
    return python, deps


def _from_setup_cfg(root: Path, notes: list[str], roles: list[tuple[str, str]],
                    classifiers: list[tuple[str, str]]) -> tuple[list[Declared], list[Declared]]:
    text = _read(root, "setup.cfg", notes)
    if text is None:
        return [], []
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        notes.append("setup.cfg could not be parsed")
        return [], []
    python: list[Declared] = []
    deps: list[Declared] = []
    if parser.has_option("metadata", "classifiers"):
        classifiers += [(item.strip(), f"setup.cfg:{_line_of(text, item.strip())}")
                        for item in parser.get("metadata", "classifiers").splitlines() if item.strip()]
    if parser.has_option("options", "python_requires"):
        spec = parser.get("options", "python_requires")
        python += [d for d in [_python(spec.strip(), f"setup.cfg:{_line_of(text, 'python_requires')}")] if d]
    if parser.has_option("options", "install_requires"):
        for item in parser.get("options", "install_requires").splitlines():
            if item.strip():
                deps += [d for d in [_requirement(item, f"setup.cfg:{_line_of(text, item.strip())}", False)] if d]
    if parser.has_section("options.extras_require"):
        for _, value in parser.items("options.extras_require"):
            for item in value.splitlines():
                if item.strip():
                    deps += [d for d in [_requirement(item, f"setup.cfg:{_line_of(text, item.strip())}", True)] if d]
    return python, deps


def requirement_files(root: Path) -> list[str]:
    """Root-relative runtime requirement files (`requirements*.txt`, `requirements/*.txt`)."""
    found = [p.name for p in sorted(root.glob("requirements*.txt"))]
    folder = root / "requirements"
    if folder.is_dir():
        found += [f"requirements/{p.name}" for p in sorted(folder.glob("*.txt"))]
    return [f for f in found if not NOT_RUNTIME_WORDS.search(f.rpartition("/")[2].removeprefix("requirements"))]


def _from_requirements(root: Path, relpath: str, notes: list[str], seen: set[str], depth: int = 0) -> list[Declared]:
    """One requirement file, following `-r` includes inside the root (constraints `-c` are not requirements)."""
    if relpath in seen or depth > MAX_INCLUDE_DEPTH:
        return []
    seen.add(relpath)
    text = _read(root, relpath, notes)
    if text is None:
        return []
    deps: list[Declared] = []
    folder = relpath.rpartition("/")[0]
    for number, raw in enumerate(text.replace("\\\n", " ").splitlines(), start=1):
        line = re.split(r"(^|\s)#", raw, maxsplit=1)[0].strip()
        if not line:
            continue
        if line.startswith(("-r ", "--requirement")):
            include = line.split(None, 1)[1].strip() if " " in line else line.partition("=")[2]
            target = (Path(folder) / include).as_posix() if folder else include
            if ".." not in Path(target).parts:
                deps += _from_requirements(root, target, notes, seen, depth + 1)
            continue
        if line.startswith("-"):
            continue  # -c, -e, --index-url and other installer options
        deps += [d for d in [_requirement(line, f"{relpath}:{number}", False)] if d]
    return deps


def _role_of(relpath: str, roles: list[tuple[str, str]]) -> tuple[str, str]:
    """(role, alternatives pattern) of a top-level requirement file."""
    for pattern, role in roles:
        if fnmatch.fnmatchcase(relpath, pattern):
            return role, pattern if "*" in pattern else ""
    return ("install", "") if relpath == PRIMARY_FILE else ("unknown", "")


def read_declarations(root: Path) -> Declarations:
    """Every declaration found at `root` (nothing found: empty)."""
    notes: list[str] = []
    roles: list[tuple[str, str]] = []
    python: list[Declared] = []
    deps: list[Declared] = []
    classifiers: list[tuple[str, str]] = []
    for reader in (_from_pyproject, _from_setup_py, _from_setup_cfg):
        found_python, found_deps = reader(root, notes, roles, classifiers)
        python += found_python
        deps += found_deps
    files = requirement_files(root)
    files += [f for pattern, _ in roles for f in _matching(root, pattern) if f not in files]
    groups: dict[str, list[str]] = {}
    for relpath in files:
        role, group = _role_of(relpath, roles)
        if group:
            groups.setdefault(group, []).append(relpath)
        for item in _from_requirements(root, relpath, notes, set()):
            deps.append(replace(item, role=role, origin=relpath, group=group, optional=role == "extra"))
    return Declarations(tuple(python), tuple(deps), tuple(notes), tuple((k, tuple(v)) for k, v in groups.items()),
                        tuple(classifiers))


def _matching(root: Path, pattern: str) -> list[str]:
    if ".." in Path(pattern).parts or pattern.startswith("/"):
        return []
    return sorted(p.relative_to(root).as_posix() for p in root.glob(pattern) if p.is_file())


def declarations_of(index: ProjectIndex) -> Declarations:
    """The project's declarations, read once per run."""
    return _DECLARATIONS.of(index)


def names(declared: Iterable[Declared]) -> str:
    return ", ".join(f"`{d.text}` ({d.source})" for d in declared)


_DECLARATIONS: Derived[Declarations] = Derived("index.declarations", lambda index: read_declarations(index.root))
