"""`python -m pylint_omni report [PATHS] [-o FILE] [--json FILE] [--sarif FILE]`.

Sugar for `pylint --load-plugins=pylint_omni --disable=all --enable=pylint-omni
--output-format=omni-report[:FILE],...` in a subprocess (so astroid's caches and
pylint's state stay per run). PATHS default to the top-level packages of the
current folder; other pylint options pass through (`-j`, `--confidence`,
`--omni-root`, any `--name=value`). A report file inside the analysed project (`-o
audit.md` from its root, as the README shows) is written where asked, after one line
on stderr saying so: the index never reads pylint-omni's own reports back as evidence,
but git and other tools see the file. Exit 0 when every asked-for report was written,
whatever the findings; 2 when a PATH does not exist; 1 when nothing was linted (no
Python module in PATHS); pylint's status when it could not run or crashed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from pylint_omni.cli.precommit import BROKEN_MARKERS, FATAL, PYLINT_ARGS, USAGE_ERROR, project_packages
from pylint_omni.index.discovery import declares_namespace, packaging_text
from pylint_omni.index.paths import find_project_root
from pylint_omni.index.submodules import namespace_folders


def output_formats(markdown: str | None, json_path: str | None, sarif_path: str | None) -> str:
    """pylint's `--output-format` value; the Markdown report goes to stdout without `-o`."""
    formats = [f"omni-report:{markdown}" if markdown else "omni-report"]
    formats += [f"omni-json:{json_path}"] if json_path else []
    formats += [f"omni-sarif:{sarif_path}"] if sarif_path else []
    return ",".join(formats)


def _written(path: str, since: float) -> bool:
    try:
        stat = Path(path).stat()
    except OSError:
        return False
    return stat.st_size > 0 and stat.st_mtime >= since - 1


def missing_targets(targets: Sequence[str]) -> list[str]:
    """Targets that name no file or folder here (a dotted module name counts when its path exists)."""
    def exists(target: str) -> bool:
        path = Path(target)
        dotted = Path(target.replace(".", "/"))
        return path.exists() or dotted.is_dir() or dotted.with_suffix(".py").is_file()
    return [t for t in targets if not exists(t)]


def _modules_linted(json_path: str) -> int | None:
    try:
        return int(json.loads(Path(json_path).read_text(encoding="utf-8"))["scanned"]["modules_linted"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def namespace_contents(folder: Path) -> list[str]:
    """What pylint lints of a namespace package folder: its packages and modules, and the same of each folder
    without `__init__.py` under it, as `--recursive=y` would."""
    found = []
    for child in sorted(folder.iterdir()):
        if child.name.startswith(".") or child.name == "__pycache__":
            continue
        if child.is_dir():
            found += [str(child)] if (child / "__init__.py").is_file() else namespace_contents(child)
        elif child.suffix == ".py":
            found.append(str(child))
    return found


def skipped_folders(targets: Sequence[str]) -> list[str]:
    """Folders without `__init__.py` inside each package target that pylint's package walk would skip
    (`--recursive=y` too): the report names them as targets of their own, so the whole package is audited."""
    found = []
    for target in targets:
        package = Path(target)
        if not (package / "__init__.py").is_file():
            continue
        python = [path.relative_to(package.parent).as_posix() for path in package.rglob("*.py")
                  if not any(part.startswith(".") or part == "__pycache__" for part in path.relative_to(package).parts)]
        found += [str(package.parent / folder) for folder, _ in namespace_folders(python, lambda _path: True)]
    return [f for f in found if f not in targets]


def inside_project(files: Sequence[str], targets: Sequence[str], pylint_args: Sequence[str]) -> list[tuple[str, Path]]:
    """(file, project root) of each report file that would land inside the analysed project."""
    given = next((a.partition("=")[2] for a in pylint_args if a.startswith("--omni-root=")), "")
    roots = [Path(given).resolve()] if given else [find_project_root(Path(t).resolve()) for t in targets]
    found = []
    for file in files:
        path = Path(file).resolve()
        root = next((r for r in dict.fromkeys(roots) if r == path.parent or r in path.parents), None)
        if root is not None:
            found.append((file, root))
    return found


def run(paths: Sequence[str], markdown: str | None, json_path: str | None, sarif_path: str | None,
        pylint_args: Sequence[str] = ()) -> int:
    """Run pylint for the reports; `pylint_args` pass through (`--jobs=2`, `--confidence=HIGH`, `--omni-root=...`)."""
    targets = list(paths) or project_packages(Path.cwd())
    if not targets:
        print("pylint-omni report: no package here; pass the PATHS to audit", file=sys.stderr)
        return 2
    missing = missing_targets(targets)
    if missing:
        print(f"pylint-omni report: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    namespaces = [t for t in targets if Path(t).is_dir() and not (Path(t) / "__init__.py").is_file()
                  and next(Path(t).rglob("*.py"), None) is not None]
    packaging = packaging_text(find_project_root(Path.cwd().resolve())) if namespaces else ""
    undeclared = [t for t in namespaces if not declares_namespace(packaging, t)]
    if undeclared:
        # pylint cannot load such a folder as one module, and naming its packages instead would audit them under
        # other names than the project imports (`core.api` for `shop.core.api`): findings would be false.
        print(f"pylint-omni report: {', '.join(undeclared)} has no __init__.py (a namespace package the packaging files "
              "do not declare): pylint cannot lint it as one package; run from inside it on its packages, or add "
              "__init__.py", file=sys.stderr)
        return 2
    if namespaces:
        print(f"pylint-omni report: {', '.join(namespaces)} is a namespace package (declared in the packaging files): "
              "linting the packages and modules in it", file=sys.stderr)
        targets = [part for t in targets for part in (namespace_contents(Path(t)) if t in namespaces else [t])]
    skipped = skipped_folders(targets)
    if skipped:
        print(f"pylint-omni report: also linting {', '.join(skipped)} (no __init__.py: pylint's package walk skips "
              "them)", file=sys.stderr)
        targets += skipped
    inside = inside_project([p for p in (markdown, json_path, sarif_path) if p], targets, pylint_args)
    if inside:
        print(f"pylint-omni report: writing {', '.join(f for f, _ in inside)} inside the analysed project {inside[0][1]}: "
              "later runs never read it as evidence, but git sees it (ignore it, or write it outside: -o ../audit.md)",
              file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="pylint-omni-report-") as folder:
        counted = json_path or str(Path(folder) / "audit.json")  # to tell whether anything was linted
        command = [sys.executable, "-m", "pylint", *PYLINT_ARGS, *pylint_args,
                   f"--output-format={output_formats(markdown, counted, sarif_path)}", *targets]
        started = time.time()
        proc = subprocess.run(command, stderr=subprocess.PIPE, text=True, check=False)
        sys.stderr.write(proc.stderr)
        linted = _modules_linted(counted)
    files = [p for p in (markdown, json_path, sarif_path) if p]
    broken = proc.returncode & (FATAL | USAGE_ERROR) or any(marker in proc.stderr for marker in BROKEN_MARKERS)
    missing = [p for p in files if not _written(p, started)]
    if broken or missing:
        print(f"pylint-omni report: pylint failed (exit {proc.returncode})"
              + (f"; not written: {', '.join(missing)}" if missing else ""), file=sys.stderr)
        return proc.returncode or 1
    if not linted:
        print(f"pylint-omni report: nothing was linted in {', '.join(targets)} (no Python module there)", file=sys.stderr)
        return 1
    if files:
        print(f"pylint-omni report: wrote {', '.join(files)}", file=sys.stderr)
    return 0
