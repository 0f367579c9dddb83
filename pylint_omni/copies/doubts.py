"""What lowers a judged copy as the message reports it: the rules that follow comments, text, names and upstream.

`verdict.judge` decides from the copies' shapes and drift, and its verdicts are
cached with the groups; these rules read what the shapes do not hold (headers and
file names, the text of a body, who imports or calls what, the class graph, the
upstream packages), so they apply after the cache, to high copies only, each making
the copy medium with its reason:
- a copy where either side says it is copied from a third party
  (`evidence.provenance`): a deliberate copy, resynced from its source;
- any copy of a project whose contributor or agent guide declares its duplication
  deliberate (`evidence.policies`): the fix its own rule asks for is alignment, not a helper;
- a copy in a file named as a legacy snapshot (`qwen2_old.py`, `runner_legacy.py`):
  kept apart on purpose, to retire rather than share;
- a copy in a standalone script (a `__main__` guard, no import of the project): it runs
  by path without the package, so it cannot import the kept copy;
- a group of functions none of which is named anywhere but at its definition, in
  modules others import from (a test oracle left beside several kernels): dead
  code, to delete;
- a copy smaller than the size option (counted because it is copied three times or
  more): sharing a few lines couples unrelated callers;
- a method calling `super()` with no arguments, or a constructor, copied into an
  unrelated class: the kept copy cannot be called on it; the fix is a mixin;
- an override "repeating the inherited method" whose class inherits another
  version from a nearer ancestor: deleting it changes what runs;
- a kept copy whose module imports the reported copy's module: importing it back is a
  cycle (keep the other copy);
- a block that reads `locals()`/`vars()`, or calls `super()`: a helper would see its
  own frame, or has no class;
- a block whose helper would save fewer than `MIN_BLOCK_SAVING` lines once its call,
  signature and return are written (`HELPER_LINES`): glue, not a copy worth a helper;
- a block that only passes more than `MAX_HELPER_ARGUMENTS` of the function's locals on
  to calls (the same calls on other variables: a list of command-line actions), so a
  helper would take them all as arguments;
- a block repeating an upstream method its method overrides, or that of an upstream
  class its wrapper module imports (`mirrors`).
A copy whose two sides both lie in vendored folders (`VENDORED_FOLDERS`) is rejected at any confidence:
the duplication is the vendored projects', and the tree is resynced as a whole.
A copy whose kept copy is itself a copy of upstream (`upstream-reimplementation` high
there) is medium too, naming the upstream one to use (`lowered`).
"""

from __future__ import annotations

import ast
import re
from typing import Protocol

from pylint_omni.copies.keeper import nearest_definer, owner_of
from pylint_omni.copies.members import FileCopies, Member
from pylint_omni.copies.mirrors import mirrored_override
from pylint_omni.copies.verdict import Judgement
from pylint_omni.evidence.consumers import Status, Verdict, decide, lowered
from pylint_omni.evidence.policies import declared_duplication
from pylint_omni.evidence.provenance import copied_code
from pylint_omni.index.derived import Derived
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.ast_helpers import parse_source, walk_nodes


class HasUpstreamPlace(Protocol):
    """An upstream copy as the copy verdicts name it (`reimplementation.Reimplementation`)."""

    @property
    def upstream_place(self) -> str: ...


SMALL_BLOCK = "a helper would save"  # how the doubt of a block too small to extract begins

FRAME_READS = ("locals()", "vars()")
ZERO_ARGUMENT_SUPER = re.compile(r"\bsuper\(\s*\)")
CALLS_SUPER = "it calls super(): another class's copy cannot be called here"
MIXIN_FIX = "move it into a mixin each class lists before its base"
NEVER_CALLED = "no copy is called anywhere: delete them rather than share"
LEGACY_REASON = "named as a legacy snapshot"
LEGACY_FIX = "retire the legacy file rather than share it"
LEGACY_FILE = re.compile(r"(?:^|_)(?:old|legacy|deprecated|backup|v0)(?:_|$)", re.IGNORECASE)
FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef)
HELPER_LINES = 3  # a helper's signature, its return, and the call that replaces the block
MIN_BLOCK_SAVING = 6  # lines a helper must save once its call and signature are counted
MAX_HELPER_ARGUMENTS = 5  # pylint's own `max-args`: a helper taking more is flagged itself, and no simpler than the copy


