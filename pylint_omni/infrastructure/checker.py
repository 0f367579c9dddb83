"""`replaceable-infrastructure` (R7313): a hand-written primitive a dependency already provides.

Tests, benchmarks and examples are never audited (`audited_index_for`), nor the
reference implementations a kernel module keeps to check itself against (functions
named `test_*`/`bench_*` or nested in them, and the `if __name__ == "__main__":` block):
they are written out on purpose.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from astroid import nodes
from packaging.version import Version
from pylint.lint import PyLinter

from pylint_omni.evidence.benefit import Benefit, BenefitKind
from pylint_omni.evidence.checker import OmniChecker
from pylint_omni.evidence.consumers import decide
from pylint_omni.evidence.findings import FindingDetails
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.floors import Floor, project_floor
from pylint_omni.infrastructure.shapes import Replaceable
from pylint_omni.infrastructure.shapes_dist import gathered_cat, looped_collective
from pylint_omni.infrastructure.shapes_files import copytree, rmtree
from pylint_omni.infrastructure.shapes_flow import (
    dataclass_asdict, flatten_loop, flatten_sum, suppress, thread_pool, thread_pool_listed)
from pylint_omni.infrastructure.shapes_layout import normalize, repeat_heads
from pylint_omni.infrastructure.shapes_loops import any_loop, counter_fill, field_literal_dict, fnmatch_filter, polling_sleep
from pylint_omni.infrastructure.shapes_norms import layer_norm, rms_norm
from pylint_omni.infrastructure.shapes_stdlib import dataclass_replace, lazy_global, lazy_property, memo_dict
from pylint_omni.infrastructure.shapes_torch import attention, gelu, log_softmax, relu, silu, softmax
from pylint_omni.infrastructure.wording import replaceable_text

SYMBOL = "replaceable-infrastructure"
EXPRESSION_SHAPES: tuple[Callable[[nodes.BinOp], Replaceable | None], ...] = (
    silu, relu, gelu, rms_norm, layer_norm, softmax, log_softmax, attention, normalize)
LOOP_SHAPES: tuple[Callable[[nodes.For], Replaceable | None], ...] = (
    flatten_loop, thread_pool, thread_pool_listed, rmtree, copytree, looped_collective, any_loop, polling_sleep)
REFERENCE_PREFIXES = ("test_", "bench_", "_test_", "benchmark_")
MAX_NAMED_PLACES = 3  # places named in a message where a lazy value's field is also mentioned
# Hand-written lines a finding must delete to be high: a smaller shape is a small saving, C in review however right,
# unless the module repeats it (a copy per class or model). A one-line shape or an idiom stays medium even then.
MIN_HIGH_LINES = 5
REPEATED_COPIES = 2  # findings of one kind in one module that make each of two to four lines worth fixing


def _reference_code(node: nodes.NodeNG) -> bool:
    """Inside a `test_*`/`bench_*` function or the `__main__` block: a reference kept on purpose."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.FunctionDef) and parent.name.startswith(REFERENCE_PREFIXES):
            return True
        if isinstance(parent, nodes.If) and "__main__" in parent.test.as_string() and "__name__" in parent.test.as_string():
            return True
        parent = parent.parent
    return False


def _graded(found: Replaceable, lines: int, copies: int) -> Replaceable:
    """Medium, saying why, for a one-line shape, an idiom, or a shape of fewer than `MIN_HIGH_LINES` lines that the
    module does not repeat (`REPEATED_COPIES`)."""
    if found.confidence != "high" or (not found.idiom and (
            lines >= MIN_HIGH_LINES or (lines > 1 and copies >= REPEATED_COPIES))):
        return found
    why = ("an idiom that saves two lines wherever it is" if found.idiom else
           "a one-line shape" if lines == 1 else f"{lines} hand-written lines go and the module has no other {found.name}")
    return replace(found, confidence="medium", evidence=f"{found.evidence}; medium: {why}, a small saving")


def _within_floor(found: Replaceable, floor: Floor | None) -> tuple[Replaceable, str]:
    """The finding and the declaration that guarantees its replacement; medium, saying so, when the project still
    supports a version without it. No declared floor: the message gives the version and claims nothing."""
    if floor is None:
        return found, ""
    dist, version = found.requirement
    if floor.version >= Version(version):
        return found, floor.source
    older = (f"the project still supports {dist} {floor.version} ({floor.source}): raise that floor first "
             "or keep a fallback")
    return replace(found, confidence="medium", glue=f"{found.glue}; {older}" if found.glue else older), ""


