"""pylint entry point: `pylint --load-plugins pylint_omni` registers every checker and the audit reporters.

One message family is one package (`registries/`, `abstractions/`, ...); each
family's `checker` module has a `register(linter)`, and may declare `SCANNERS`
(key -> function) that the index runs on every Python file it reads, and
`AUDITED_SCANNERS` that it runs only on the files the audit reports on (facts of
the reported code, never of a consumer: a test's fingerprints are never asked for),
and `BACKGROUND` project judgements that a cold run computes beside pylint's own
tree building, and `WHILE_WAITING` ones its main process computes while it waits
for them (`index.background`). A family that judges the whole project from the
index declares its `SOURCE` of members (and `FEEDS` of options) for the change-set
stage (`pylint_omni.changes`), which folds them into the changes a maintainer would
make; a cold run gathers each source's members while it waits. Every checker hands
its findings inside code a high-confidence change deletes to that change
(`OmniChecker.absorber`).
"""

from __future__ import annotations

import functools

from pylint.lint import PyLinter

from pylint_omni import reporters
from pylint_omni.changes.emit import absorbing
from pylint_omni.changes.model import register_feeds, register_source
from pylint_omni.changes.plan import plan_ahead, source_members, stage_symbols
from pylint_omni.abstractions import checker as abstractions
from pylint_omni.compat import checker as compat
from pylint_omni.configuration import checker as configuration
from pylint_omni.copies import checker as copies
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.split_run import note_targets
from pylint_omni.index.background import register_background_judgement
from pylint_omni.index.scanners import register_python_scanner
from pylint_omni.index.upstream import build_upstream
from pylint_omni.infrastructure import checker as infrastructure
from pylint_omni.inputs import checker as inputs
from pylint_omni.lifecycle import checker as lifecycle
from pylint_omni.options import OmniOptions, check_before_linting
from pylint_omni.reporters import summary
from pylint_omni.registries import checker as registries
from pylint_omni.state import checker as state
from pylint_omni.surfaces import checker as surfaces
from pylint_omni.tensors import materialization, payload

__all__ = ["register", "register_scanners", "load_configuration"]

FAMILIES = (
    inputs, registries, abstractions, state, materialization, payload, compat, configuration, surfaces, copies,
    lifecycle, infrastructure,
)


def register_scanners() -> None:
    """Hand every family's per-file scanners to the index (the CLI commands call it too)."""
    for family in FAMILIES:
        for key, scanner in getattr(family, "SCANNERS", {}).items():
            register_python_scanner(key, scanner)
        for key, scanner in getattr(family, "AUDITED_SCANNERS", {}).items():
            register_python_scanner(key, scanner, audited_only=True)
        for key, (symbols, judge) in getattr(family, "BACKGROUND", {}).items():
            register_background_judgement(key, judge, symbols)
        for key, (symbols, judge) in getattr(family, "WHILE_WAITING", {}).items():
            register_background_judgement(key, judge, symbols, in_child=False)
        if hasattr(family, "SOURCE"):
            name, symbols, members = family.SOURCE
            register_source(name, symbols, members)
            register_background_judgement(f"changes.{name}", functools.partial(source_members, name=name), symbols, in_child=False)
        if hasattr(family, "FEEDS"):
            register_feeds(*family.FEEDS)
    register_background_judgement("changes.plan", plan_ahead, stage_symbols(), in_child=False, per_messages=True)
    # The upstream packages, built beside pylint's build too (after the copies', which need only what they compare).
    register_background_judgement("index.upstream", build_upstream, stage_symbols())
    OmniChecker.absorber = absorbing


def register(linter: PyLinter) -> None:
    register_scanners()
    linter.register_checker(OmniOptions(linter))
    for family in FAMILIES:
        family.register(linter)
    reporters.register(linter)
    summary.install(linter)


def load_configuration(linter: PyLinter) -> None:
    """pylint's hook once the options are read: they are checked as each run starts, which tells the split run
    (`evidence.split_run`) what it lints."""
    check_before_linting(linter, note_targets)
