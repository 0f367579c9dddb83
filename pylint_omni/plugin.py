"""pylint entry point: `pylint --load-plugins pylint_omni` registers every checker."""

from __future__ import annotations

from pylint.lint import PyLinter

from pylint_omni.checkers import unused_registry_entry
from pylint_omni.options import OmniOptions


def register(linter: PyLinter) -> None:
    linter.register_checker(OmniOptions(linter))
    unused_registry_entry.register(linter)
