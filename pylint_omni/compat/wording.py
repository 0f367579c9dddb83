"""Words of `dead-compat-branch`: the short message, the report details and the benefit."""

from __future__ import annotations

from dataclasses import dataclass, replace

from pylint_omni.compat.evaluate import Decided
from pylint_omni.compat.support import Guarantee
from pylint_omni.evidence.benefit import Benefit, BenefitKind, Heat
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.evidence.wording import short_message


@dataclass(frozen=True)
class DeadBranch:
    """One finding: the test, the dead lines, the lines that become unconditional, and why."""

    kind: str  # "if", "ifexp", "operand" (a decided part of an undecided test), "fallback"
    relpath: str
    line: int
    test: str  # the test as written (`torch < 2.0`), or the guarded import for a fallback
    dead: tuple[int, int] | None  # None: the check guards nothing dead (a redundant check)
    live: tuple[int, int] | None  # the branch that runs always
    why: list[str]  # the declarations (or metadata) that decide it
    confidence: str
    notes: list[str]  # for medium: why the evidence is weaker
    extra_dead: list[int]  # other lines that test the fallback (`x is None`)
    module_level: bool
    arms: tuple[str, str] = ("", "")  # a conditional expression: (the dead arm, the live arm)
    rejected: bool = False  # a fallback that looked dead, kept: `why` says where its import fails (`platforms`)
    # An always-true `if` whose body is the fallback for old versions (it warns "needs torch >= 2.6" and returns):
    # the guard is inverted, so the code after it never runs. The text the body says.
    inverted: str = ""
    refuses: bool = False  # the dead body raises: the check that refuses an unsupported, hand-installed version

    @property
    def dead_lines(self) -> int:
        return (self.dead[1] - self.dead[0] + 1) if self.dead else 0


def _lines(span: tuple[int, int]) -> str:
    return f"line {span[0]}" if span[0] == span[1] else f"lines {span[0]}-{span[1]}"


def decided_why(decided: list[Decided]) -> tuple[list[str], list[str], str]:
    """(declarations, notes, confidence) of the comparisons that decide a test."""
    why = list(dict.fromkeys(f"{d.subject}: {d.floor.source}" for d in decided))
    notes = list(dict.fromkeys(d.floor.note for d in decided if d.floor.note))
    confidence = "high" if all(d.floor.confidence == "high" for d in decided) else "medium"
    return why, notes, confidence


def guarantee_why(guarantees: list[Guarantee]) -> tuple[list[str], str]:
    why = list(dict.fromkeys(g.reason for g in guarantees))
    return why, "high" if all(g.confidence == "high" for g in guarantees) else "medium"


def branch_text(finding: DeadBranch, value: bool | None) -> str:
    """The message: what, the fix, one evidence clause."""
    evidence = ("rejected: " if finding.rejected else "") + finding.why[0] + (
        f" (+{len(finding.why) - 1} more)" if len(finding.why) > 1 else "")
    always = f"is always {value} on every supported version"
    if finding.kind == "fallback":
        assert finding.dead is not None
        what = f"The `except ImportError` fallback ({_lines(finding.dead)}) of {finding.test} never runs"
        also = f" and the fallback checks at line(s) {', '.join(map(str, finding.extra_dead))}" if finding.extra_dead else ""
        fix = f"import unconditionally and delete the fallback{also}"
    elif finding.kind == "operand":
        what, fix = f"`{finding.test}` {always}", "drop it from the test"
    elif finding.kind == "ifexp":
        dead_arm, live_arm = finding.arms
        what, fix = f"`{finding.test}` {always}, so `{dead_arm}` is never chosen", f"use `{live_arm}` directly"
    elif finding.dead is None and finding.inverted:
        what = (f"`if {finding.test}` {always}, and its body returns after saying \"{finding.inverted}\": the code after "
                "it never runs on any supported version")
        fix = "if the guard is inverted (a lost feature), delete the check and its body; otherwise delete the code after it"
    elif finding.dead is None:
        what, fix = f"`if {finding.test}` {always}", "drop the check and keep its body"
    elif finding.refuses:
        what = f"`if {finding.test}` {always}: the error it raises ({_lines(finding.dead)}) never fires on a supported install"
        fix = "delete the check, or keep it to refuse a hand-installed older version with a clear error"
    else:
        what = f"`if {finding.test}` {always}: {_lines(finding.dead)} never run"
        fix = ("delete it" if finding.dead[0] == finding.dead[1] else "delete them") + (
            f" and keep {_lines(finding.live)} unconditional" if finding.live else "")
    return short_message(what, fix, evidence)


