"""`duplicated-implementation` (R7309) and `upstream-reimplementation` (R7310): code written twice.

The fingerprint scanner (`AUDITED_SCANNERS`, run by the index on every Python file
the audit reports on, tests aside, and cached with its facts) hashes every function, method, class, module and statement;
once per run the project's copy groups are computed from those facts
(`project.project_copies`): exact copies by hash join, near copies through capped
sketch buckets, blocks pasted into several functions by seed-and-extend. Each
group is judged (`verdict`), and the reported copies are folded into the changes a
maintainer would make (`plan`): a per-model convention is a rejected idea
(`conventions`), five or more copies in one module of another's definitions are one
fork (`forks`), a class repeating another's methods is one finding at the class
(`classes`), and the copies left of a group are one finding at the first copy after
the kept one, naming the others (`grouped`). The same
fingerprints of the upstream packages the project builds on (the upstream index
scans them with this family's scanner) find project code that reimplements an
upstream unit (`upstream`, `reimplementation`). Validation files (tests, examples,
benchmarks) and generated files are not audited.
"""

from __future__ import annotations

from dataclasses import replace

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.copies.fingerprints import FACT_KEY, fingerprint_module
from pylint_omni.copies.groups import Thresholds
from pylint_omni.copies.members import Member
from pylint_omni.copies.plan import copy_plan
from pylint_omni.copies.project import production_fingerprints, project_copies
from pylint_omni.copies.reimplementation import Reimplementation, reimplementations
from pylint_omni.copies.reported import SYMBOL, CopyFinding
from pylint_omni.copies.wording import reimplementation_details, reimplementation_message
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.consumers import Status
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.settings import OmniSettings

UPSTREAM_SYMBOL = "upstream-reimplementation"
MIN_LINES = 6  # lines a copy must span to be reported
AUDITED_SCANNERS = {FACT_KEY: fingerprint_module}


def _limits(settings: OmniSettings) -> Thresholds:
    """The size a copy must reach to be reported, from the project's settings."""
    return Thresholds(settings.copy_min_statements, MIN_LINES)


def _copies_beside(index: ProjectIndex) -> None:
    """The copy groups and verdicts at this project's thresholds, into their store (`index.background`)."""
    project_copies(index, _limits(index.settings))


def _reimplementations_beside(index: ProjectIndex) -> None:
    """The judged copies of upstream code, into their store, when upstream packages are compared."""
    if index.settings.reimplementation_upstreams:
        reimplementations(index, production_fingerprints(index), _limits(index.settings),
                          index.settings.reimplementation_upstreams)


# Project judgements a cold run computes beside pylint's own build: key -> (the messages they serve, judgement).
BACKGROUND = {"copies.project": (frozenset({SYMBOL}), _copies_beside),
              "copies.reimplementations": (frozenset({UPSTREAM_SYMBOL}), _reimplementations_beside)}


def _definition(module: nodes.Module, member: Member) -> nodes.NodeNG | None:
    """The class or function node of a unit member, by its qualified name and last line."""
    scope: list[nodes.NodeNG] = list(module.body)
    found: nodes.NodeNG | None = None
    for part in member.qual.split("."):
        matches = [n for n in scope if isinstance(n, (nodes.ClassDef, nodes.FunctionDef)) and n.name == part]
        if not matches:
            return None
        found = next((n for n in matches if n.tolineno == member.end), matches[-1])
        scope = list(found.body)
    return found


def _block_start(module: nodes.Module, member: Member) -> nodes.NodeNG | None:
    """The first statement of a block member."""
    unit = _definition(module, Member(member.path, "function", member.qual, 0, 0, 0, 0, 0)) or module
    pending = list(unit.get_children())
    while pending:
        node = pending.pop(0)
        if node.is_statement and node.lineno == member.line:
            return node
        if node.is_statement and (node.tolineno or 0) >= member.line >= (node.fromlineno or 0):
            pending = list(node.get_children()) + pending
    return None


def locate(module: nodes.Module, member: Member) -> nodes.NodeNG | None:
    if member.kind == "module":
        return module
    if member.kind == "block":
        return _block_start(module, member)
    return _definition(module, member)


class DuplicatedImplementationChecker(OmniChecker):
    """Reports each copy group (a class repeating another's methods, a forked module) once, and project copies of
    upstream code."""

    msgs = {
        "R7309": (
            "%s",
            SYMBOL,
            "A function, method, class, module or block of statements that repeats another one in the "
            "project, identical after renaming locals or with a named drift; one finding per copy group (at "
            "the first copy after the kept one), per class repeating another's methods, or per forked module. "
            "Keep one implementation and make the copies use it; differences that can be parameters become "
            "parameters, and copies that differ in behaviour share only the part they have in common.",
        ),
        "R7310": (
            "%s",
            UPSTREAM_SYMBOL,
            "A function, method or class that reimplements one of an upstream package the project builds on "
            "(default: vllm, in the modules the project imports or subclasses), identical after renaming "
            "locals or with its drift named; or an override repeating the upstream method with small edits. "
            "Use the upstream one (import it, or call super() and keep only the change).",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        found = self.audited_index_for(node)
        if found is None:
            return
        index, relpath = found
        limits = _limits(self.settings)
        module = index.entries.get(relpath, {}).get("module") or node.name
        upstream: dict[str, list[Reimplementation]] = {}
        if self.linter.is_message_enabled(UPSTREAM_SYMBOL) and self.settings.reimplementation_upstreams:
            upstream = reimplementations(index, production_fingerprints(index), limits, self.settings.reimplementation_upstreams)
        if self.linter.is_message_enabled(SYMBOL):
            self._copies(node, index, relpath, limits, upstream)
        if upstream:
            for item in upstream.get(relpath, ()):
                target = locate(node, item.copy)
                if target is not None:
                    self.emit(UPSTREAM_SYMBOL, target, item.verdict, (reimplementation_message(item),),
                              reimplementation_details(item, module))

    def _copies(self, node: nodes.Module, index: ProjectIndex, relpath: str, limits: Thresholds,
                upstream: dict[str, list[Reimplementation]]) -> None:
        """What the project's copy plan emits in this file (`plan`): one finding per change (a group's copies, a class
        repeating another's methods, a fork), or one per copy with `omni-granularity=member`."""
        upstream_on = self.linter.is_message_enabled(UPSTREAM_SYMBOL) and bool(self.settings.reimplementation_upstreams)
        for finding in copy_plan(index, limits, upstream, upstream_on).get(relpath, ()):
            target = locate(node, finding.at)
            if target is not None:
                # A finding over several copies stays when the copy it is shown at lies in dead code: the others remain.
                several = finding.details is not None and len(finding.details.members) > 1
                self.emit(SYMBOL, target, finding.verdict, (finding.text,), self._partner_deleted(index, finding),
                          absorbable=not several)

    def _partner_deleted(self, index: ProjectIndex, finding: CopyFinding) -> FindingDetails | None:
        """The details marked `within` the change that deletes the copy this one repeats, if one does (DiffSynth-Studio:
        a text encoder repeating one in a module that cannot be imported): nothing is left to share it with."""
        absorber, details = type(self).absorber, finding.details
        if absorber is None or details is None or details.within or finding.verdict.status is not Status.CANDIDATE:
            return details
        within = next(filter(None, (absorber(index, path, first, last, self.enabled_symbols) for path, first, last in finding.partners)), "")
        return replace(details, within=within) if within else details


def register(linter: PyLinter) -> None:
    linter.register_checker(DuplicatedImplementationChecker(linter))
