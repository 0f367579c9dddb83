"""The oldest version a project supports of Python or a dependency, from what it declares (`declarations`).

Only lower bounds decide: every declaration must allow a version for it to be
supported, so the floor is the lowest lower bound among them; a declaration without
a lower bound allows every older version and leaves the floor unknown.
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from pylint_omni.index.declarations import Declared, declarations_of
from pylint_omni.index.project_index import ProjectIndex


@dataclass(frozen=True)
class Floor:
    """The oldest supported version of one thing, and what says so."""

    version: Version
    inclusive: bool
    exact: bool  # only this version (an `==` pin, or an installed version)
    source: str  # "`torch>=2.4.1` (setup.py:28)"
    confidence: str  # "high" | "medium"
    note: str = ""  # for medium: why the evidence is weaker



def floor_of_specifiers(specifiers: SpecifierSet) -> tuple[Version, bool, bool] | None:
    """(lowest allowed version, inclusive, exact) of a specifier set; None without a lower bound."""
    best: tuple[Version, bool, bool] | None = None
    for spec in specifiers:
        text = spec.version
        wildcard = text.endswith(".*")
        try:
            version = Version(text[:-2] if wildcard else text)
        except InvalidVersion:
            continue
        if spec.operator in (">=", "~=") or (spec.operator in ("==", "===") and wildcard):
            found = (version, True, False)
        elif spec.operator in ("==", "==="):
            found = (version, True, True)
        elif spec.operator == ">":
            found = (version, False, False)
        else:
            continue
        if best is None or found[0] > best[0]:
            best = found
    return best



def declared_floor(declared: list[Declared]) -> Floor | None:
    """The lowest lower bound among declarations (each must allow the version); None if one has no lower bound."""
    bounded = [d for d in declared if d.spec]
    if not bounded:
        return None
    lowest: tuple[Version, bool, bool, Declared] | None = None
    for item in bounded:
        specifiers = item.specifiers()
        found = floor_of_specifiers(specifiers) if specifiers is not None else None
        if found is None:
            return None  # this declaration allows every older version
        if lowest is None or found[0] < lowest[0] or (found[0] == lowest[0] and item.primary and not lowest[3].primary):
            lowest = (*found, item)
    assert lowest is not None
    version, inclusive, exact, item = lowest
    exact = exact and all(floor_of_specifiers(d.specifiers() or SpecifierSet()) == (version, True, True) for d in bounded)
    others = [d for d in bounded if d is not item]
    note = "" if item.primary else f"{item.source.partition(':')[0]} may list the requirements of one device or extra"
    source = f"`{item.text}` ({item.source})" + (f" and {len(others)} more declaration(s)" if others else "")
    return Floor(version, inclusive, exact, source, "high" if item.primary else "medium", note)


def project_floor(index: ProjectIndex, dist: str) -> Floor | None:
    """The declared floor of `python` (requires-python) or of a dependency that every install bounds."""
    declarations = declarations_of(index)
    return declared_floor(list(declarations.python) if dist == "python" else declarations.runtime(dist))
