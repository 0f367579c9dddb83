"""Changes spread over several modules: the members one change deletes live in more than one file.

- **Dead modules**: the whole modules nothing imports in one package, by confidence (a
  retired mechanism leaves its per-model modules behind together): one change at the
  package.
- **Repeated functions**: one dead function of one name in the same-named module of
  sibling packages (`model/video/__init__.py`, `model/image/__init__.py`: a per-kind
  `load_downloaded_models` nothing calls any more), by confidence: one change, three
  modules or more; and one dead function copied word for word into other modules, two
  modules or more.
"""

from __future__ import annotations

import hashlib
import textwrap

from pylint_omni.changes.model import HIGH, NEVER, UNUSED, ChangeSet, Member, dead_code_verdict
from pylint_omni.changes.wording import change_planned, counted, named
from pylint_omni.evidence.benefit import BenefitKind, Heat
from pylint_omni.evidence.wording import leftover_clause
from pylint_omni.evidence.memo import MODULE
from pylint_omni.index.project_index import ProjectIndex

MIN_REPEATS = 3  # sibling packages holding one dead function of one name before it is one change


def dead_modules(index: ProjectIndex, candidates: list[Member]) -> list[ChangeSet]:
    """The whole modules nothing imports in one package, by confidence: one change (two modules or more)."""
    by_folder: dict[tuple[str, str], list[Member]] = {}
    for member in candidates:
        if member.symbol == UNUSED and member.status == "dead" and member.unit == "module":
            by_folder.setdefault((member.path.rpartition("/")[0], member.confidence or ""), []).append(member)
    sets: list[ChangeSet] = []
    for (folder, confidence), members in sorted(by_folder.items()):
        if len(members) < 2:
            continue
        members.sort(key=lambda m: m.path)
        init = f"{folder}/__init__.py" if folder else "__init__.py"
        package = index.entries.get(init, {}).get("module") or folder.replace("/", ".") or "(root)"
        names = [m.path.rpartition("/")[2] for m in members]
        # Imports that bind a module and never use it (`import pkg.mod  # noqa: F401`): deleting it breaks them.
        importers = sorted({where for m in members for where in m.leftovers})
        lines = sum(m.lines for m in members)
        what = f"Package {package} has {counted(len(names), 'module')} nothing {'uses' if importers else 'imports'} ({named(names)})"
        sure = confidence == HIGH
        planned = change_planned(
            (UNUSED, 1, MODULE), what,
            "delete them" + (f" and {leftover_clause(importers, 'their')}" if importers else "") + f" ({lines} lines)",
            dead_code_verdict(members, confidence),
            members,
            (f"{package}.<{'' if sure else 'unsure '}dead modules>", "dead-modules" + ("" if sure else "-unsure"),
             f"Delete the modules {', '.join(names)} of {package}."),
            (lines, BenefitKind.API, f"{lines} lines: {counted(len(names), 'module')} of {package}", Heat.NEVER, NEVER["dead"]))
        sets.append(ChangeSet(planned, init if init in index.entries else members[0].path, "dead-modules", tuple(members),
                              tuple(s for m in members for s in m.spans)))
    return sets




def _dead_functions(candidates: list[Member]) -> list[Member]:
    return [m for m in candidates if m.symbol == UNUSED and m.status == "dead" and m.unit == "function"]


def repeated_functions(index: ProjectIndex, candidates: list[Member]) -> list[ChangeSet]:
    """One dead function of one name in the same-named module of sibling packages, by confidence, then one copied
    word for word into other modules: one change each."""
    by_name: dict[tuple[str, str, str], list[Member]] = {}
    for member in _dead_functions(candidates):
        folder, _, file = member.path.rpartition("/")
        key = (member.named[0], f"{folder.rpartition('/')[0]}/*/{file}", member.confidence or "")
        by_name.setdefault(key, []).append(member)
    sets: list[ChangeSet] = []
    for (name, shape, confidence), members in sorted(by_name.items()):
        if len({m.path for m in members}) < MIN_REPEATS:
            continue
        members.sort(key=lambda m: m.path)
        places = [m.path.rpartition("/")[0].rpartition("/")[2] for m in members]
        sets.append(_every_copy(name, members, confidence, (members[0].line, MODULE),
                                f"{counted(len(members), 'sibling package')} ({named(places)}; {shape})",
                                (f"{name}@{shape}", "repeated-dead-function", "repeated-functions")))
    taken = {id(m) for change in sets for m in change.members}
    return sets + _copied(index, [m for m in candidates if id(m) not in taken])


def _copied(index: ProjectIndex, candidates: list[Member]) -> list[ChangeSet]:
    """One dead function copied word for word into several modules (speculators' `block_mask_to_dense_attention_mask`
    in `models/attention.py` and `models/eagle3/attention.py`), by confidence: one change, two modules or more."""
    by_body: dict[tuple[str, str, str], list[Member]] = {}
    for member in _dead_functions(candidates):
        lines = (index.text(member.path) or "").splitlines()[member.line - 1:member.end]
        body = textwrap.dedent("\n".join(lines)).strip()
        if body:
            key = (member.named[0], hashlib.sha1(body.encode()).hexdigest(), member.confidence or "")
            by_body.setdefault(key, []).append(member)
    sets: list[ChangeSet] = []
    for (name, digest, confidence), members in sorted(by_body.items()):
        if len({m.path for m in members}) < 2:
            continue
        members.sort(key=lambda m: m.path)
        sets.append(_every_copy(name, members, confidence, (members[0].line, members[0].planned.anchor),
                                f"{counted(len(members), 'module')}, each a copy of the same code "
                                f"({named([m.path for m in members])})",
                                (f"{name}@{digest[:12]}", "copied-dead-function", "copied-functions")))
    return sets


def _every_copy(name: str, members: list[Member], confidence: str, root: tuple[int, str], where: str,
                kinds: tuple[str, str, str]) -> ChangeSet:
    """The change deleting every copy of one dead function; `kinds` is (subject, finding kind, change kind)."""
    subject, kind, change = kinds
    lines = sum(m.lines for m in members)
    planned = change_planned(
        (UNUSED, *root), f"{name}() is dead in {where}", f"delete every copy ({lines} lines)",
        dead_code_verdict(members, confidence), members,
        (subject, kind + ("" if confidence == HIGH else "-unsure"), f"Delete {name}() from {', '.join(m.path for m in members)}."),
        (lines, BenefitKind.API, f"{lines} lines: {counted(len(members), 'copy')} of {name}()", Heat.NEVER, NEVER["dead"]))
    return ChangeSet(planned, members[0].path, change, tuple(members), tuple(s for m in members for s in m.spans))
