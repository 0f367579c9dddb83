"""What a production import of a computed module name may load (`dyn_imports` of `surfaces.scan`).

A module such an import may load is not surely dead, nor a class of it only tests use:
the loader may enumerate the module's classes (TorchServe's envelopes: the module named
by a config value, then its first class). Asked by the dead, test-only and unwired
verdicts alike.
"""

from __future__ import annotations

from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import SurfaceAnalysis
from pylint_omni.surfaces.reach import LOADED_BY, PRODUCTION
from pylint_omni.surfaces.table import SURFACE_FACTS, Surface, may_load


def computed_import(index: ProjectIndex, analysis: SurfaceAnalysis, module: Surface) -> str | None:
    """A production import whose module name is computed (`import_module(f"{pkg}.{name}")` over a package walk) and
    may load this module (None for a surface that is not a module): what only tests import may still run
    (llm-compressor's modifier factory walks its modifier packages). A class of such a module too, when production
    reaches its module only through that import (the loader may take its classes by enumeration)."""
    dotted = module.dotted if module.kind == "module" else analysis.table.module_of_path.get(module.path, "")
    if module.kind not in ("module", "class") or not dotted or (module.kind == "class" and module.container != dotted):
        return None
    if module.kind == "class" and analysis.reach.phase.get(dotted) == PRODUCTION and not analysis.reach.why.get(
            dotted, "").startswith(LOADED_BY):
        return None  # production imports the module by name: a loader would name the class too (vllm-omni's registry)
    for rel in analysis.table.module_of_path:
        for line, prefix in (index.extra(rel, SURFACE_FACTS) or {}).get("dyn_imports", []):
            # A class of a module loaded by a computed name is found by enumerating the module (TorchServe's
            # envelopes: `import_module(".{0}".format(name), "ts...request_envelope")`, then its first class); an
            # import of any module at all (no literal head) says nothing of one class.
            if (module.kind == "module" or prefix) and may_load(prefix, dotted) and index.location(rel) is Location.PRODUCTION:
                return f"a computed import at {rel}:{line} may load {'it' if module.kind == 'module' else 'its module'}"
    return None