class ReplaceableInfrastructureChecker(OmniChecker):
    """Flags hand-written code that a call into PyTorch or the standard library replaces, saying what stays in glue."""

    msgs = {
        "R7313": (
            "%s",
            SYMBOL,
            "Hand-written code that PyTorch or the standard library provides (an activation, norm, softmax or "
            "attention, a collective written as a loop; a memo dict, a lazy property or global, a dataclass copy or "
            "field dict, an ignored exception, a flatten, a thread pool, a tree removal or copy; an any/all loop, a "
            "counter filled by hand, an fnmatch filter, a sleep cut into ticks). Call the library "
            "instead and delete the hand-written lines; the message says what stays in glue code or differs. "
            "A shape of fewer than 5 lines is high only where its module repeats it; a one-line shape never is.",
        ),
    }

    _found: list[tuple[nodes.NodeNG, Replaceable]]  # the module's findings, emitted when it is left (`_graded`)

    def visit_module(self, node: nodes.Module) -> None:
        self._found = []

    def leave_module(self, node: nodes.Module) -> None:
        kinds = Counter(found.name for _, found in self._found)
        for at, found in self._found:
            # An expression (an activation, a softmax, a flatten) becomes a call where it stands: wrapped over several
            # lines or not, it is one line; each temporary statement that goes with it is one more.
            lines = found.hand_lines((at.fromlineno, at.tolineno))
            if isinstance(at, (nodes.BinOp, nodes.Call)) and not found.size:
                lines -= at.tolineno - at.fromlineno
            self._emit(at, _graded(found, lines, kinds[found.name]))
        self._found = []

    def visit_binop(self, node: nodes.BinOp) -> None:
        self._report(node, [shape(node) for shape in EXPRESSION_SHAPES])

    def visit_call(self, node: nodes.Call) -> None:
        if node.func.as_string() in ("torch.matmul", "torch.bmm"):
            self._report(node, [attention(node)])
        else:
            self._report(node, [flatten_sum(node), gathered_cat(node), repeat_heads(node)])

    def visit_for(self, node: nodes.For) -> None:
        self._report(node, [shape(node) for shape in LOOP_SHAPES])

    def visit_if(self, node: nodes.If) -> None:
        self._report(node, [counter_fill(node)])

    def visit_listcomp(self, node: nodes.ListComp) -> None:
        self._report(node, [fnmatch_filter(node)])

    def visit_try(self, node: nodes.Try) -> None:
        self._report(node, [suppress(node)])

    def visit_return(self, node: nodes.Return) -> None:
        self._report(node, [dataclass_asdict(node), field_literal_dict(node)])

    def visit_functiondef(self, node: nodes.FunctionDef) -> None:
        self._report(node, [memo_dict(node), dataclass_replace(node, self._subclassed),
                            lazy_property(node, self._named_outside), lazy_global(node, self._named_outside)])

    # No `visit_asyncfunctiondef`: `functools.cache` on a coroutine function caches the coroutine, awaitable once.

    def _subclassed(self, cls: nodes.ClassDef) -> bool:
        """Whether a project class derives from `cls` (unknown counts as yes)."""
        found = self.audited_index_for(cls.root())
        return found is None or bool(class_graph(found[0]).descendants(cls.qname()))

    def _named_outside(self, owner: nodes.NodeNG, name: str) -> list[str]:
        """Where the project names `name` outside `owner`'s lines (a class or a module), from the index's mentions."""
        found = self.audited_index_for(owner.root())
        if found is None:
            return ["(no index)"]
        index, relpath = found
        inside = (owner.fromlineno, owner.tolineno) if not isinstance(owner, nodes.Module) else (0, 1 << 30)
        return sorted({f"{hit.path}:{hit.line}" for hit in index.hits(name)
                       if hit.path != relpath or not inside[0] <= hit.line <= inside[1]})[:MAX_NAMED_PLACES]

    def _report(self, node: nodes.NodeNG, candidates: list[Replaceable | None]) -> None:
        found = next((c for c in candidates if c is not None), None)
        audited = self.audited_index_for(node.root()) if found is not None else None
        if found is not None and audited is not None and not _reference_code(node):
            self._found.append((node, found))

    def _emit(self, node: nodes.NodeNG, found: Replaceable) -> None:
        audited = self.audited_index_for(node.root())
        assert audited is not None  # `_report` kept only audited findings
        found, declared = _within_floor(found, project_floor(audited[0], found.requirement[0]))
        scope = (node.parent if isinstance(node, nodes.FunctionDef) else node).scope().qname()
        # The id's subject: the enclosing function and the expression, never the line (ids survive edits above it).
        subject = f"{scope}: {found.written}"
        # The surface: every span of lines that goes, so a reviewer (and a label) finds all of them.
        places = found.places or ((node.fromlineno, node.tolineno),)
        surface = [f"{audited[1]}:{first}-{last} {subject if index == 0 else 'goes with it'}"
                   for index, (first, last) in enumerate(places)]
        risk = found.glue or "none: the library computes the same function"
        details = FindingDetails(surface, f"call `{found.replacement}`",
                                 Benefit(1, BenefitKind.COPIES, f"a hand-written {found.name} replaced by the library one"),
                                 risk, proof=found.evidence + (f"; the project requires {declared}" if declared else ""),
                                 subject=subject,
                                 kind=f"library-{found.name.lower().replace(' ', '-').replace('(', '').replace(')', '')}")
        verdict = decide(found.evidence, doubts=[found.evidence] if found.confidence == "medium" else [], unknowns=[])
        self.emit(SYMBOL, node, verdict,
                  (replaceable_text(found, declared),), details)


def register(linter: PyLinter) -> None:
    linter.register_checker(ReplaceableInfrastructureChecker(linter))
