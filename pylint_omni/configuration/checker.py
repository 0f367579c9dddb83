"""`unread-config-option` (R7308): a config field, CLI option, environment option or deploy-config key nothing reads.

Surfaces come from the family's scanner (`scan`): fields of config classes, CLI
options (`add_argument`), module constants read from environment variables, and (in
`yaml_keys`) keys of the config files the package ships. Their readers come from
`readers.readers_of` and the rules from `judge`; an option also counts as unread when
`__post_init__` overwrites it before anything reads it. Every option is judged once
per project state (`plan`) and handed to the change-set stage (`pylint_omni.changes`),
which folds the unread fields of one config class into one change (and lone ones of one
package into one cleanup) and names the lost features (an option still set whose only readers are dead); this checker emits what
the stage planned for each module. Options declared under validation paths (tests,
examples, benchmarks) are not audited. A cold run judges every option while it waits
for the copies.
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.changes.emit import ChangeSetChecker
from pylint_omni.configuration.plan import SYMBOL, SYMBOLS, feeds, members
from pylint_omni.configuration.readers import SCANNER_KEY
from pylint_omni.configuration.scan import scan_options

SCANNERS = {SCANNER_KEY: scan_options}
SOURCE = ("configuration", SYMBOLS, members)
FEEDS = ("configuration", SYMBOLS, feeds)


class UnreadConfigOptionChecker(ChangeSetChecker):
    """Flags options that no production code reads."""

    SYMBOLS = SYMBOLS
    msgs = {
        "R7308": (
            "%s",
            SYMBOL,
            "A configuration option that reaches no production reader: a field of a config class "
            "(dataclass, pydantic, attrs, NamedTuple), a command-line option, a module constant read from an "
            "environment variable, or a key of a config file the package ships; or a field overwritten before "
            "it is read. The unread fields of one config class are one finding at the class, and lone unread "
            "fields of several classes of one package one cleanup at the package. Remove it (and "
            "what sets it), or wire it to the code it should configure.",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        self.emit_planned(node)


def register(linter: PyLinter) -> None:
    linter.register_checker(UnreadConfigOptionChecker(linter))
