"""Which files of a project the index reads, what kind each is, and how to read one safely.

Reading never follows a link out of the project root, never reads more than the size
cap, and turns every failure into an `InputProblem` naming the reason, so one bad file
costs one message, never the run.
"""

from __future__ import annotations

import hashlib
import os
from stat import S_ISREG
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from pylint_omni.index.ignore import GitIgnore
from pylint_omni.index.paths import matches_any
from pylint_omni.index.scan.data_scan import InputProblem

DOC_SUFFIXES = {".md", ".rst", ".txt", ".qmd", ".mdx"}  # Markdown, reST, text, Quarto, MDX pages
SCRIPT_SUFFIXES = {".sh", ".cfg", ".ini", ".patch", ".diff"}  # patches: what they add to a dependency calls the project
KIND_BY_SUFFIX = {
    ".py": "python",
    ".pyi": "python",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".toml": "toml",
    **{s: "doc" for s in DOC_SUFFIXES},
    **{s: "script" for s in SCRIPT_SUFFIXES},
}
SPECIAL_NAMES = {"Dockerfile": "script", "Makefile": "script", "setup.cfg": "script"}
CI_FOLDERS = (".github", ".buildkite", ".gitlab", ".circleci")  # hidden, and read whether git tracks them or not


@dataclass(frozen=True)
class SourceFile:
    """A file the index reads: its root-relative posix path, kind, size and mtime."""

    relpath: str
    kind: str
    size: int
    mtime_ns: int


def file_kind(name: str) -> str | None:
    if name in SPECIAL_NAMES:
        return SPECIAL_NAMES[name]
    return KIND_BY_SUFFIX.get(os.path.splitext(name)[1].lower())


def discover(
    root: Path, exclude_globs: tuple[str, ...], problems: dict[str, str], respect_gitignore: bool = True,
) -> Iterator[SourceFile]:
    """Walk `root` without following folder links; report links that leave the root.

    With `respect_gitignore`, what the project's `.gitignore` files exclude is
    skipped, except files git tracks (`ignore.GitIgnore`).
    """
    root_str = str(root)
    ignored = GitIgnore.of(root) if respect_gitignore else None
    for folder, dirnames, filenames in os.walk(root_str, followlinks=False):
        rel_folder = os.path.relpath(folder, root_str).replace(os.sep, "/")
        rel_folder = "" if rel_folder == "." else rel_folder + "/"
        if ignored is not None:
            ignored.enter(rel_folder.rstrip("/"))
        kept = []
        for name in dirnames:
            rel = rel_folder + name
            if matches_any(rel + "/", exclude_globs) or matches_any(rel + "/x", exclude_globs):
                continue
            if ignored is not None and ignored.skips_folder(rel):
                continue
            # A hidden folder is a tool's (caches, environments, stand-ins) unless it is CI or git tracks files in
            # it; of the latter only the docs are read: agent skills and runbooks (`.agents/skills/*/SKILL.md`)
            # tell operators what to call.
            if name.startswith(".") and name not in CI_FOLDERS and not (ignored is not None and rel in ignored.tracked_folders):
                continue
            if os.path.islink(os.path.join(folder, name)):
                target = os.path.realpath(os.path.join(folder, name))
                if not (target + os.sep).startswith(root_str + os.sep):
                    problems[rel] = "folder link leaves the project root; not followed"
                continue
            kept.append(name)
        dirnames[:] = sorted(kept)
        docs_only = any(part.startswith(".") and part not in CI_FOLDERS for part in rel_folder.split("/"))
        for name in sorted(filenames):
            kind = file_kind(name)
            if kind is None or docs_only and kind != "doc":
                continue
            rel = rel_folder + name
            if matches_any(rel, exclude_globs) or (ignored is not None and ignored.skips_file(rel)):
                continue
            full = os.path.join(folder, name)
            try:
                if os.path.islink(full):
                    target = os.path.realpath(full)
                    if not (target + os.sep).startswith(root_str + os.sep):
                        problems[rel] = "link leaves the project root; not read"
                        continue
                stat = os.stat(full)
            except OSError as exc:
                problems[rel] = f"cannot stat: {exc.strerror or exc}"
                continue
            if not S_ISREG(stat.st_mode):
                problems[rel] = "not a regular file (a pipe, socket or device); not read"
                continue
            yield SourceFile(rel, kind, stat.st_size, stat.st_mtime_ns)


