"""`single-implementation-abstraction`: an abstraction or factory with exactly one real implementation.

Flags, at the class or function:
- an ABC, a Protocol, or a base class with `@abstractmethod` or `raise
  NotImplementedError`-only methods that has one real implementation in the whole
  project (transitive subclasses and structural Protocol matches counted from the
  index) and no open extension mechanism (`abstractions.verdict`);
- a single-branch factory: a function that only chooses an implementation by kind
  and has one choice (`abstractions.factories`).
Abstractions and factories under validation paths (tests, examples) are not audited.
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.abstractions.verdict import AbstractionFinding, judge_abstraction
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.wording import evidence_clause, searched_summary, short_message
from pylint_omni.evidence.consumers import Verdict
from pylint_omni.abstractions.factories import FactoryChoice, judge_factory, single_choice
from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.index.class_graph import abstract_methods
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.paths import Location

SYMBOL = "single-implementation-abstraction"
SEARCHED_FOR_CLASSES = (
    "subclasses (transitive), Protocol matches, instantiations, import strings, YAML/JSON/TOML, "
    "resolvers, *_cls keys, entry points, __subclasses__(), registries, docs/design pages"
)
SEARCHED_FOR_FACTORIES = "import strings, YAML/JSON/TOML, resolvers, entry points, registries, hardware folders"


def _proof(verdict: Verdict, searched: str, searched_for: str) -> str:
    """The report's proof: the verdict's reason, what was searched, what stays unknown."""
    unknown = "; ".join(u for u in verdict.unknowns if u != verdict.reason)
    return f"{verdict.reason}; searched {searched} for {searched_for}; unknown: {unknown or 'consumers outside this repository'}"


class SingleImplementationChecker(OmniChecker):
    """Flags abstractions and factories that have one real implementation."""

    msgs = {
        "R7302": (
            "%s",
            SYMBOL,
            "An ABC, Protocol or base class with abstract or NotImplementedError methods, or a factory "
            "that chooses among implementations, with exactly one real implementation in the project and "
            "no open extension mechanism (import strings, YAML, entry points, registries, __subclasses__(), "
            "design contracts, third-party bases, hardware folders). Fold the abstraction into its "
            "implementation, or call the implementation directly.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._module: tuple[ProjectIndex, str] | None = None

    def visit_module(self, node: nodes.Module) -> None:
        found = self.index_for(node)
        if found is not None and found[0].location(found[1]) is Location.VALIDATION:
            found = None
        self._module = found

    def visit_classdef(self, node: nodes.ClassDef) -> None:
        if self._module is None or not isinstance(node.parent, nodes.Module):
            return
        index, relpath = self._module
        finding = judge_abstraction(index, relpath, node.lineno)
        if finding is not None:
            details = self._class_details(finding)
            details.proof = _proof(finding.verdict, searched_summary(index), SEARCHED_FOR_CLASSES)
            self.emit(SYMBOL, node, finding.verdict, (self._class_text(finding),), details)

    def visit_functiondef(self, node: nodes.FunctionDef) -> None:
        if self._module is None:
            return
        choice = single_choice(node)
        if choice is None:
            return
        index, relpath = self._module
        verdict = judge_factory(index, relpath, node, choice)
        details = self._factory_details(relpath, node, choice)
        details.proof = _proof(verdict, searched_summary(index), SEARCHED_FOR_FACTORIES)
        self.emit(SYMBOL, node, verdict, (self._factory_text(node, choice, verdict),), details)

    visit_asyncfunctiondef = visit_functiondef

    @staticmethod
    def _class_text(finding: AbstractionFinding) -> str:
        base, impl = finding.base.data, finding.implementation
        if base.get("protocol"):
            kind = "Protocol"
        elif base.get("abstract"):
            kind = "Abstract base"
        else:
            kind = "Base class"
        chain = f" (through {', '.join(d.data['name'] for d in finding.intermediates)})" if finding.intermediates else ""
        name = impl.data["name"]
        proof = "no other subclass, Protocol match or extension mechanism in the project"
        return short_message(
            f"{kind} {base['name']} has one implementation, {name} ({impl.path}:{impl.data['line']}){chain}",
            f"fold {base['name']} into {name}", evidence_clause(finding.verdict, proof),
        )

    @staticmethod
    def _class_details(finding: AbstractionFinding) -> FindingDetails:
        base, impl = finding.base, finding.implementation
        name, single = base.data["name"], impl.data["name"]
        chain = [d.data["name"] for d in finding.intermediates]
        surface = [f"{d.path}:{d.data['line']} class {d.data['name']}" for d in (base, *finding.intermediates, impl)]
        through = f" (through {', '.join(chain)})" if chain else ""
        methods = len(abstract_methods(base.data))
        lines = base.data["end"] - base.data["line"] + 1
        benefit = f"1 class of {lines} lines ({name})" + (
            f" and {methods} abstract method declaration{'s' if methods > 1 else ''}" if methods else "")
        users = "implementations or structural matches" if base.data.get("protocol") else "subclasses"
        risk = (f"{users.capitalize()} of {name} outside this repository, and annotations or isinstance checks naming it, "
                f"would need {single} instead; {single}'s behaviour does not change.")
        return FindingDetails(
            surface, f"Inline {name} into its only implementation {single}{through} and delete the base.",
            Benefit(lines, BenefitKind.API, benefit), risk, [name, single, *chain], subject=base.dotted, kind="class",
        )

    @staticmethod
    def _factory_details(relpath: str, node: nodes.FunctionDef, choice: FactoryChoice) -> FindingDetails:
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

    @staticmethod
    def _factory_text(node: nodes.FunctionDef, choice: FactoryChoice, verdict: Verdict) -> str:
        return short_message(
            f"Factory {node.name}() has one choice, {choice.key} -> {choice.implementation} (line {choice.line})",
            f"construct {choice.implementation} directly", evidence_clause(verdict, "no other kind is dispatched anywhere"),
        )


def register(linter: PyLinter) -> None:
    linter.register_checker(SingleImplementationChecker(linter))
