"""Module helpers (`fold` rule 4): the code one module keeps that production never runs, as one change.

The dead definitions left in one module (functions, classes, methods of live classes)
with the imports only they use, by confidence; with them, at high confidence, the
definitions only tests use (ChatLearn's `sampler.py`: a dead sampler and its test-only
twin are one legacy pair to retire, with the tests that exist only for the twin).
Imports of the definitions in other modules that nothing there uses go too.
"""

from __future__ import annotations

from pylint_omni.changes.model import HIGH, NEVER, TEST_ONLY, UNUSED, ChangeSet, Member, Span, dead_code_verdict
from pylint_omni.changes.state import inside
from pylint_omni.changes.wording import change_planned, counted, named
from pylint_omni.evidence.benefit import BenefitKind, Heat
from pylint_omni.evidence.consumers import ConsumerKind, decide
from pylint_omni.evidence.memo import MODULE
from pylint_omni.evidence.wording import leftover_clause
from pylint_omni.index.project_index import ProjectIndex

DEFINITION_UNITS = ("function", "class", "method")


def dying_imports(index: ProjectIndex, relpath: str, deleted: list[Span]) -> list[tuple[str, int]]:
    """(name, line) of the module's imports whose every use lies in the deleted code."""
    found: list[tuple[str, int]] = []
    for name, target in (index.facts(relpath).get("imports") or {}).items():
        mentions = index.occurrences(relpath, name)
        lines = [line for line, via in mentions if via == "import"] or [
            line for token in (target.partition(".")[0], target.rpartition(".")[2])
            for line, via in index.occurrences(relpath, token) if via == "import"]
        uses = [line for line, via in mentions if via != "import"]
        if lines and uses and all(inside(deleted, relpath, line) for line in uses):
            found.append((name, lines[0]))
    return found


def shown(member: Member) -> list[str]:
    """The names a module's change shows for a member: `Cls.meth` for a method, the bare name otherwise."""
    owner = member.container.rpartition(".")[2] if member.unit == "method" else ""
    return [f"{owner}.{n}" if owner else n for n in member.named]


def _never_in_production(member: Member) -> bool:
    """A dead definition, or one only tests use (high: production surely never runs it)."""
    if member.unit not in DEFINITION_UNITS:
        return False
    return (member.symbol == UNUSED and member.status == "dead") or (
        member.symbol == TEST_ONLY and member.status == "test-only" and member.confidence == HIGH)


def module_helpers(index: ProjectIndex, candidates: list[Member]) -> list[ChangeSet]:
    """One change per module and confidence holding two such definitions or more."""
    by_path: dict[tuple[str, str], list[Member]] = {}
    for member in candidates:
        if _never_in_production(member):
            by_path.setdefault((member.path, member.confidence or ""), []).append(member)
    return [_change(index, path, confidence, sorted(members, key=lambda m: m.line))
            for (path, confidence), members in sorted(by_path.items()) if len(members) >= 2]


def _change(index: ProjectIndex, path: str, confidence: str, members: list[Member]) -> ChangeSet:
    module = index.entries.get(path, {}).get("module") or path
    deleted = [s for m in members for s in m.spans]
    dying = dying_imports(index, path, deleted)
    # Imports of the definitions in other modules, which nothing there uses: deleting the definitions breaks them.
    importers = sorted({where for m in members for where in m.leftovers})
    tested = [m for m in members if m.symbol == TEST_ONLY]
    tests = sorted({c.path for m in tested for c in m.planned.verdict.consumers if c.kind is ConsumerKind.VALIDATION})
    names = [n for m in members for n in shown(m)]
    only_tests = [n for m in tested for n in shown(m)]
    lines = sum(m.lines for m in members) + len(dying) + len(importers)
    # (what they are, finding kind, the subject's word): all dead, all test-only, or both kinds in one module
    said, kind, word = (("nothing uses", "dead-definitions", "unused") if not tested else
                        ("only tests use", "test-only-definitions", "test-only") if len(tested) == len(members) else
                        ("production never runs", "unrun-definitions", "unrun"))
    what = f"Module {module} has {counted(len(names), 'definition')} {said} ({named(names)}" + (
        f"; only tests use {named(only_tests)})" if kind == "unrun-definitions" else ")")
    fix = ("delete them" + (f" and {counted(len(dying), 'import')} only they use" if dying else "")
           + (f", and {leftover_clause(importers, 'their')}" if importers else "")
           + (f", with the tests that exist for them ({named(tests)})" if tests else "") + f" ({lines} lines)")
    sure = confidence == HIGH
    planned = change_planned(
        (UNUSED if len(tested) < len(members) else TEST_ONLY, 1, MODULE), what, fix,
        dead_code_verdict(members, confidence) if not tested else decide(
            f"no production consumer; only tests use {named(only_tests)}"),
        members,
        (f"{module}.<{'' if sure else 'unsure '}{word} definitions>", kind + ("" if sure else "-unsure"),
         f"Delete {', '.join(names)} from {module}" + (f", and the imports only they use ({', '.join(n for n, _ in dying)})" if dying else "")
         + (f"; delete the imports of them no one uses ({', '.join(importers)})" if importers else "")
         + (f"; delete or rewrite the tests that exist for them ({', '.join(tests)})" if tests else "") + "."),
        (lines, BenefitKind.API, f"{lines} lines: {counted(len(names), 'definition')} of {module}", Heat.NEVER,
         NEVER["dead" if not tested else "test-only"]),
        tuple(f"{path}:{line} import {n} (only the deleted code uses it)" for n, line in dying)
        + tuple(f"{where} unused import of a deleted definition" for where in importers))
    return ChangeSet(planned, path, "module-helpers", tuple(members), tuple(deleted) + tuple((path, line, line) for _, line in dying))
