"""`single-implementation-abstraction`: an abstraction or factory with exactly one real implementation.

Flags, at the class or function:
- an ABC, a Protocol or a base with `@abstractmethod` / `NotImplementedError`-only
  methods with one real implementation (transitive subclasses and structural
  Protocol matches counted on the class graph; a chain whose only created class is
  its leaf counts as one); a data-holder base with one subclass; a Protocol that
  restates a concrete class beside it; a class wrapping one static method called
  from one place (`abstractions.verdict`);
- a single-choice factory (`abstractions.factories`), judged by what its callers pass
  as the kind (`abstractions.factory_callers`).
Abstractions and factories under validation paths (tests, examples) are not audited.
"""

from __future__ import annotations

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.abstractions.factories import single_choice
from pylint_omni.abstractions.factory_callers import judge_factory
from pylint_omni.abstractions.verdict import AbstractionFinding, judge_class
from pylint_omni.abstractions.wording import class_details, class_text, factory_details, factory_text
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.consumers import Verdict
from pylint_omni.evidence.wording import searched_summary
from pylint_omni.index.class_graph import abstract_methods
from pylint_omni.index.project_index import ProjectIndex

SYMBOL = "single-implementation-abstraction"
SEARCHED_FOR_CLASSES = (
    "subclasses (transitive), Protocol matches, resolved instantiations, strings that resolve to the classes, "
    "*_cls slots and their sources, entry points, plugin loaders, __subclasses__(), registries and their read paths, "
    "docs/design pages, upstream hooks, vendor folders, external roots"
)
SEARCHED_FOR_FACTORIES = ("resolved call sites and the source of the kind at each, strings, entry points, registries, "
                          "vendor folders, external roots")


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
            "An abstraction with one real implementation and no open extension mechanism the reference "
            "graph can find: an ABC, Protocol or NotImplementedError base (or a subclass chain of which only "
            "the leaf is created), a base that only stores attributes for its one subclass, a Protocol that "
            "restates a concrete class beside it, a class wrapping one static method called once, or a "
            "factory with one choice. Fold the abstraction into its implementation, or call it directly.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._module: tuple[ProjectIndex, str] | None = None

    def visit_module(self, node: nodes.Module) -> None:
        self._module = self.audited_index_for(node)

    def visit_classdef(self, node: nodes.ClassDef) -> None:
        if self._module is None or not isinstance(node.parent, nodes.Module):
            return
        index, relpath = self._module
        finding = judge_class(index, relpath, node)
        if finding is not None:
            details = class_details(finding, _lines_going(index, node, finding))
            details.proof = _proof(finding.verdict, searched_summary(index), SEARCHED_FOR_CLASSES)
            self.emit(SYMBOL, node, finding.verdict, (class_text(finding),), details)

    def visit_functiondef(self, node: nodes.FunctionDef) -> None:
        if self._module is None:
            return
        choice = single_choice(node)
        if choice is None:
            return
        index, relpath = self._module
        verdict = judge_factory(index, relpath, node, choice)
        details = factory_details(relpath, node, choice)
        details.proof = _proof(verdict, searched_summary(index), SEARCHED_FOR_FACTORIES)
        self.emit(SYMBOL, node, verdict, (factory_text(node, choice, verdict),), details)

    visit_asyncfunctiondef = visit_functiondef


def _lines_going(index: ProjectIndex, base: nodes.ClassDef, finding: AbstractionFinding) -> int | None:
    """What folding the base into its one implementation deletes: the class statement and docstring, the abstract
    declarations, and the methods the implementation overrides (they never run); its other code moves. TorchServe's
    320-line metrics cache base keeps ~300 lines of shared code: ranking it by 320 put it first."""
    impl = finding.implementation
    if impl is None or finding.kind != "class":
        return None
    prefix = f"{impl.data['name']}."
    lines = (index.text(impl.path) or "").splitlines()
    # An override that calls `super()` still runs the base's body: it moves, it does not go.
    overridden = {f["name"] for f in index.facts(impl.path).get("functions", []) if f["qual"] == prefix + f["name"]
                  and not any("super(" in text for text in lines[f["line"] - 1:f["end"]])}
    declared = set(abstract_methods(finding.base.data))
    going = 1 + ((base.doc_node.tolineno - base.doc_node.fromlineno + 1) if base.doc_node is not None else 0)
    for method in base.mymethods():
        if method.name in declared or method.name in overridden:
            going += (method.tolineno or method.fromlineno) - method.fromlineno + 1 + len(method.decorators.nodes if method.decorators else [])
    return going


def register(linter: PyLinter) -> None:
    linter.register_checker(SingleImplementationChecker(linter))