def content_digest(text: str) -> str:
    """A file's content as a short digest: a buffer equal to the file on disk has the same one."""
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def read_text(path: Path, max_bytes: int) -> str:
    """The file's text as UTF-8, or an InputProblem saying why not."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InputProblem(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise InputProblem(f"larger than the size cap of {max_bytes} bytes (omni-max-file-bytes); skipped")
    if b"\x00" in data[:8192]:
        raise InputProblem("binary content (NUL bytes); skipped")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputProblem(f"not UTF-8 (byte {exc.start}); skipped") from None


PACKAGING_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
MAX_PACKAGING_BYTES = 1 << 20  # a packaging file larger than this is not read for namespace packages


def packaging_text(root: Path) -> str:
    """The packaging files of the project (`PACKAGING_FILES`), as one text."""
    text = ""
    for name in PACKAGING_FILES:
        try:
            with open(root / name, "rb") as handle:
                text += handle.read(MAX_PACKAGING_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
    return text


def declares_namespace(packaging: str, folder: str) -> bool:
    """Whether packaging text names a dotted package under `folder` (`"megatron.core"`): a namespace package."""
    name = folder.rstrip("/").rpartition("/")[2]
    return f'"{name}.' in packaging or f"'{name}." in packaging


def declared_namespaces(root: Path, files: list[SourceFile]) -> frozenset[str]:
    """Top-level folders without `__init__.py` that the packaging files declare as namespace packages
    (Megatron-LM's `megatron/`: `include = ["megatron.core", ...]`): their modules are `megatron.core.x`, as the
    project imports them, not `core.x`. A folder counts when a packaging file names a dotted package under it."""
    packages = {f.relpath.rpartition("/")[0] for f in files if f.relpath.endswith("/__init__.py")}
    candidates = {folder.partition("/")[0] if not folder.startswith("src/") else "src/" + folder.split("/")[1]
                  for folder in packages if "/" in folder}
    candidates -= packages | {"src"}
    if not candidates:
        return frozenset()
    packaging = packaging_text(root)
    return frozenset(c for c in candidates if declares_namespace(packaging, c))


def module_names(files: list[SourceFile], namespaces: frozenset[str] = frozenset()) -> dict[str, str]:
    """Dotted module name of every Python file, climbing through package folders (and the declared `namespaces`);
    none ("") for a module file a package of the same name shadows (`x.py` beside `x/__init__.py`: Python imports
    the package, never the file)."""
    packages = {f.relpath.rpartition("/")[0] for f in files if f.relpath.endswith("/__init__.py")} | namespaces
    if any(f.relpath == "__init__.py" for f in files):
        packages.add("")
    # A folder without `__init__.py` inside a package is a namespace package (PEP 420): `pkg/sub/mod.py` is
    # `pkg.sub.mod`, never a top-level `mod` that could shadow an installed distribution (`.../activation/torch`).
    below: dict[str, bool] = {}

    def below_package(folder: str) -> bool:
        if folder not in below:
            parent = folder.rpartition("/")[0]
            below[folder] = bool(parent) and (parent in packages or below_package(parent))
        return below[folder]

    names: dict[str, str] = {}
    for f in files:
        if f.kind != "python":
            continue
        folder, _, filename = f.relpath.rpartition("/")
        stem = filename.rsplit(".", 1)[0]
        if f.relpath.removesuffix(".py") in packages:
            names[f.relpath] = ""
            continue
        parts = [] if stem == "__init__" else [stem]
        while folder and (folder in packages or below_package(folder)):
            folder, _, name = folder.rpartition("/")
            parts.insert(0, name)
        names[f.relpath] = ".".join(parts) or stem
    return names
