"""Where production code reads a class's objects by reflection: every field of it has a reader.

The `reflected_types` fact (`index.scan.state_scan`: `asdict(obj)`, `fields(Cls)` beside
a `getattr`, `vars(self)`, table builders) names the classes a file walks. A class is
read so itself, or through a project base when the walk is elsewhere: ChatLearn's
`set_megatron_cfg(cfg: BaseConfig)` copies every field of whatever config subclass it
is handed. A base walking itself in its own module (verl's `BaseConfig.__iter__`, a
Mapping over `fields(self)`) says only that a config can be walked, not that one is.
Tests that walk an object read nothing production keeps. Asked by the state and
configuration families alike.
"""

from __future__ import annotations

from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex


def _sites(index: ProjectIndex) -> dict[str, list[str]]:
    """Class name -> the production files that walk its objects, in index order."""
    found: dict[str, list[str]] = {}
    for rel, facts in index.python_files():
        if index.location(rel) is Location.PRODUCTION:
            for name in facts.get("reflected_types", ()):
                found.setdefault(name, []).append(rel)
    return found


_SITES: Derived[dict[str, list[str]]] = Derived("evidence.reflection_sites", _sites)


def reflection_site(index: ProjectIndex, name: str, dotted: str) -> str | None:
    """The file that reads the class `name` (at `dotted`) by reflection (`path (through its base Base)` when the
    walk is over a project base, elsewhere than the base's own module); None when nothing does."""
    found = _SITES.of(index)
    if name in found:
        return found[name][0]
    for ancestor in class_graph(index).ancestors(dotted):
        definition = index.resolve_target(ancestor)
        if definition is None:
            continue  # a library base: a walk over it says nothing of this project's subclasses
        base = ancestor.rpartition(".")[2]
        elsewhere = [rel for rel in found.get(base, ()) if rel != definition.path]
        if elsewhere:
            return f"{elsewhere[0]} (through its base {base})"
    return None
