"""`omni-unreadable-input(s)`: files the index could not read, named with the reason.

Broken YAML/TOML/JSON, alias bombs, Python tags in YAML, binary or non-UTF-8 files,
syntax errors, files over the size cap, links that leave the project: the run goes on
without that file's facts. A linted module whose own file the index had to skip gets
`omni-unreadable-input` where the user can act on it; every other file is listed in
one `omni-unreadable-inputs` summary per run, on the top-level package's
`__init__.py` (visited once per run whatever `-j` is). Templated YAML (Helm, Jinja)
is read as text, not reported; an unwritable cache is a warning about the cache
(stderr and the report header), not an input problem.
"""

from __future__ import annotations

from astroid import nodes
from pylint.interfaces import HIGH
from pylint.lint import PyLinter

from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.contracts import contracts_of


MAX_LISTED = 10  # unreadable files named one by one before a summary message


class InputProblemsChecker(OmniChecker):
    """Says which inputs the project index could not use, and why."""

    memoised = False  # said from the index's problems of this run, never replayed

    msgs = {
        "I7301": (
            "pylint-omni could not fully read %s: %s; consumers in it may be missing from the evidence",
            "omni-unreadable-input",
            "A Python module of the project could not be read by the index (a syntax error, too "
            "large, binary, not UTF-8). The run goes on without its facts; findings that a consumer "
            "in that file would have saved may be wrong.",
        ),
        "I7302": (
            "pylint-omni could not fully read %d other project file(s); consumers in them may be missing "
            "from the evidence: %s",
            "omni-unreadable-inputs",
            "Files of the project other than the linted modules (YAML, TOML, JSON, docs, tests, links "
            "out of the project, design-page front matter) that the index could not read, said once per "
            "run on the top-level package. `python -m pylint_omni index` lists them all.",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        found = self.index_for(node)
        if found is None:
            return
        index, relpath = found
        if relpath in index.problems:
            self.add_message("omni-unreadable-input", node=node, args=(relpath, index.problems[relpath]), confidence=HIGH)
        if node.package and "." not in node.name:
            # Once per run: files that are not modules of this package (theirs are said on the module).
            own = node.name + "."
            problems = {
                path: reason for path, reason in index.problems.items()
                if not (index.entries.get(path, {}).get("module", "") + ".").startswith(own)
            }
            problems.update({path: f"design contract front matter: {reason}" for path, reason in contracts_of(index).problems.items()})
            if problems:
                shown = [f"{path} ({reason})" for path, reason in sorted(problems.items())[:MAX_LISTED]]
                more = len(problems) - len(shown)
                listing = "; ".join(shown) + (f"; and {more} more (python -m pylint_omni index lists them)" if more else "")
                self.add_message("omni-unreadable-inputs", node=node, args=(len(problems), listing), confidence=HIGH)


def register(linter: PyLinter) -> None:
    linter.register_checker(InputProblemsChecker(linter))
