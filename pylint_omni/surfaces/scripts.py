"""Scripts the project documents as the way to run it: production roots, though they sit in a support folder.

`scripts/train.py` is validation code by the default globs (support material), so what
only it uses reads as "used only by tests". Where the docs, the README or a shell
script of the product run a script of `scripts/` or `tools/` by its path (`python
scripts/prepare_hidden_states.py ...`, `python -m scripts.train`), it is the product's
entry point: SpecForge's data preparation and speculators' training pipeline are
documented so. A test file is never one, nor a benchmark or an example (a benchmark's
own shell script running it says nothing of the product).
"""

from __future__ import annotations

from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location, matches_any
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.table import SURFACE_FACTS, TEST_GLOBS, SurfaceTable

RUNNER_KINDS = frozenset({"doc", "script"})  # Markdown/reST pages and shell scripts, Makefiles, Dockerfiles
# Support folders of programs users run; benchmarks and examples stay validation (a benchmark's own shell script
# running it says nothing of the product), with their own doubt ("examples use it").
SCRIPT_FOLDERS = ("scripts/**", "**/scripts/**", "tools/**", "**/tools/**")


def _documented(index: ProjectIndex) -> dict[str, str]:
    """Support-folder script (relpath) -> where a page or a shell script runs it (`path:line`)."""
    scripts = {rel: entry.get("module", "") for rel, entry in index.entries.items()
               if entry.get("kind") == "python" and index.location(rel) is Location.VALIDATION and matches_any(rel, SCRIPT_FOLDERS)
               and not matches_any(rel, TEST_GLOBS) and (index.extra(rel, SURFACE_FACTS) or {}).get("main")}
    if not scripts:
        return {}
    found: dict[str, str] = {}
    for rel, entry in sorted(index.entries.items()):
        # A page of the docs, or a shell script of the product (a CI job or a benchmark's runner is no product).
        if entry.get("kind") not in RUNNER_KINDS or entry.get("kind") == "script" and index.location(rel) is not Location.PRODUCTION:
            continue
        text = index.text(rel) or ""
        for script, module in scripts.items():
            if script in found:
                continue
            at = text.find(script)
            if at < 0 and module:
                at = text.find(f"-m {module}")
            if at >= 0:
                found[script] = f"{rel}:{text.count(chr(10), 0, at) + 1}"
    return found


_DOCUMENTED: Derived[dict[str, str]] = Derived("surfaces.documented_scripts", _documented)


def documented_script_roots(index: ProjectIndex, table: SurfaceTable) -> list[tuple[str, str]]:
    """(module, why) of each support-folder script the docs or a shell script run."""
    found = _DOCUMENTED.of(index)
    return [(module, f"a script the project documents running ({found[rel]})")
            for rel, module in table.module_of_path.items() if rel in found and module in table.surfaces]
