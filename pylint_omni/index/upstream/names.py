"""What an upstream package does with names, from its per-file facts: the `names` part of its summary.

Built with the summary (`upstream.build`), from the same scan, and cached per
distribution name and version beside the other parts. Three tables, each name -> the first place (`path,line,via`):
- `reads`: names upstream code reads off objects — attribute reads (`x.name`) and
  literal `getattr`/`hasattr` names — whatever the receiver;
- `accepts`: names upstream code takes — parameters (a keyword a caller may hand in)
  and annotated fields of class bodies (dataclass, pydantic and attrs fields);
- `modules`: module -> the names it binds at import time (definitions, assignments,
  imports, lazy exports), its `from x import *` sources, and the lines of its
  top-level definitions: what `hasattr(module, "name")` finds.
Test, benchmark and example folders shipped inside a package are left out.
"""

from __future__ import annotations

from typing import Any, Iterable

from pylint_omni.index.scan.tokens import decode_hits

NAMES_VERSION = 1
SKIPPED_PARTS = frozenset({"tests", "test", "benchmarks", "examples"})
READ_VIAS = frozenset({"attr", "getattr"})


def _skipped(relpath: str) -> bool:
    return any(part in SKIPPED_PARTS for part in relpath.split("/")[:-1])


def _accepted(facts: dict[str, Any]) -> list[tuple[str, int, str]]:
    """(name, line, via) of every parameter and class-body field of one file."""
    found: list[tuple[str, int, str]] = []
    for data in facts.get("functions", []):
        for param in (data.get("params") or "").split(","):
            if param and not param.startswith("*") and param not in ("self", "cls"):
                found.append((param, data["line"], "parameter"))
    for data in facts.get("classes", []):
        found += [(name, data["line"], "field") for name in (data.get("fields") or "").split(",") if name]
    return found


def summarize_names(files: Iterable[tuple[str, str, dict[str, Any]]]) -> dict[str, Any]:
    """The `names` part of a package's summary, from its files' (relpath, module, facts) in relpath order."""
    reads: dict[str, str] = {}
    accepts: dict[str, str] = {}
    modules: dict[str, dict[str, Any]] = {}
    for rel, module, facts in files:
        links = facts.get("links") or {}
        bindings = links.get("bindings") or {}
        lines = {d["name"]: d["line"] for key in ("classes", "functions") for d in facts.get(key, []) if "." not in d["qual"]}
        modules[module] = {
            "names": ",".join(sorted({*(k for k in bindings if k != "*"), *(links.get("lazy") or {})})),
            "stars": list(bindings.get("*", [])),
            "lines": lines,
            "path": rel,
        }
        if _skipped(rel):
            continue
        for token, encoded in (facts.get("refs") or {}).items():
            if token in reads:
                continue
            for line, via in decode_hits(encoded):
                if via in READ_VIAS:
                    reads[token] = f"{rel},{line},{via}"
                    break
        for name, line, via in _accepted(facts):
            accepts.setdefault(name, f"{rel},{line},{via}")
    return {"version": NAMES_VERSION, "reads": reads, "accepts": accepts, "modules": modules}


def defined_in(modules: dict[str, dict[str, Any]], module: str, name: str, depth: int = 0) -> tuple[str, int] | None:
    """(path, line) where `module` binds `name` at import time (a submodule counts: `path`, line 0), or None."""
    table = modules.get(module)
    if table is None:
        return None
    submodule = modules.get(f"{module}.{name}")
    if submodule is not None:
        return submodule["path"], 0
    if name in table["names"].split(","):
        return table["path"], table["lines"].get(name, 0)
    for star in table["stars"]:
        found = defined_in(modules, star, name, depth + 1) if depth < 4 else None
        if found is not None:
            return found
    return None
