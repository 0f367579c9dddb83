"""Words of `unread-config-option`: the short message, the report details and the benefit."""

from __future__ import annotations

from pylint_omni.configuration.judge import Judgment
from pylint_omni.configuration.readers import Option
from pylint_omni.evidence.benefit import Benefit, BenefitKind, Heat
from pylint_omni.evidence.consumers import Status
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import short_message

WHAT = {
    "field": "Config field `{owner}.{name}`",
    "cli": "Command-line option `{spelling}`",
    "env": "Environment option `{name}`{spelling_note}",
    "yaml": "Deploy-config key",
}
FIX = {
    "field": "remove the field (and what sets it)",
    "cli": "remove the option, or wire it to the code it should configure",
    "env": "remove the constant and the variable",
    "yaml": "remove the key from the config files, or read it",
}


def _what(option: Option) -> str:
    owner = option.owner.rpartition(".")[2]
    spelling = option.spellings[0] if option.spellings else option.name
    note = f" (`{spelling}`)" if spelling != option.name else ""
    return WHAT[option.kind].format(owner=owner, name=option.name, spelling=spelling, spelling_note=note)


def _evidence(judgment: Judgment) -> str:
    verdict = judgment.verdict
    if verdict.status is Status.REJECTED:
        return f"rejected: {verdict.reason}"
    if judgment.readers.validation:
        return f"read only by {judgment.readers.validation[0].describe()}" + (
            f" and {len(judgment.readers.validation) - 1} more validation place(s)" if len(judgment.readers.validation) > 1 else "")
    if verdict.confidence == "medium" and verdict.unknowns:
        return f"{verdict.reason}; {verdict.unknowns[0]}"
    return verdict.reason + "; searched code, YAML, docs and tests"


def option_text(option: Option, judgment: Judgment, where: str = "") -> str:
    what = _what(option) + (f" {where}" if option.kind == "yaml" else f" ({where})" if where else "") + " has no production reader"
    return short_message(what, FIX[option.kind], _evidence(judgment))


def overwritten_text(option: Option, line: int) -> str:
    what = f"Config field `{option.owner.rpartition('.')[2]}.{option.name}` is overwritten in `__post_init__` (line {line}) before anything reads it"
    return short_message(what, "make it `field(init=False)` or stop overwriting it", "the value a caller passes is dropped")


def option_subject(option: Option) -> str:
    """The option's qualified name for its finding id: `pkg.mod.Config.field`, `pkg.cli:--flag`, `file::a.b[].c`."""
    if option.kind == "field":
        return f"{option.owner}.{option.name}"
    if option.kind == "yaml":
        return f"{option.relpath}::{option.owner or option.name}"
    spelled = option.spellings[0] if option.spellings else option.name
    return f"{option.owner or option.relpath}:{spelled}"


def option_details(option: Option, judgment: Judgment, lines: int, surface: list[str] | None = None) -> FindingDetails:
    spelled = f" ({', '.join(option.spellings)})" if option.spellings else ""
    found = surface or [f"{option.relpath}:{option.line} {option.kind} {option.name}{spelled}"]
    found += [f"{c.path}:{c.line} sets it ({c.via})" for c in judgment.readers.configured[:5]]
    found += [f"copied into {c}" for c in judgment.copied_to]
    simplification = {
        "field": f"Remove the field `{option.name}` and every place that sets it (constructor keywords, YAML keys).",
        "cli": f"Remove the option{spelled}; if it was meant to configure something, wire it there instead.",
        "env": f"Remove the constant `{option.name}`{spelled}.",
        "yaml": f"Remove the key `{option.name}` from every config file that sets it, or read it where it belongs.",
    }[option.kind]
    if judgment.readers.discounted:
        simplification += " Reads of the same name on other classes were not counted: " + "; ".join(judgment.readers.discounted[:3]) + "."
    benefit = Benefit(lines, BenefitKind.CONFIG, f"one {option.kind} option a user can set and nothing reads", Heat.COLD, micro=lines <= 1)
    risk = ("A user or a config outside this repository that sets it would get an error (or silence) after removal; "
            "check external configs and docs.")
    return FindingDetails(found, simplification, benefit, risk, [option.name], subject=option_subject(option), kind=option.kind)


def overwritten_details(option: Option, line: int) -> FindingDetails:
    return FindingDetails(
        [f"{option.relpath}:{option.line} field {option.name}", f"{option.relpath}:{line} overwrites it in __post_init__"],
        f"Make `{option.name}` a derived field (`field(init=False)`), or stop overwriting the value the caller gave.",
        Benefit(1, BenefitKind.CONFIG, "one constructor option whose value is always replaced", Heat.COLD, micro=True),
        "Callers that pass the option expect it to take effect; removing it from the constructor makes them fail loudly.",
        [option.name], subject=option_subject(option), kind="overwritten",
    )
