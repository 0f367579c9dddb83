"""What a `single-implementation-abstraction` finding says: the short message and the report's details.

One message per shape (`AbstractionFinding.kind`), each `what; fix (evidence)` in
about 250 characters (`evidence.wording.short_message`); the details carry the
surface, the simplification, the benefit (the lines of the abstraction that go), the
risk, and the subject and kind that make the finding id.
"""

from __future__ import annotations

from astroid import nodes

from pylint_omni.abstractions.factories import FactoryChoice
from pylint_omni.abstractions.verdict import AbstractionFinding
from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.consumers import Verdict
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import evidence_clause, short_message
from pylint_omni.index.class_graph import abstract_methods
from pylint_omni.index.project_index import Definition


def _span(definition: Definition) -> int:
    return definition.data["end"] - definition.data["line"] + 1


def _at(definition: Definition) -> str:
    return f"{definition.path}:{definition.data['line']}"


def _label(base: Definition) -> str:
    if base.data.get("protocol"):
        return "Protocol"
    return "Abstract base" if base.data.get("abstract") else "Base class"


def class_text(finding: AbstractionFinding) -> str:
    """The message of a class finding."""
    base, impl, name = finding.base, finding.implementation, finding.base.data["name"]
    if finding.kind == "static":
        return short_message(
            f"Class {name} only wraps the static method {finding.method}(), called once ({finding.call_site})",
            f"make {finding.method}() a module-level function", evidence_clause(finding.verdict),
        )
    assert impl is not None
    single = impl.data["name"]
    if finding.kind == "holder":
        stored = ", ".join(finding.stored[:3]) + (", …" if len(finding.stored) > 3 else "")
        return short_message(
            f"Base class {name} only stores {stored} for its one subclass, {single} ({_at(impl)})",
            f"move them into {single} and delete {name}", evidence_clause(finding.verdict),
        )
    if finding.kind == "protocol":
        return short_message(
            f"Protocol {name} restates the methods of {single} ({_at(impl)}), which every match of it extends",
            f"annotate with {single} and delete {name}", evidence_clause(finding.verdict),
        )
    chain = [d.data["name"] for d in finding.intermediates]
    if finding.collapsed:
        what = f"{_label(base)} {name} has one subclass chain, {' -> '.join([*chain, single])}, and only {single} is created"
        fix = f"fold {', '.join([name, *chain])} into {single}"
    else:
        through = f" (through {', '.join(chain)})" if chain else ""
        what = f"{_label(base)} {name} has one implementation, {single} ({_at(impl)}){through}"
        fix = f"fold {name} into {single}"
    return short_message(what, fix, evidence_clause(finding.verdict))


def class_details(finding: AbstractionFinding, going: int | None = None) -> FindingDetails:
    """Surface, simplification, benefit and risk of a class finding. `going`: the base's lines that go when it is
    folded (its statement, docstring, declarations and the bodies its implementation overrides); the rest moves."""
    base, impl, name = finding.base, finding.implementation, finding.base.data["name"]
    if finding.kind == "static":
        lines = finding.wrapper_lines
        return FindingDetails(
            [f"{_at(base)} class {name}", f"{finding.call_site} {name}.{finding.method}()"],
            f"Make {finding.method}() a function of its module and call it directly at {finding.call_site}; delete {name}.",
            Benefit(lines, BenefitKind.API, f"the class {name} around one function ({lines} lines: `class`, `@staticmethod`, docstring)",
                    micro=True, bundle="class around one static method"),
            f"Code outside this repository calling {name}.{finding.method}() would need the function instead.",
            [name, finding.method], subject=base.dotted, kind="static",
        )
    assert impl is not None
    single, chain = impl.data["name"], [d.data["name"] for d in finding.intermediates]
    layers = [base, *finding.intermediates] if finding.collapsed or finding.kind == "class" else [base]
    lines = sum(_span(d) for d in layers)
    surface = [f"{_at(d)} class {d.data['name']}" for d in (base, *finding.intermediates, impl)]
    if finding.kind == "holder":
        simplification = f"Move {', '.join(finding.stored)} into {single} and make {single} extend {name}'s bases; delete {name}."
        text = f"1 class of {lines} lines ({name})"
    elif finding.kind == "protocol":
        simplification = f"Annotate with {single} where {name} is used, and delete the Protocol."
        text = f"1 Protocol of {lines} lines ({name})"
    else:
        methods = len(abstract_methods(base.data))
        middle = f" and the layers {', '.join(chain)}" if finding.collapsed and chain else ""
        simplification = f"Inline {name}{middle} into {single} and delete the base."
        text = f"{len(layers)} class{'es' if len(layers) > 1 else ''} of {lines} lines ({', '.join(d.data['name'] for d in layers)})" + (
            f" and {methods} abstract method declaration{'s' if methods > 1 else ''}" if methods else "")
        if going is not None and going < lines and len(layers) == 1:
            text = f"{going} of {name}'s {lines} lines go (its statement, declarations and the bodies {single} overrides); the rest moves into {single}"
            lines = going
    users = "implementations or structural matches" if base.data.get("protocol") else "subclasses"
    risk = (f"{users.capitalize()} of {name} outside this repository, and annotations or isinstance checks naming it, "
            f"would need {single} instead; {single}'s behaviour does not change.")
    return FindingDetails(surface, simplification, Benefit(lines, BenefitKind.API, text), risk, [name, single, *chain],
                          subject=base.dotted, kind=finding.kind)


def factory_text(node: nodes.FunctionDef, choice: FactoryChoice, verdict: Verdict) -> str:
    return short_message(
        f"Factory {node.name}() has one choice, {choice.key} -> {choice.implementation} (line {choice.line})",
        f"construct {choice.implementation} directly", evidence_clause(verdict),
    )


def factory_details(relpath: str, node: nodes.FunctionDef, choice: FactoryChoice) -> FindingDetails:
    surface = [f"{relpath}:{node.lineno} {node.name}()", f"{relpath}:{choice.line} {choice.key} -> {choice.implementation}"]
    lines = (node.tolineno or node.lineno) - node.lineno + 1
    risk = (f"Callers passing a kind other than {choice.key} lose {node.name}()'s error or fallback; "
            f"code outside this repository may still call {node.name}().")
    return FindingDetails(
        surface,
        f"Construct {choice.implementation} directly at the callers of {node.name}() and delete the factory "
        "(keep a check of the kind only where it is a user-facing option).",
        Benefit(lines, BenefitKind.API, f"1 function of {lines} lines ({node.name}) and its dispatch on the kind"), risk,
        [node.name, choice.implementation], subject=node.qname(), kind="factory",
    )