def _doubt(index: ProjectIndex, judgement: Judgement, member: Member, project: FileCopies | None,
           min_statements: int) -> str | None:
    """Why a high copy is medium as reported (rule 5), in words; None: it stays high."""
    source = next((p for m in (member, judgement.kept) if (p := copied_code(index, m.path, m.line)) is not None), None)
    if source is not None:
        return f"{source.describe()} on purpose, so not high"
    policy = declared_duplication(index)
    if policy is not None:
        if judgement.identical(member):
            return f"the project duplicates such code on purpose ({policy}): keep the copies aligned rather than share them"
        return (f"the project duplicates such code on purpose ({policy}) and wants the copies aligned: this one drifted "
                f"({judgement.drift_text(member)}); align it rather than share it")
    legacy = legacy_snapshot(member.path)
    if legacy:
        return legacy
    if _standalone_script(index, member.path):
        return ("this copy is in a standalone script (run by path, it imports nothing of the project): importing the "
                "kept copy would need the package installed and load it; merge the scripts or keep the copy")
    if _never_called(index, judgement):
        return NEVER_CALLED
    if _imports_back(index, judgement.kept, member):
        return (f"{judgement.kept.path.rpartition('/')[2]} already imports this module: keep this copy and import "
                "it there (the other way is an import cycle)")
    if member.kind != "block":
        if member.statements < min_statements:
            return f"a small body ({member.statements} statements): sharing it couples its callers for a few lines"
        if judgement.overrides and (definer := nearest_definer(index, member)) != owner_of(index, judgement.kept):
            return (f"it overrides {definer.rpartition('.')[2] if definer else 'another'}'s version, not the copy: "
                    "deleting it changes what runs")
        if member.kind == "method" and not judgement.overrides and _calls_super(index, member):
            return CALLS_SUPER
        if member.kind == "method" and not judgement.overrides and member.qual.endswith(".__init__"):
            return "another class's constructor cannot run on this one"
        return None
    if _reads_frame(index, member):
        return "the block reads locals(): a helper would see its own frame"
    if _calls_super(index, member):
        return "the block calls super(): a helper outside the class cannot"
    net = judgement.saved(member) - HELPER_LINES
    if net < MIN_BLOCK_SAVING:
        return f"{SMALL_BLOCK} {max(net, 0)} lines net (its signature, return and call stay)"
    claimed = judgement.group.claims.get(member)
    if claimed is not None and len(claimed.relayed) > MAX_HELPER_ARGUMENTS:
        shown = ", ".join(claimed.relayed[:3])
        return (f"a helper would only pass {len(claimed.relayed)} of the caller's variables on ({shown}, …): the same "
                "calls on other values, no simpler than the copy")
    return mirrored_override(index, member, project)


MAIN_GUARD = re.compile(r"^if\s+__name__\s*==\s*['\"]__main__['\"]\s*:", re.MULTILINE)


def _standalone_script(index: ProjectIndex, relpath: str) -> bool:
    """A script run by path that imports nothing of the project (ChatLearn's data-preparation scripts, run as
    `python chatlearn/data/data_preprocess/math_lighteval.py` after a bare clone)."""
    if not MAIN_GUARD.search(index.text(relpath) or ""):
        return False
    tops = index.top_packages()  # imports are absolute in the facts (relative ones resolved against the package)
    return not any(target.partition(".")[0] in tops for target in index.facts(relpath).get("imports", {}).values())


def _imports_back(index: ProjectIndex, kept: Member, member: Member) -> bool:
    """The kept copy's module imports the reported copy's module (or a name from it)."""
    module = index.entries.get(member.path, {}).get("module", "")
    return kept.path != member.path and bool(module) and any(
        dotted == module or dotted.rpartition(".")[0] == module for dotted in index.facts(kept.path).get("imports", {}).values())


def legacy_snapshot(path: str) -> str | None:
    """Why a file named as a legacy snapshot (`qwen2_old.py`) holds copies on purpose; None for other files."""
    stem = path.rpartition("/")[2].removesuffix(".py")
    return f"`{stem}.py` is {LEGACY_REASON}, kept apart on purpose" if LEGACY_FILE.search(stem) else None


