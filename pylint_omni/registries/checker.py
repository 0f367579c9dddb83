"""`unused-registry-entry`: a registry entry whose key and target have no production consumer.

Registries are string-keyed tables that name code (see `index.scan.registry_scan`). An
entry is live when its key or its target is used by production code or runtime
configuration outside the registry itself; otherwise the evidence pass decides
between a high- or medium-confidence candidate and a rejected idea
(`registries.liveness`). Every entry is judged once per project state (`plan`) and
handed to the change-set stage (`pylint_omni.changes`), which folds the unused
entries of one table into one change (a table nobody reads through: the table and its
accessors); this checker emits what the stage planned for each module. Declarations
under validation paths (tests, examples) are not audited: they are not a supported surface.
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.changes.emit import ChangeSetChecker
from pylint_omni.registries.plan import SYMBOLS, members
from pylint_omni.registries.wording import SYMBOL

SOURCE = ("registries", SYMBOLS, members)


class UnusedRegistryEntryChecker(ChangeSetChecker):
    """Flags registry entries that nothing in production looks up."""

    SYMBOLS = SYMBOLS
    msgs = {
        "R7301": (
            "%s",
            SYMBOL,
            "A registry entry (string-keyed table, import-string Enum, @register(\"key\") "
            "decorator, REG[key] = X) whose key and target have no production consumer: "
            "not in code, deploy YAML, CLI choices or defaults, env defaults or entry points. "
            "The unused entries of one table are one finding; a table none of whose entries is read "
            "through it is one finding at the table. Remove the entry (and its target when nothing else uses it).",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        self.emit_planned(node)


def register(linter: PyLinter) -> None:
    linter.register_checker(UnusedRegistryEntryChecker(linter))
