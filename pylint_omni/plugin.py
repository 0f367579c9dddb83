"""pylint entry point: `pylint --load-plugins pylint_omni` registers every checker and the audit reporters."""

from __future__ import annotations

from pylint.lint import PyLinter

from pylint_omni.checkers import input_problems, unused_registry_entry
from pylint_omni.checkers import single_implementation
from pylint_omni.checkers import duplicated_state
from pylint_omni.checkers import tensor_materialization
from pylint_omni.checkers import payload_conversion
from pylint_omni.options import OmniOptions, load_configuration
from pylint_omni import reporters

__all__ = ["register", "load_configuration"]


def register(linter: PyLinter) -> None:
    linter.register_checker(OmniOptions(linter))
    input_problems.register(linter)
    unused_registry_entry.register(linter)
    single_implementation.register(linter)
    duplicated_state.register(linter)
    tensor_materialization.register(linter)
    payload_conversion.register(linter)
    reporters.register(linter)
