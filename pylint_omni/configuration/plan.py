"""Every option of the project judged once, as members of change sets and as feeds of lost features.

The family's facts (`scan`) give the options: fields of config classes, CLI options,
module constants read from environment variables, and (`yaml_keys`) keys of the
config files the package ships. Each is judged once per index state (`judge`); the
candidates become members (`pylint_omni.changes`: the unread fields of one config
class fold into one change), and the options production reads become *feeds*: when
every reader lies in code a change deletes and the option is still set (deploy YAML,
the command line, the docs), that change is a lost feature.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pylint_omni.changes.model import Feed, Member
from pylint_omni.configuration.cli_functions import unread_parameters
from pylint_omni.configuration.judge import Judgment, judge_cli, judge_env, judge_field, judge_parameter, overwritten_by
from pylint_omni.configuration.readers import SCANNER_KEY, Option, Readers
from pylint_omni.configuration.wording import option_details, option_text, overwritten_details, overwritten_text
from pylint_omni.configuration.yaml_keys import judge_yaml_keys, read_yaml_keys
from pylint_omni.evidence.consumers import Status, decide
from pylint_omni.evidence.memo import MODULE, STATEMENT, Planned
from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location, matches_any
from pylint_omni.index.project_index import ProjectIndex

SYMBOL = "unread-config-option"
# Example configs users start from set a feature as surely as a deploy file (nanotron's 19 example YAMLs set
# `tokens.limit_val_batches`, whose only reader is a validation loop nothing runs); tests' configs do not.
SHIPPED_EXAMPLES = ("examples/**", "**/examples/**")
SYMBOLS = frozenset({SYMBOL})


@dataclass(frozen=True)
class Judged:
    """One option, its judgment, and where its message goes."""

    option: Option
    judgment: Judgment
    relpath: str  # the file the message is in (a YAML key's: the package `__init__.py`)
    line: int
    end: int
    container: str  # the config class of a field, the module of a CLI or environment option, a key's config file
    siblings: int = 0  # fields of the same class
    overwritten: int | None = None  # a live field `__post_init__` overwrites (the line)
    where: str = ""
    surface: tuple[str, ...] = ()


def _class_dotted(index: ProjectIndex, relpath: str, module: str, klass: dict[str, Any]) -> str:
    return next((d.dotted for d in index.definitions_named(klass["name"])
                 if d.path == relpath and d.data["line"] == klass["line"]), f"{module}.{klass['name']}")


def _judge_all(index: ProjectIndex) -> list[Judged]:
    found: list[Judged] = []
    for anchor, items in sorted(judge_yaml_keys(index).items()):
        for option, judgment, lines, where, surface in items:
            # Keys fold by the config file that sets them first: one file's unread keys are one change.
            found.append(Judged(option, judgment, anchor, 1, lines, option.relpath, where=where, surface=tuple(surface)))
    for relpath, _ in index.python_files():
        if index.location(relpath) is Location.VALIDATION:
            continue
        facts: dict[str, Any] = index.extra(relpath, SCANNER_KEY) or {}
        module = index.entries.get(relpath, {}).get("module", "")
        for klass in facts.get("classes", []):
            dotted = _class_dotted(index, relpath, module, klass)
            for name, line, _, end in klass["fields"]:
                option = Option("field", name, relpath, line, dotted)
                judgment = judge_field(index, option, klass, (line, end))
                overwritten = overwritten_by(klass, name) if judgment.verdict.status is Status.LIVE else None
                found.append(Judged(option, _kept(index, option, judgment), relpath, line, end, dotted, len(klass["fields"]), overwritten))
        for dest, flags, line, _, _, end in facts.get("cli", []):
            spellings = [f for f in flags if f.startswith("-")]
            option = Option("cli", dest, relpath, line, module, tuple([*spellings, *(f.lstrip("-") for f in spellings if len(f) > 3)]))
            found.append(Judged(option, _kept(index, option, judge_cli(index, option, (line, end))), relpath, line, end, module))
        for name, var, line, _ in facts.get("env", []):
            option = Option("env", name, relpath, line, module, (var,))
            found.append(Judged(option, _kept(index, option, judge_env(index, option, (line, line))), relpath, line, line, module))
    found += _unread_parameters(index)
    return found


def _unread_parameters(index: ProjectIndex) -> list[Judged]:
    """Parameters of the functions command-line builders expose (`cli_functions`) that their body never reads."""
    found: list[Judged] = []
    seen: set[str] = set()
    for relpath, _ in index.python_files():
        if index.location(relpath) is Location.VALIDATION:
            continue
        for chain, _ in (index.extra(relpath, SCANNER_KEY) or {}).get("cli_functions", []):
            definition = index.resolve_target(chain)
            if definition is None or definition.kind != "function" or "." in definition.data["qual"] \
                    or definition.dotted in seen or index.location(definition.path) is Location.VALIDATION:
                continue
            seen.add(definition.dotted)
            params, reflective = unread_parameters(index.text(definition.path) or "", definition.data["qual"])
            judgment = judge_parameter(definition.data["qual"], reflective)  # one verdict: the function's, per flag
            at = definition.data["line"]  # shown at the `def` (a statement): the parameter's line is in the surface
            for name, line in params:
                option = Option("cli", name, definition.path, line, definition.dotted, (f"--{name}",))
                found.append(Judged(option, judgment, definition.path, at, at, definition.dotted))
    return found


JUDGED: Derived[list[Judged]] = Derived("configuration.judged", _judge_all)


def _member(judged: Judged) -> Member | None:
    option, judgment = judged.option, judged.judgment
    anchor = MODULE if option.kind == "yaml" else STATEMENT
    if judged.overwritten is not None:
        verdict = decide(f"overwritten at line {judged.overwritten} before any read")
        planned = Planned(SYMBOL, judged.line, anchor, (overwritten_text(option, judged.overwritten),), verdict,
                          overwritten_details(option, judged.overwritten))
        return Member(planned, judged.relpath, judged.end, "overwritten", f"{option.owner}.{option.name}", judged.container,
                      "overwritten")
    if judgment.verdict.status is Status.LIVE:
        return None
    lines = judged.end - judged.line + 1 if option.kind != "yaml" else judged.end
    planned = Planned(SYMBOL, judged.line, anchor, (option_text(option, judgment, judged.where),), judgment.verdict,
                      option_details(option, judgment, lines, list(judged.surface) or None))
    dotted = f"{option.owner}.{option.name}" if option.kind == "field" else option.owner or option.name
    return Member(planned, judged.relpath, judged.line if option.kind == "yaml" else judged.end, option.kind, dotted,
                  judged.container, "unread", siblings=judged.siblings)


def members(index: ProjectIndex) -> list[Member]:
    """The options judged unread (or overwritten before any read), as members of change sets."""
    return [m for m in (_member(j) for j in JUDGED.of(index)) if m is not None]


def _produced(index: ProjectIndex, option: Option, readers: Readers) -> tuple[str, list[str]]:
    """(how, where) a read option comes from: the production files that set it, the docs that document it, the
    command-line flag that offers it; none: nothing feeds it."""
    configured = [c.describe() for c in readers.configured
                  if index.location(c.path) is Location.PRODUCTION or matches_any(c.path, SHIPPED_EXAMPLES)]
    produced = configured + [c.describe() for c in readers.documented]
    how = "set" if configured else "documented"
    if option.kind == "cli":
        produced.insert(0, f"{option.spellings[0] if option.spellings else option.name} ({option.relpath}:{option.line})")
        how = "offered"
    return how, produced


def _kept(index: ProjectIndex, option: Option, judgment: Judgment) -> Judgment:
    readers = judgment.readers
    return judgment.kept(bool((readers.production or readers.copies) and _produced(index, option, readers)[1]))


def feeds(index: ProjectIndex) -> list[Feed]:
    """Options production reads that something still sets: if their readers die, the feature is lost."""
    found: list[Feed] = []
    for judged in JUDGED.of(index):
        option, readers = judged.option, judged.judgment.readers
        # A copy into another holder (`self.limit = config.limit`) is where the option is applied: it reads it.
        applied = [(c.path, c.line) for c in readers.production] + [(c.path, c.line) for c, _, _ in readers.copies]
        if judged.judgment.verdict.status is not Status.LIVE or not applied:
            continue
        how, produced = _produced(index, option, readers)
        if not produced:
            continue
        what = {"field": f"config field `{option.owner.rpartition('.')[2]}.{option.name}`",
                "cli": f"command-line option `{option.spellings[0] if option.spellings else option.name}`",
                "env": f"environment option `{option.spellings[0] if option.spellings else option.name}`",
                "yaml": f"config key `{option.owner or option.name}`"}[option.kind]
        found.append(Feed(what, how, tuple(produced), tuple(dict.fromkeys(applied)), (option.relpath, option.line)))
    for key in read_yaml_keys(index):
        if key.readers.production and not key.readers.copies:
            found.append(Feed(f"config key `{key.option.owner}`", "set", tuple(f"{rel}:{line}" for rel, line in key.files[:3]),
                              tuple((c.path, c.line) for c in key.readers.production), key.files[0]))
    return found
