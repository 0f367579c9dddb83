"""One entry point for every scanner: facts of a file's text, by kind.

pylint-omni's own outputs saved inside a project (a baseline, a JSON audit or diff,
a Markdown audit report) name every finding's surface: read as inputs they would
become consumers of the very findings they list, so they are recognised by their
first line and contribute no mention.
"""

from __future__ import annotations

from typing import Any

from pylint_omni.index.scan.data_scan import InputProblem, added_lines, scan_json, scan_text, scan_toml, scan_yaml
from pylint_omni.index.scan.python_scan import scan_python

PATCH_SUFFIXES = (".patch", ".diff")


OWN_OUTPUT_MARKS = ('{"format": "pylint-omni-', '{\n  "format": "pylint-omni-', "# pylint-omni audit report")


def scan_file(kind: str, text: str, relpath: str, module: str, audited: bool | None = True) -> dict[str, Any]:
    """Facts of one file's text, by kind (raises InputProblem for unreadable content); `audited` false for a
    validation file, None for an upstream file (`scan_python`)."""
    if kind != "python" and text.lstrip("\ufeff").startswith(OWN_OUTPUT_MARKS):
        return {"kind": kind if kind in ("json", "doc") else "doc", "refs": {}}
    if kind == "python":
        facts = scan_python(text, module, relpath.endswith("__init__.py"), relpath, audited)
        if facts.get("error"):
            raise InputProblem(facts["error"])
        return facts
    if kind == "yaml":
        return scan_yaml(text)
    if kind == "json":
        return scan_json(text)
    if kind == "toml":
        return scan_toml(text, is_pyproject=relpath.rpartition("/")[2] == "pyproject.toml")
    if relpath.endswith(PATCH_SUFFIXES):
        text = added_lines(text)
    return scan_text(text, "doc" if kind == "doc" else "script")
