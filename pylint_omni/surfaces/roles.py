"""What a test-only surface may be besides dead code, when the code itself says so: the decision then
is not "delete it", and the finding is medium with its own fix.

- a *reference implementation*: its docstring calls it one ("reference-only", "naive
  implementation", "for parity tests"), or its name is a production function's stem with a
  reference suffix (`chunk_rule_pytorch` beside the production `chunk_rule_310`, in the same
  module or package). Tests compare against it: move it to the tests or keep it as a parity oracle;
- an *unregistered op*: production registers the functions of two or more sibling modules of
  its folder by value (`lib.impl("aten::mm", mm_batch_invariant)`, a table of them, in code
  outside the folder) and never this one: a port not wired yet, where siblings that production
  calls directly (a folder of kernels) say nothing;
- a *missing call*: a method that prunes a container its class holds (`self._ids.discard`,
  `del self._ids[k]`) that production fills, while no production method prunes it on completion
  (keys drawn from something named finished/done/completed), drains it (`.pop(0)` in an eviction
  loop, `.clear()`) or resets it outside `__init__`:
  without the call the container only grows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pylint_omni.index.derived import Table
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import SurfaceAnalysis
from pylint_omni.surfaces.outside import own_docstring
from pylint_omni.surfaces.reach import PRODUCTION
from pylint_omni.surfaces.table import SURFACE_FACTS, Surface

REFERENCE_DOC = re.compile(
    r"\breference[- ]only\b|\breference\s+(?:implementation|impl|version|kernel)\b"
    r"|\bnaive\s+(?:implementation|version|reference|python|pytorch|torch)\b"
    r"|\bfor\s+(?:testing|tests|parity)\b|\bparity\s+(?:oracle|checks?|tests?)\b", re.IGNORECASE)
REFERENCE_SUFFIXES = ("_pytorch", "_torch", "_ref", "_naive", "_reference")
COMPLETION = re.compile(r"finish|done|complet|success|expire|releas", re.IGNORECASE)
MIN_REGISTERED_MODULES = 2  # sibling modules registered by value before an unregistered one looks forgotten

_REGISTERED: Table[str, tuple[list[str], str] | None] = Table("surfaces.registered")


@dataclass(frozen=True)
class Role:
    """Why the surface is kept, and the fix the message gives instead of deleting it."""

    doubt: str
    fix: str


def _live(analysis: SurfaceAnalysis, dotted: str) -> bool:
    return analysis.reach.phase.get(dotted) == PRODUCTION


def _reference(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> Role | None:
    fix = "a reference implementation: move it to tests or keep it as a parity oracle"
    said = REFERENCE_DOC.search(own_docstring(index, root))
    if said:
        return Role(f'its docstring calls it a reference ("{said.group(0)}")', fix)
    suffix = next((s for s in REFERENCE_SUFFIXES if root.name.endswith(s)), None)
    if suffix is None or root.container is None:
        return None
    stem = root.name[: -len(suffix)]
    table = analysis.table
    if root.kind == "method":
        places = [root.container]
    else:
        folder = root.path.rpartition("/")[0]
        places = [m for rel, m in table.module_of_path.items() if rel.rpartition("/")[0] == folder and table.surfaces[m].production]
    for place in places:
        for sibling in table.children.get(place, ()):
            surface = table.surfaces[sibling]
            if surface.kind == root.kind and surface.name.startswith(stem) and sibling != root.dotted and _live(analysis, sibling):
                return Role(f"a reference beside production's {surface.name} (same stem, suffix {suffix})", fix)
    return None


def registered_siblings(index: ProjectIndex, analysis: SurfaceAnalysis, module: str) -> tuple[list[str], str] | None:
    """Functions of other modules of `module`'s folder that production outside the folder hands over by value
    (two modules or more), with where: the folder's ops are registered, not called (memoised per folder)."""
    table = analysis.table
    folder = table.surfaces[module].path.rpartition("/")[0]
    memo = _REGISTERED.values(index)
    if folder not in memo:
        graph = graph_of(index)
        found: dict[str, str] = {}
        for rel, other in table.module_of_path.items():
            if rel.rpartition("/")[0] != folder or not table.surfaces[other].production:
                continue
            for child in table.children.get(other, ()):
                if table.surfaces[child].kind != "function" or not _live(analysis, child):
                    continue
                where = next((f"{r.path}:{r.line}" for r in graph.refs_to(child) if r.via == "load"
                              and r.path.rpartition("/")[0] != folder and index.location(r.path) is Location.PRODUCTION), None)
                if where:
                    found[child] = where
        modules = {d.rpartition(".")[0] for d in found}
        memo[folder] = (sorted(found), min(found.values())) if len(modules) >= MIN_REGISTERED_MODULES else None
    found_here = memo[folder]
    if found_here is None:
        return None
    others = [d for d in found_here[0] if d.rpartition(".")[0] != module]
    return (others, found_here[1]) if len({d.rpartition(".")[0] for d in others}) >= MIN_REGISTERED_MODULES else None


def _unregistered(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> Role | None:
    if root.kind not in ("function", "module"):
        return None
    module = root.dotted if root.kind == "module" else analysis.table.module_of_path.get(root.path, "")
    found = registered_siblings(index, analysis, module) if module else None
    if found is None:
        return None
    names, where = found
    shown = ", ".join(analysis.table.surfaces[d].name for d in names[:2])
    return Role(f"production registers its sibling ops by value ({shown} at {where}), not this one: an op never registered",
                "unwired: register it or drop it")


def _missing_call(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> Role | None:
    if root.kind != "method" or root.container is None:
        return None
    table = analysis.table
    owner = table.surfaces[root.container]
    module = table.module_of_path.get(owner.path, "")
    qual = root.container[len(module) + 1:]
    edits = [e for e in (index.extra(owner.path, SURFACE_FACTS) or {}).get("edits", ()) if e[0] == qual]
    for attr in sorted({e[2] for e in edits if e[1] == root.name and e[3] != "fill"}):
        mine = [e for e in edits if e[2] == attr and e[1] != root.name and _live(analysis, f"{root.container}.{e[1]}")]
        fills = [e for e in mine if e[3] == "fill"]
        on_completion = [e for e in mine if e[3] in ("reset", "drain") or (e[3] == "prune" and COMPLETION.search(e[5]))]
        if fills and not on_completion:
            return Role(f"production fills self.{attr} ({fills[0][1]}, line {fills[0][4]}) and prunes it on no completion "
                        "path: this method is that step",
                        f"possible missing call: production fills self.{attr} and only this prunes it; call it, or delete it")
    return None


def role_of(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> Role | None:
    """The role the code gives a test-only surface (see the module docstring), or None."""
    return _missing_call(index, analysis, root) or _reference(index, analysis, root) or _unregistered(index, analysis, root)
