"""What the two data-movement checkers share: a finding, its verdict, its one-line message.

Redundant copies and conversions are proven inside one function, so no project
consumer can make one live: the verdict comes from the strength of the local proof
(PROVEN -> high, HEURISTIC -> medium), or a rejection when the author explains the
line in a comment (a sync, a kernel limitation, a layout requirement) or the file is
validation material (tests, benchmarks, examples). Comments are read from pylint's
token stream, which pylint hands to token checkers before it walks the module.
"""

from __future__ import annotations

import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from astroid import nodes
from pylint.checkers import BaseTokenChecker

from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.wording import sentence
from pylint_omni.evidence.consumers import Status, Verdict
from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.tensors.local_flow import enclosing_function
from pylint_omni.index.paths import Location, classify_path
from pylint_omni.tensors.facts import Strength

# Words with which authors explain a copy, a sync or a conversion they need.
JUSTIFYING_WORDS = re.compile(
    r"sync|kernel|contig|stride|layout|alias|graph|pinn?ed|pin_memory|nccl|hccl|collective|workaround|"
    r"requir|need|must|avoid|ensure|copy|in[- ]?place|separate|mutat|onnx|numpy|precision|round|"
    r"bug|issue|fail|because|otherwise|compile|trace|static|persist|buffer|cache|deliberate|"
    r"intentional|on purpose|keep|safe|snapshot|normali[sz]|validat|hack",
    re.IGNORECASE,
)
TOOL_PRAGMAS = re.compile(r"#\s*(pylint|noqa|type|pragma|fmt|isort|mypy)\b", re.IGNORECASE)


@dataclass(frozen=True)
class CopyFinding:
    """One redundant copy or conversion, with the proof and the fix."""

    node: nodes.NodeNG
    surface: str  # the code, e.g. `torch.tensor(ids.tolist())`
    problem: str  # what it does twice
    cost: str  # transitions and copies counted
    fix: str
    evidence: str  # what the function proves
    strength: Strength
    saved: str  # what the fix removes, counted (the report's benefit; "per call of f()" is added)
    risk: str  # the behaviour the fix could change
    unknown: str = ""


class LineComments(BaseTokenChecker):
    """Keeps the comments of the module being checked, by line."""

    _trailing: dict[int, str]
    _full_line: dict[int, str]

    def process_tokens(self, tokens: list[tokenize.TokenInfo]) -> None:
        self._trailing, self._full_line = {}, {}
        for token in tokens:
            if token.type != tokenize.COMMENT or TOOL_PRAGMAS.match(token.string):
                continue
            own_line = token.line[: token.start[1]].strip() == ""
            (self._full_line if own_line else self._trailing)[token.start[0]] = token.string

    def justification(self, node: nodes.NodeNG) -> str | None:
        """A comment on the node's lines, or in the comment block right above its statement, explaining it."""
        statement = node.statement()
        first, last = statement.fromlineno, max(node.tolineno or 0, statement.fromlineno)
        said = [getattr(self, "_trailing", {}).get(line, "") for line in range(first, last + 1)]
        above = statement.fromlineno - 1
        full_line = getattr(self, "_full_line", {})
        while above in full_line:
            said.append(full_line[above])
            above -= 1
        for comment in said:
            if comment and JUSTIFYING_WORDS.search(comment):
                return comment.lstrip("# ").strip()
        return None


VALIDATION_FUNCTION_PREFIXES = ("test_", "benchmark", "bench_")


class CopyChecker(LineComments, OmniChecker):
    """Base of the data-movement checkers: skips validation files, rejects explained lines."""

    symbol = ""
    _validation_file = False
    _relpath = ""

    _reported: set[tuple[int, int]] = set()

    def visit_module(self, node: nodes.Module) -> None:
        self._validation_file, self._relpath = False, ""
        self._reported = set()
        if node.file and node.file.endswith(".py"):
            root = self.settings_for(node.file).root
            try:
                relpath = Path(node.file).resolve().relative_to(Path(root).resolve()).as_posix()
            except ValueError:  # outside the project root: judged as production code
                return
            self._relpath = relpath
            location = classify_path(relpath, self.settings.validation_globs, self.settings.production_globs)
            self._validation_file = location is Location.VALIDATION

    @property
    def skipping(self) -> bool:
        return self._validation_file

    def report(self, finding: CopyFinding) -> None:
        function = enclosing_function(finding.node)
        if function is not None and function.name.startswith(VALIDATION_FUNCTION_PREFIXES):
            return  # a test or benchmark living in a production module is validation code
        statement = finding.node.statement()
        where = (statement.fromlineno, statement.col_offset)
        if where in self._reported:
            return  # one finding per statement: nested conversions of one chain are one fix
        self._reported.add(where)
        reason = self.justification(finding.node)
        if reason is not None:
            verdict = Verdict(Status.REJECTED, None, f"a comment on the line explains it: '{reason}'")
        elif finding.strength >= Strength.PROVEN:
            verdict = Verdict(Status.CANDIDATE, "high", finding.evidence)
        else:
            verdict = Verdict(Status.CANDIDATE, "medium", finding.unknown, unknowns=[finding.unknown])
        self.emit(self.symbol, finding.node, verdict, (message_text(finding, verdict),), finding_details(self._relpath, finding))


def code_span(node: nodes.NodeNG) -> str:
    """The node's source as a backticked span, cut to fit one message line."""
    text = node.as_string()
    return f"`{text if len(text) <= 70 else text[:67] + '...'}`"


def finding_details(relpath: str, finding: CopyFinding) -> FindingDetails:
    """The report's surface, simplification, benefit and risk; the enclosing function's tests validate it."""
    function = enclosing_function(finding.node)
    where = ""
    if function is not None:
        owner = function.parent.frame() if function.parent is not None else None
        where = f"{owner.name}.{function.name}()" if isinstance(owner, nodes.ClassDef) else f"{function.name}()"
    surface = f"{relpath}:{finding.node.fromlineno} " + (f"{where}: " if where else "") + finding.surface.strip("`")
    saved = finding.saved + (f" per call of {where}" if where else "")
    benefit = Benefit(1, BenefitKind.TRANSFERS, saved, micro="no copy" in finding.cost)
    scope = function.qname() if function is not None else finding.node.root().name
    return FindingDetails(
        [surface], sentence(finding.fix), benefit, sentence(finding.risk),
        [function.name] if function is not None else [],
        subject=f"{scope}: {finding.surface.strip('`')}", kind="local-copy",
    )


def message_text(finding: CopyFinding, verdict: Verdict) -> str:
    """What, the fix, then the evidence, in one line."""
    if verdict.status is Status.REJECTED:
        judged = f"Rejected: {verdict.reason}"
    else:
        judged = f"Confidence {verdict.confidence}"
    unknown = finding.unknown or "nothing beyond this function (it is judged alone)"
    return (
        f"{finding.surface} {finding.problem} ({finding.cost}); {finding.fix}. "
        f"{judged}. Evidence: {finding.evidence}; searched the enclosing function; unknown: {unknown}."
    )
