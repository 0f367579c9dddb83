"""`dead-compat-branch` (R7311): a branch for an environment the project no longer supports.

The scanner (`conditions`) records each module's environment tests; here each one is
evaluated against what the project declares (`support`): a `sys.version_info` test
below `requires-python`, a version gate (`torch.__version__`, `importlib.metadata.version`,
version flags and helpers) older than the dependency's floor, an `except ImportError`
fallback around imports that cannot fail (project modules, standard-library modules
present since the Python floor, hard dependencies). Gates inside the allowed range,
extras, marker-guarded requirements, submodules and names of third-party packages
(which may be newer than the floor) stay unknown and silent. A fallback around a
standard-library module that exists on some platforms or builds only (`fcntl`,
`msvcrt`, `lzma`) is dead only when the project's classifiers declare platforms that
all have it (`platforms`); otherwise it is a rejected idea, with that reason. When the project does
not declare what it runs on, the runtime metadata decides, at medium confidence.
"""

from __future__ import annotations

import re

from dataclasses import replace

from typing import Any

from astroid import nodes
from pylint.lint import PyLinter

from pylint_omni.compat.conditions import scan_compat
from pylint_omni.compat.evaluate import Evaluator, Outcome
from pylint_omni.compat.platforms import SYSTEM_LIBRARY_IMPORTS
from pylint_omni.compat.support import SCANNER_KEY, Support
from pylint_omni.compat.wording import (
    DeadBranch, branch_details, branch_text, decided_why, flag_details, flag_text, guarantee_why,
)
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.index.derived import Derived
from pylint_omni.index.project_index import ProjectIndex

SYMBOL = "dead-compat-branch"
AUDITED_SCANNERS = {SCANNER_KEY: scan_compat}
SITE_NODES = (nodes.If, nodes.IfExp, nodes.ExceptHandler)


class DeadCompatBranchChecker(OmniChecker):
    """Flags branches that only run on Python or dependency versions the project does not support."""

    msgs = {
        "R7311": (
            "%s",
            SYMBOL,
            "A compatibility or fallback branch for an environment the project no longer supports: a "
            "sys.version_info test below requires-python, a dependency version gate older than its declared "
            "floor, or an ImportError fallback around an import that cannot fail (a project module, a standard "
            "library module, a hard dependency). Delete the branch; the other one becomes unconditional.",
        ),
    }

    # The import guarantees are memoised along import cycles in the order they are first asked
    # (`Support._guarded`): a process visiting the modules in another order may judge a cycle differently.
    any_order = False

    def _evaluator(self, index: ProjectIndex) -> Evaluator:
        return _EVALUATOR.of(index)

    def visit_module(self, node: nodes.Module) -> None:
        found = self.audited_index_for(node)
        if found is None:
            return
        index, relpath = found
        facts: dict[str, Any] = index.extra(relpath, SCANNER_KEY) or {}
        if not facts.get("sites"):
            return
        evaluator = self._evaluator(index)
        positions = {(n.lineno, n.col_offset): n for n in node.nodes_of_class(SITE_NODES)}
        module = index.entries.get(relpath, {}).get("module", "")
        found: list[tuple[DeadBranch, nodes.NodeNG, bool | None]] = []
        for site in facts["sites"]:
            if site["k"] == "try":
                finding, at = self._fallback(evaluator, relpath, module, site), positions.get(tuple(site["handlers"][0][:2]))
                value: bool | None = None
            else:
                outcome = evaluator.evaluate(site["test"])
                finding, at = self._branch(relpath, site, outcome), positions.get((site["line"], site["col"]))
                value = outcome.value if outcome.value is not None else (outcome.decided[0].value if outcome.decided else None)
            if finding is None or at is None:
                continue
            if finding.kind == "if" and value is True and finding.dead is None:
                finding = replace(finding, inverted=fallback_warning(at))
            found.append((finding, at, value))
        # A check inside code another check never runs is dead with it (`elif` after an always-true `if`): its own
        # verdict would keep lines that never run.
        dead = [f.dead for f, _, _ in found if f.dead and not f.rejected and f.kind == "if"]
        found = [item for item in found if not any(first <= item[0].line <= last for first, last in dead
                                                   if (first, last) != item[0].dead)]
        flags = {} if index.settings.per_member else _by_flag(found)
        for finding, at, value in found:
            status = Status.REJECTED if finding.rejected else Status.CANDIDATE
            verdict = Verdict(status, None if finding.rejected else finding.confidence, "; ".join(finding.why), [], finding.notes)
            # The id's subject: where the test lives and what it tests, never its line (ids survive edits above it).
            details = replace(branch_details(finding), subject=f"{at.scope().qname()}: {finding.test}", kind=f"compat-{finding.kind}")
            text = branch_text(finding, value)
            checks = flags.get(_flag(finding) or "", [])
            if len(checks) > 1:
                if finding is not checks[0][0]:
                    continue  # one change: the first check of the flag speaks for all of them
                text, details = flag_text(checks), flag_details(checks, details)
            self.emit(SYMBOL, at, verdict, (text,), details)

    @staticmethod
    def _branch(relpath: str, site: dict[str, Any], outcome: Outcome) -> DeadBranch | None:
        module_level = site["col"] == 0
        if outcome.value is None:
            if not outcome.decided:
                return None
            why, notes, confidence = decided_why(outcome.decided[:1])
            return DeadBranch("operand", relpath, site["line"], outcome.decided[0].src, None, None, why, confidence, notes, [], module_level)
        why, notes, confidence = decided_why(outcome.decided)
        # `if ray.__version__ < "2.11": raise ValueError(...)`: never fires on a supported install, but it is what
        # stops an older one installed by hand; deleting it drops that error, not dead behaviour.
        refuses = outcome.value is False and bool(site.get("refuses"))
        if refuses:
            confidence = "medium"
            notes = [*notes, "the check refuses an unsupported version (it raises): it stops a hand-installed older "
                             "version with a clear error"]
        body, orelse = site.get("body"), site.get("orelse")
        dead, live = (orelse, body) if outcome.value else (body, orelse)
        arms = (site.get("orelse_src", ""), site.get("body_src", ""))
        return DeadBranch(site["k"], relpath, site["line"], site["src"], tuple(dead) if dead else None, tuple(live) if live else None,
                          why, confidence, notes, [], module_level, arms if outcome.value else arms[::-1], refuses=refuses)

    @staticmethod
    def _fallback(evaluator: Evaluator, relpath: str, module: str, site: dict[str, Any]) -> DeadBranch | None:
        guarantees = []
        doubts = []  # a standard-library import that fails on some platform or build: the fallback runs there
        for target, names, *_ in site["imports"]:
            found = evaluator.support.guaranteed(target, names, importer=module)
            doubt = evaluator.support.platform_doubt(target) if found is None else ""
            if found is None and (not doubt or evaluator.support.python_floor() is None):
                return None
            guarantees += [found] if found is not None else []
            doubts += [doubt] if doubt else []
        why, confidence = (doubts, "") if doubts else guarantee_why(guarantees)
        notes = []
        native = next((SYSTEM_LIBRARY_IMPORTS[t.partition(".")[0]] for t, *_ in site["imports"]
                       if t.partition(".")[0] in SYSTEM_LIBRARY_IMPORTS), "")
        if native and confidence == "high":
            confidence = "medium"
            notes = [f"{native}: the fallback runs there even with the package installed"]
        if site.get("calls") and confidence == "high":
            # The body also calls what it imported: an ImportError raised inside that call would reach the fallback.
            confidence = "medium"
            notes = [f"the try body also makes {site['calls']} call(s) of the imported module, which could raise ImportError itself"]
        first, last = site["handlers"][0][0], site["handlers"][-1][3]
        imported = f"`{site['imports'][0][3]}`" + (f" (+{len(site['imports']) - 1} more)" if len(site["imports"]) > 1 else "")
        extra = sorted({line for lines in site.get("checks", {}).values() for line in lines})
        live = (site["line"] + 1, site["orelse"][1] if site.get("orelse") else site["handlers"][0][0] - 1)
        return DeadBranch("fallback", relpath, site["handlers"][0][0], imported, (first, last), live,
                          why, confidence, notes, extra, site["col"] == 0, rejected=bool(doubts))


