"""What the two data-movement checkers share: a finding, its verdict, its one-line message.

Redundant copies and conversions are proven inside one function, so no project
consumer can make one live: the verdict comes from the strength of the local proof
(PROVEN -> high, HEURISTIC -> medium), or a rejection when the author explains the
line in a comment (a sync, a kernel limitation, a layout requirement) or the file is
validation material (tests, benchmarks, examples). Comments are read from pylint's
token stream, which pylint hands to token checkers before it walks the module.

Sibling lines of one function with the same pattern and verdict (three identical
`.to()` chains, one under the other) are one finding: one fix, reported at the first,
naming the others. Findings wait until their function has been walked, then go out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from astroid import nodes

from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.comments import module_comments
from pylint_omni.evidence.wording import evidence_clause, sentence, short_message
from pylint_omni.evidence.consumers import Status, Verdict, decide
from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.ranking import PATTERN
from pylint_omni.tensors.local_flow import enclosing_function
from pylint_omni.index.paths import Location, classify_path
from pylint_omni.index.vocabulary import COLLECTIVE_LIBRARIES
from pylint_omni.tensors.facts import Strength

# Words with which authors explain a copy, a sync or a conversion they need.
JUSTIFYING_WORDS = re.compile(
    r"sync|kernel|contig|stride|layout|alias|graph|pinn?ed|pin_memory|" + "|".join(COLLECTIVE_LIBRARIES) + r"|collective|workaround|"
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
    pattern: str = ""  # what one such finding is, for grouping and bundles (`no-op .to() call`)
    micro: bool = False  # no copy or transfer saved: a no-op call, a merge of two calls into one
    habit: bool = False  # a micro finding that is one habit of the codebase: bundled across files (`ranking.PATTERN`)


def justification(node: nodes.NodeNG) -> str | None:
    """A comment on the node's lines, or in the comment block right above its statement, explaining it
    (a tool's pragma explains nothing and ends the block above)."""
    comments = module_comments(node.root())
    statement = node.statement()
    first, last = statement.fromlineno, max(node.tolineno or 0, statement.fromlineno)
    said = [comments.by_line[line] for line in range(first, last + 1)
            if line in comments.by_line and line not in comments.own_lines]
    above = first - 1
    while above in comments.own_lines and not TOOL_PRAGMAS.match(comments.by_line[above]):
        said.append(comments.by_line[above])
        above -= 1
    return next((comment.lstrip("# ").strip() for comment in said
                 if not TOOL_PRAGMAS.match(comment) and JUSTIFYING_WORDS.search(comment)), None)


VALIDATION_FUNCTION_PREFIXES = ("test_", "benchmark", "bench_")
# A docstring that says so: "Test function to verify ...", "Benchmark ...", "Only used in tests".
VALIDATION_DOCSTRING = re.compile(r"\A\s*(test|benchmark)\b|only used (in|by|for) tests?|not (be )?used in (model )?inference", re.I)


class CopyChecker(OmniChecker):
    """Base of the data-movement checkers: skips validation files, rejects explained lines, groups siblings."""

    symbol = ""
    _validation_file = False
    _relpath = ""

    _reported: set[tuple[int, int]] = set()
    _pending: dict[int, list[tuple[CopyFinding, Verdict]]] = {}

    def visit_module(self, node: nodes.Module) -> None:
        self._validation_file, self._relpath = False, ""
        self._reported, self._pending = set(), {}
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
        """Judge a finding; it goes out when its function (or the module) has been walked."""
        function = enclosing_function(finding.node)
        if function is not None and (function.name.startswith(VALIDATION_FUNCTION_PREFIXES) or (
                function.doc_node is not None and VALIDATION_DOCSTRING.search(str(function.doc_node.value)))):
            return  # a test or benchmark living in a production module is validation code
        statement = finding.node.statement()
        where = (statement.fromlineno, statement.col_offset)
        if where in self._reported:
            return  # one finding per statement: nested conversions of one chain are one fix
        self._reported.add(where)
        reason = justification(finding.node)
        verdict = decide(finding.evidence, rejects=[f"a comment on the line explains it: '{reason}'"] if reason is not None else [],
                         doubts=[finding.unknown] if finding.strength < Strength.PROVEN else [])
        self._pending.setdefault(id(function), []).append((finding, verdict))

    def leave_functiondef(self, node: nodes.FunctionDef) -> None:
        self._flush(id(node))

    leave_asyncfunctiondef = leave_functiondef

    def leave_module(self, node: nodes.Module) -> None:
        for key in list(self._pending):
            self._flush(key)

    def _flush(self, key: int) -> None:
        """Emit one function's findings: siblings with one pattern and one verdict as one finding."""
        groups: dict[tuple[str, str, str | None], list[tuple[CopyFinding, Verdict]]] = {}
        for finding, verdict in self._pending.pop(key, []):
            pattern = finding.pattern or finding.problem
            groups.setdefault((pattern, verdict.status.value, verdict.confidence), []).append((finding, verdict))
        for members in groups.values():
            members.sort(key=lambda m: (m[0].node.fromlineno or 0, m[0].node.col_offset or 0))
            if members[0][1].status is Status.REJECTED:  # each explained line keeps its own reason
                for finding, verdict in members:
                    self._emit_one(finding, verdict, [])
            else:
                self._emit_one(members[0][0], members[0][1], [m[0] for m in members[1:]])

    def _emit_one(self, finding: CopyFinding, verdict: Verdict, others: list[CopyFinding]) -> None:
        self.emit(self.symbol, finding.node, verdict, (message_text(finding, verdict, others),),
                  finding_details(self._relpath, finding, others))


MESSAGE_CODE_CHARS = 60  # characters of code quoted in a message


def code_span(node: nodes.NodeNG, limit: int = 70) -> str:
    """The node's source as a backticked span, cut to fit one message line."""
    text = node.as_string()
    return f"`{text if len(text) <= limit else text[:limit - 3] + '...'}`"


def _where(finding: CopyFinding) -> str:
    """`Owner.function()` or `function()` around the finding, "" at module level."""
    function = enclosing_function(finding.node)
    if function is None:
        return ""
    owner = function.parent.frame() if function.parent is not None else None
    return f"{owner.name}.{function.name}()" if isinstance(owner, nodes.ClassDef) else f"{function.name}()"


def finding_details(relpath: str, finding: CopyFinding, others: list[CopyFinding]) -> FindingDetails:
    """The report's surface, simplification, benefit and risk; the enclosing function's tests validate it."""
    function = enclosing_function(finding.node)
    where = _where(finding)
    every = [finding, *others]
    surface = [f"{relpath}:{f.node.fromlineno} " + (f"{where}: " if where else "") + f.surface.strip("`") for f in every]
    times = f"{len(every)} × " if others else ""
    saved = times + finding.saved + (f" per call of {where}" if where else "")
    benefit = Benefit(len(every), BenefitKind.TRANSFERS, saved, micro=finding.micro,
                      bundle=finding.pattern or "redundant conversion", scope=where, sites=len(every),
                      change=PATTERN if finding.habit else "")
    fix = finding.fix + (f" (and the same at line{'s' if len(others) > 1 else ''} "
                         f"{', '.join(str(f.node.fromlineno) for f in others)})" if others else "")
    proof = f"{finding.evidence}; cost: {finding.cost}" + (f"; unknown: {finding.unknown}" if finding.unknown else "")
    scope = function.qname() if function is not None else finding.node.root().name
    return FindingDetails(surface, sentence(fix), benefit, sentence(finding.risk), _validation_names(function), proof,
                          subject=f"{scope}: {finding.surface.strip('`')}", kind="local-copy")


GENERIC_NAMES = frozenset({"forward", "__call__", "__init__", "step", "run", "main", "apply", "process"})


def _validation_names(function: nodes.FunctionDef | None) -> list[str]:
    """Names whose tests validate the fix: the method's class (a `forward` is named by every model test), else the function."""
    if function is None:
        return []
    owner = function.parent.frame() if function.parent is not None else None
    if isinstance(owner, nodes.ClassDef):
        return [owner.name] if function.name in GENERIC_NAMES else [owner.name, function.name]
    return [] if function.name in GENERIC_NAMES else [function.name]


def message_text(finding: CopyFinding, verdict: Verdict, others: list[CopyFinding]) -> str:
    """What, the fix, one evidence clause: `short_message`; siblings are named by line."""
    code = code_span(finding.node, MESSAGE_CODE_CHARS)
    if others:
        lines = ", ".join(str(f.node.fromlineno) for f in others)
        what = f"{code} {finding.problem} (also line{'s' if len(others) > 1 else ''} {lines})"
        fix = f"{finding.fix} at each"
    else:
        what, fix = f"{code} {finding.problem}", finding.fix
    return short_message(what, fix, evidence_clause(verdict, finding.evidence))