def branch_details(finding: DeadBranch) -> FindingDetails:
    surface = []
    if finding.dead:
        surface.append(f"{finding.relpath}:{finding.dead[0]}-{finding.dead[1]} dead branch ({finding.kind}) of `{finding.test}`")
    else:
        surface.append(f"{finding.relpath}:{finding.line} redundant check `{finding.test}`")
    if finding.live:
        surface.append(f"{finding.relpath}:{finding.live[0]}-{finding.live[1]} runs unconditionally")
    surface += [f"{finding.relpath}:{line} tests the fallback" for line in finding.extra_dead]
    simplification = (
        f"Delete {_lines(finding.dead)}" + (f" and make {_lines(finding.live)} unconditional" if finding.live else "")
        if finding.dead else f"Decide at line {finding.line}: an inverted guard (delete the check and its body, the code after it "
        "runs again) or dead code after it (delete that)" if finding.inverted else f"Drop the check at line {finding.line}"
    ) + ("; the checks of the fallback value go too" if finding.extra_dead else "") + ". Decided by " + "; ".join(finding.why) + "."
    lines = finding.dead_lines + len(finding.extra_dead) + 1
    text = (f"{lines} line(s) of a compatibility branch for an environment the project does not support"
            if finding.dead else "a lost feature or dead code: an always-true check returns before it" if finding.inverted
            else "one redundant version check")
    heat = Heat.COLD if finding.module_level else Heat.UNKNOWN
    if finding.inverted and finding.live:
        lines = finding.live[1] - finding.live[0] + 2
    benefit = Benefit(lines, BenefitKind.FEATURE if finding.inverted else BenefitKind.COMPAT, text, heat,
                      micro=finding.dead is None and not finding.inverted)
    risk = ("An environment outside the declared range (an older release, a source checkout run directly) would lose "
            "the branch; the declaration named is the contract. " + " ".join(finding.notes)).strip()
    return FindingDetails(surface, simplification, benefit, risk)


def flag_text(checks: list[tuple[DeadBranch, bool | None]]) -> str:
    """One message for every check of one module flag (`checker._by_flag`), shown at the first."""
    first, value = checks[0]
    flag = first.test.removeprefix("not ").strip()
    flag_value = (not value) if first.test.startswith("not ") else value
    lines = ", ".join(str(finding.line) for finding, _ in checks)
    what = (f"`{flag}` is always {flag_value} on every supported version, and {len(checks)} checks of it (lines {lines}) "
            "keep code for the other case")
    return short_message(what, "delete the dead branches, keep the live ones unconditional, and drop the flag",
                         first.why[0] + (f" (+{len(first.why) - 1} more)" if len(first.why) > 1 else ""))


def flag_details(checks: list[tuple[DeadBranch, bool | None]], first: FindingDetails) -> FindingDetails:
    """The details of the first check, widened to every check of the flag."""
    each = [branch_details(finding) for finding, _ in checks]
    lines = sum(d.benefit.lines for d in each)
    surface = [line for d in each for line in d.surface]
    simplification = " ".join(d.simplification for d in each)
    benefit = replace(first.benefit, lines=lines, micro=False,
                      text=f"{lines} line(s) of {len(checks)} compatibility checks of one flag")
    return replace(first, surface=surface, simplification=simplification, benefit=benefit, kind="compat-flag")
