"""`omni-unreadable-input`: a file the index could not read, named with the reason.

Broken YAML/TOML/JSON, alias bombs, Python tags in YAML, binary or non-UTF-8 files,
syntax errors, files over the size cap, links that leave the project: each costs one
informational message and the run goes on without that file's facts. The messages are
emitted on the top-level package's `__init__.py` (visited once per run whatever `-j`
is), and on a linted module whose own file the index had to skip.
"""

from __future__ import annotations

from astroid import nodes
from pylint.interfaces import HIGH
from pylint.lint import PyLinter

from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.contracts import contracts_of


class InputProblemsChecker(OmniChecker):
    """Says which inputs the project index could not use, and why."""

    msgs = {
        "I7301": (
            "pylint-omni could not fully read %s: %s; consumers in it may be missing from the evidence",
            "omni-unreadable-input",
            "A file of the project could not be read by the index (malformed, hostile, binary, "
            "too large, a link out of the project, or a syntax error). The run goes on without it; "
            "findings that a consumer in that file would have saved may be wrong.",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        found = self.index_for(node)
        if found is None:
            return
        index, relpath = found
        if node.package and "." not in node.name:
            # Files of this package are reported when their own module is visited.
            own = node.name + "."
            problems = {
                path: reason for path, reason in index.problems.items()
                if not (index.entries.get(path, {}).get("module", "") + ".").startswith(own)
            }
            problems.update({path: f"design contract front matter: {reason}" for path, reason in contracts_of(index).problems.items()})
            if index.cache_note:
                problems["<cache>"] = index.cache_note
            for path, reason in sorted(problems.items()):
                self.add_message("omni-unreadable-input", node=node, args=(path, reason), confidence=HIGH)
        if relpath in index.problems:
            self.add_message("omni-unreadable-input", node=node, args=(relpath, index.problems[relpath]), confidence=HIGH)


def register(linter: PyLinter) -> None:
    linter.register_checker(InputProblemsChecker(linter))
