"""`unread-config-option` (R7308): a config field, CLI option, environment option or deploy-config key nothing reads.

Surfaces come from the family's scanner (`scan`): fields of config classes, CLI
options (`add_argument`), module constants read from environment variables, and (in
`yaml_keys`) keys of the config files the package ships. Their readers come from
`readers.readers_of` and the rules from `judge`; an option also counts as unread when
`__post_init__` overwrites it before anything reads it. Options declared under
validation paths (tests, examples, benchmarks) are not audited. A cold run finds the
readers and judges the deploy-config keys while it waits for the copies (`WHILE_WAITING`).
"""

from __future__ import annotations

from typing import Any

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.configuration.judge import Judgment, judge_cli, judge_env, judge_field, overwritten_by
from pylint_omni.configuration.readers import SCANNER_KEY, Option, reader_index
from pylint_omni.configuration.scan import scan_options
from pylint_omni.configuration.wording import option_details, option_text, overwritten_details, overwritten_text
from pylint_omni.configuration.yaml_keys import judge_yaml_keys, yaml_findings
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.consumers import Status, Verdict

SYMBOL = "unread-config-option"
SCANNERS = {SCANNER_KEY: scan_options}
# Judged by a cold run's main process while its child judges the copies (`index.background`): the readers of every
# option, then every deploy-config key (which asks them).
WHILE_WAITING = {"configuration.readers": (frozenset({SYMBOL}), reader_index),
                 "configuration.yaml": (frozenset({SYMBOL}), judge_yaml_keys)}


class UnreadConfigOptionChecker(OmniChecker):
    """Flags options that no production code reads."""

    msgs = {
        "R7308": (
            "%s",
            SYMBOL,
            "A configuration option that reaches no production reader: a field of a config class "
            "(dataclass, pydantic, attrs, NamedTuple), a command-line option, a module constant read from an "
            "environment variable, or a key of a config file the package ships; or a field overwritten before "
            "it is read. Remove it (and what sets it), or wire it to the code it should configure.",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        found = self.audited_index_for(node)
        if found is None:
            return
        index, relpath = found
        facts: dict[str, Any] = index.extra(relpath, SCANNER_KEY) or {}
        module = index.entries.get(relpath, {}).get("module", "")
        for option, judgment, lines, where, surface in yaml_findings(index, relpath):
            self._emit(option, judgment, node, lines, where, surface)
        if not (facts.get("classes") or facts.get("cli") or facts.get("env")):
            return  # most modules declare no option: no walk of their tree
        positions = {(n.lineno, n.col_offset): n for n in node.nodes_of_class((nodes.AnnAssign, nodes.Assign, nodes.Call))}
        for klass in facts.get("classes", []):
            dotted = f"{module}.{klass['name']}" if klass.get("line") else klass["name"]
            dotted = next((d.dotted for d in index.definitions_named(klass["name"]) if d.path == relpath and d.data["line"] == klass["line"]), dotted)
            for name, line, col, end in klass["fields"]:
                at = positions.get((line, col))
                if at is not None:
                    self._field(index, relpath, dotted, klass, (name, line, end), at)
        for dest, flags, line, col, _ in facts.get("cli", []):
            at = positions.get((line, col))
            if at is not None:
                spellings = [f for f in flags if f.startswith("-")]
                option = Option("cli", dest, relpath, line, module, tuple([*spellings, *(f.lstrip("-") for f in spellings if len(f) > 3)]))
                end = getattr(at, "end_lineno", None) or line
                self._emit(option, judge_cli(index, option, (line, end)), at, end - line + 1)
        for name, var, line, col in facts.get("env", []):
            at = positions.get((line, col))
            if at is not None:
                option = Option("env", name, relpath, line, module, (var,))
                end = getattr(at, "end_lineno", None) or line
                self._emit(option, judge_env(index, option, (line, end)), at, end - line + 1)

    def _field(self, index: Any, relpath: str, dotted: str, klass: dict[str, Any], field: tuple[str, int, int],
               at: nodes.NodeNG) -> None:
        name, line, end = field
        option = Option("field", name, relpath, line, dotted)
        judgment = judge_field(index, option, klass, (line, end))
        if judgment.verdict.status is Status.LIVE:
            overwritten = overwritten_by(klass, name)
            if overwritten is not None:
                verdict = Verdict(Status.CANDIDATE, "high", f"overwritten at line {overwritten} before any read", [], [])
                self.emit(SYMBOL, at, verdict, (overwritten_text(option, overwritten),), overwritten_details(option, overwritten))
            return
        self._emit(option, judgment, at, end - line + 1)

    def _emit(self, option: Option, judgment: Judgment, at: nodes.NodeNG, lines: int, where: str = "",
              surface: list[str] | None = None) -> None:
        if judgment.verdict.status is Status.LIVE:
            return
        self.emit(SYMBOL, at, judgment.verdict, (option_text(option, judgment, where),), option_details(option, judgment, lines, surface))


def register(linter: PyLinter) -> None:
    linter.register_checker(UnreadConfigOptionChecker(linter))
