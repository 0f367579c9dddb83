"""Every registry entry of the project judged once, as members of change sets (`pylint_omni.changes`).

An entry is a member of its table: the stage folds the unused entries of one table
into one change, and a table none of whose entries production reads through it into
the change that deletes the table and its accessors (a lazy-export map's module
`__getattr__` and `__dir__`), never the definitions other code uses; a class only the
table names goes with its entry (a member's `names` and `deletes` carry it). Functions of a module
loaded by qualname that no qualname reaches are members of their module.
"""

from __future__ import annotations

from pylint_omni.changes.model import Member, Span
from pylint_omni.evidence.memo import DEFINITION, STATEMENT, Planned
from pylint_omni.index.facts import RegistryFact
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.registries.liveness import EntryEvidence, judge_entry, read_registry
from pylint_omni.registries.qualname_modules import judge_module
from pylint_omni.registries.read_paths import TABLE_FORMS
from pylint_omni.registries.wording import SYMBOL, dying_target, entry_details, entry_text

SYMBOLS = frozenset({SYMBOL})
ACCESSORS = ("__getattr__", "__dir__")


def _accessors(index: ProjectIndex, relpath: str, registry: RegistryFact) -> tuple[tuple[str, Span], ...]:
    """A lazy-export map's module hooks: they exist only to serve the map."""
    if registry["form"] != "lazy-export":
        return ()
    return tuple((f["name"], (relpath, f["line"], f["end"])) for f in index.facts(relpath).get("functions", [])
                 if f["name"] in ACCESSORS and f.get("toplevel"))


def members(index: ProjectIndex) -> list[Member]:
    """The entries judged unused (and the rejected ideas), table by table, file by file."""
    found: list[Member] = []
    for relpath, facts in index.python_files():
        if index.location(relpath) is Location.VALIDATION:
            continue
        module = index.entries.get(relpath, {}).get("module", "")
        found.extend(_qualname_functions(index, relpath))
        for registry in facts.get("registries", []):
            reading = read_registry(index, relpath, registry)
            parts = _accessors(index, relpath, registry)
            container = f"{module or relpath}.{registry['name']}"
            exported = tuple((facts.get("links") or {}).get("all") or ())
            for entry in registry["entries"]:
                evidence = judge_entry(index, index.settings, relpath, registry, entry, reading)
                if evidence is None:
                    continue
                planned = Planned(SYMBOL, entry["line"], f"at:{entry['col']}", (entry_text(registry, entry, evidence),),
                                  evidence.verdict, entry_details(relpath, registry, entry, evidence, module, exported=exported))
                target = dying_target(registry, evidence)  # the definition only this entry names goes with it
                spans: tuple[Span, ...] = ((relpath, entry["span"][0], entry["span"][1]),) + (
                    ((target.path, target.data["line"], target.data["end"]),) if target is not None else ())
                found.append(Member(planned, relpath, entry["span"][1], "entry", entry["key"], container, "unused-entry",
                                    spans, siblings=len(registry["entries"]), parts=parts,
                                    container_at=(registry["line"], STATEMENT) if registry["form"] in TABLE_FORMS else None,
                                    names=(entry["key"], *((target.data["name"],) if target is not None else ()))))
    return found


def _qualname_functions(index: ProjectIndex, relpath: str) -> list[Member]:
    """Functions of a module loaded by qualname that no built qualname reaches (`qualname_modules`)."""
    found: list[Member] = []
    for judged in judge_module(index, relpath):
        data = judged.function.data
        registry: RegistryFact = {"name": judged.function.module, "form": "qualname-loaded module", "line": data["line"],
                                  "end": data["end"], "entries": []}
        entry = {"key": data["name"], "line": data["line"], "col": 0, "span": [data["line"], data["end"]], "target": None,
                 "suffix": False}
        evidence = EntryEvidence(judged.verdict, None, judged.consumers, [])
        details = entry_details(relpath, registry, entry, evidence, judged.function.module, judged.function.dotted)
        planned = Planned(SYMBOL, data["line"], DEFINITION, (entry_text(registry, entry, evidence),), judged.verdict, details)
        found.append(Member(planned, relpath, data["end"], "qualname-function", judged.function.dotted,
                            judged.function.module, "unused-entry"))
    return found