def _calls_super(index: ProjectIndex, member: Member) -> bool:
    lines = (index.text(member.path) or "").splitlines()[member.line - 1:member.end]
    return any(ZERO_ARGUMENT_SUPER.search(line) for line in lines)


def _never_called(index: ProjectIndex, judgement: Judgement) -> bool:
    """No copy of a function group is named anywhere but at its own definition, while other modules import from
    every copy's module (test oracles left beside the kernels the project uses)."""
    members = judgement.group.members
    if any(m.kind != "function" for m in members):
        return False
    imported = _IMPORTED.of(index)
    if not all(index.entries.get(m.path, {}).get("module", "") in imported for m in members):
        return False
    names = {m.qual.rpartition(".")[2] for m in members}
    return not any(not any(m.path == hit.path and m.line <= hit.line <= m.end for m in members)
                   for name in names for hit in index.hits(name))


def _imported_modules(index: ProjectIndex) -> frozenset[str]:
    """Modules some other module imports (or imports a name from); once per run."""
    modules: set[str] = set()
    for relpath, facts in index.python_files():
        own = index.entries.get(relpath, {}).get("module")
        modules.update(m for dotted in facts.get("imports", {}).values() for m in (dotted, dotted.rpartition(".")[0])
                       if m != own)
    return frozenset(modules)


_IMPORTED: Derived[frozenset[str]] = Derived("copies.imported_modules", _imported_modules)


def as_reported(index: ProjectIndex, judgement: Judgement, member: Member, project: FileCopies | None = None,
                min_statements: int = 0) -> Verdict:
    """The verdict of one copy as the message gives it: rule 5 of the module docstring on top of `judge`;
    `project`: the fingerprint of the copy's file (to compare an enclosing override with upstream);
    `min_statements`: the size of a copy worth a message (smaller ones count when copied three times)."""
    verdict = judgement.verdicts[member]
    vendored = _both_vendored(index, judgement.kept, member)
    if vendored is not None and verdict.status is Status.CANDIDATE:
        return decide(verdict.reason, rejects=[vendored])
    if verdict.status is not Status.CANDIDATE or verdict.confidence != "high":
        return verdict
    doubt = _doubt(index, judgement, member, project, min_statements)
    if doubt is None:
        return verdict
    return lowered(verdict, f"{doubt}; {verdict.reason}")


def _both_vendored(index: ProjectIndex, kept: Member, member: Member) -> str | None:
    """Why a copy between two vendored trees is not the project's to share: its duplication is upstream's."""
    places = [copied_code(index, m.path, m.line) for m in (kept, member)]
    if not all(p is not None and p.scope == "vendored" for p in places):
        return None
    folders = " and ".join(sorted({p.source for p in places if p is not None}))
    return (f"both copies are vendored ({folders}): "
            "other projects' code, resynced as a whole, so the duplication is theirs to share")


def kept_copy_lowered(verdict: Verdict, kept_upstream: HasUpstreamPlace | None) -> Verdict:
    """A high copy whose kept copy is itself a copy of upstream: medium, naming upstream (use that one instead)."""
    if kept_upstream is None or verdict.status is not Status.CANDIDATE or verdict.confidence != "high":
        return verdict
    return lowered(verdict, f"the kept copy repeats {kept_upstream.upstream_place}: use that one; {verdict.reason}")


def lazy_import_line(text: str, module: str) -> int | None:
    """The first line importing `module` (or from it) inside a function, when no module-level import of it exists."""
    if f"{module}" not in text:
        return None
    try:
        tree = parse_source(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    inside = {id(node) for function in walk_nodes(tree) if isinstance(function, FUNCTION_NODES)
              for node in walk_nodes(function) if isinstance(node, (ast.Import, ast.ImportFrom))}
    lazy: int | None = None
    for node in walk_nodes(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        if not any(name == module or name.startswith(module + ".") for name in names):
            continue
        if id(node) not in inside:
            return None  # imported outside functions as well
        lazy = min(lazy or node.lineno, node.lineno)
    return lazy


def _reads_frame(index: ProjectIndex, member: Member) -> bool:
    lines = (index.text(member.path) or "").splitlines()
    return any(call in line for line in lines[member.line - 1:member.end] for call in FRAME_READS)