_EVALUATOR: Derived[Evaluator] = Derived("compat.evaluator", lambda index: Evaluator(index, Support(index)))


def _flag(finding: DeadBranch) -> str | None:
    """The module's flag a check tests (`if TORCH_2`, `if not torch_version_above_1_13`), None for another test."""
    name = finding.test.removeprefix("not ").strip()
    # An inverted guard is a lost feature of its own: never folded.
    plain = finding.kind in ("if", "ifexp", "operand") and not finding.rejected and not finding.inverted
    return name if name.isidentifier() and plain else None


def _by_flag(found: list[tuple[DeadBranch, nodes.NodeNG, bool | None]]) -> dict[str, list[tuple[DeadBranch, bool | None]]]:
    """The candidate checks of each flag in one module, by line (nanotron tests `torch_version_above_1_13` four times:
    one change, the flag and its four dead branches)."""
    flags: dict[str, list[tuple[DeadBranch, bool | None]]] = {}
    for finding, _, value in sorted(found, key=lambda item: item[0].line):
        name = _flag(finding)
        if name is not None and value is not None:
            flags.setdefault(name, []).append((finding, value))
    return flags


def register(linter: PyLinter) -> None:
    linter.register_checker(DeadCompatBranchChecker(linter))


# What an old-version fallback says: "you need torch version >= 2.6.0", "requires transformers 4.40", "please upgrade".
MAX_QUOTED = 50  # characters of the body's message the finding quotes
FALLBACK_WORDS = re.compile(r">=|\bversions?\b|\bupgrade\b|\brequires?\b|\bneeds?\b|\bnot supported\b", re.IGNORECASE)


def fallback_warning(node: nodes.NodeNG) -> str:
    """The text an `if` body's message says when the body is a fallback that warns about a version and returns
    (ends in `return`), else "": a check that is always true then runs the fallback, not the feature."""
    body = getattr(node, "body", None) or []
    if not body or not isinstance(body[-1], nodes.Return) or getattr(node, "orelse", None):
        return ""
    for constant in (c for stmt in body for c in stmt.nodes_of_class(nodes.Const)):
        if isinstance(constant.value, str) and FALLBACK_WORDS.search(constant.value):
            text = " ".join(constant.value.split())
            return text if len(text) <= MAX_QUOTED else text[:MAX_QUOTED].rstrip() + "…"
    return ""
