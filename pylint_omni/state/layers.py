"""Whether passing an owner object instead of its fields would join two layers that do not depend on each other.

aibrix (round 13): `K8sEndpointSliceDiscovery(namespace=handle.namespace, ...)` in the job
driver copies three values of its `DeploymentHandle`; the client package never imports the
job driver, so "pass the handle" would make the lower layer depend on the upper one. A few
values handed across a layer boundary is the boundary working, not duplicated ownership.
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.index.derived import Derived
from pylint_omni.index.project_index import ProjectIndex

def _package(module: str) -> str:
    return module.rpartition(".")[0]


def _package_imports(index: ProjectIndex) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for relpath, entry in index.entries.items():
        module = entry.get("module", "")
        if not module:
            continue
        imported = index.facts(relpath).get("imports", {})
        targets = found.setdefault(_package(module), set())
        for dotted in imported.values() if isinstance(imported, dict) else ():
            if isinstance(dotted, str):
                targets.add(dotted)
    return {package: frozenset(targets) for package, targets in found.items()}


# package -> the dotted names its modules import (`a.b.c` imports `x.y.z`: `a.b` -> `x.y.z`)
_PACKAGE_IMPORTS: Derived[dict[str, frozenset[str]]] = Derived("state.package_imports", _package_imports)


def layer_doubt(index: ProjectIndex, target: nodes.ClassDef, source: nodes.ClassDef | None) -> str | None:
    """A doubt when the built class's package imports nothing from the owner's package (see the module docstring)."""
    if source is None:
        return None
    built, owner = _package(target.root().name), _package(source.root().name)
    if not built or not owner or built == owner or built.startswith(owner + ".") or owner.startswith(built + "."):
        return None
    imports = _PACKAGE_IMPORTS.of(index)
    depends = [package for package in imports if package == built or package.startswith(built + ".")]
    if any(dotted == owner or dotted.startswith(owner + ".") for package in depends for dotted in imports[package]):
        return None
    return (f"{target.name} ({built}) imports nothing from {owner}, where {source.name} lives: passing the "
            f"{source.name} would make that layer depend on this one; a few values across the boundary keep them apart")
