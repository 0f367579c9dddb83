"""The evidence of each chain: who consumes it, what may still reach it, and how sure the finding is.

`unused-surface` (nothing reaches the chain):
- high: no consumer in code, configuration, docs or tests;
- medium, naming the doubt: only dead code uses it (a chain's shared member), a
  subpackage exports it (`__all__`, `__init__` imports: outside code may import
  it), a public method of the library's public API, a method that may override a
  third-party base no index reads, a class named like outside data chooses it
  (`*ForCausalLM`, `*Pipeline`), a module a computed import may load, or so many
  surfaces hanging off one unreached root that something names elsewhere that the
  root is more likely missing from the roots than dead (*suspected missing root*);
  a public method of a class whose instances go to outside code that never has
  one of its public methods called here (a servicer, a publisher); a definition a
  comment marks as API for outside callers; the read-back or release half of a
  pair whose other half production uses.
`test-only-surface` (only validation code reaches it):
- high when only tests use it; medium when examples or benchmarks use it (they
  teach it to users: the decision is whether it is supported API) or when the
  docs list it in an API reference or name it without its module;
- medium when no validation file names it: it is reached through production code
  that only validation code reaches (the decision is at that code);
- medium too, naming the doubt, when it may be a hook for an outside caller (its
  docstring describes one, or production prose in its package names it: `outside`),
  or when only other test-only code uses it besides tests (a shared member of
  test-only chains: the decision is at those roots);
- medium, naming the doubt, when it is the teardown half of a live setup, sets a module
  global production reads, or its module calls itself a reference for tests;
- medium with its own fix when the code gives it a role (`roles`: a reference
  implementation, an op never registered beside registered siblings, a missing call);
- rejected when user-facing docs present it (its qualname or an import of it
  in a page that is not a design page): a documented supported name.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field

from pylint_omni.evidence.consumers import (
    Consumer, ConsumerKind, Verdict, decide, external_root_consumers, judge, listed,
)
from pylint_omni.evidence.contracts import contracts_of, is_design_page
from pylint_omni.evidence.provenance import copied_code
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location, matches_any
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.scan.tokens import declared_globals
from pylint_omni.index.vocabulary import decorator_tail
from pylint_omni.surfaces.analysis import DEAD, SurfaceAnalysis, chain_surfaces, names_of, short_name
from pylint_omni.surfaces.chains import Chain
from pylint_omni.surfaces.dead_doubts import API_LISTING, dead_doubts, test_support
from pylint_omni.surfaces.loaded import computed_import
from pylint_omni.surfaces.edges import ATTRIBUTE_VIAS, BARE_VIAS
from pylint_omni.surfaces.lines import file_line, file_lines, names_as_code
from pylint_omni.surfaces.namesakes import namesake_in_docs
from pylint_omni.surfaces.leftovers import leftover_imports
from pylint_omni.surfaces.outside import DOCSTRING, OUTSIDE_DOUBTS, outside_caller_doubt, own_docstring
from pylint_omni.surfaces.reach import PRODUCTION
from pylint_omni.surfaces.roles import role_of
from pylint_omni.surfaces.table import TEST_GLOBS, Surface

EXAMPLE_GLOBS = ("examples/**", "**/examples/**", "benchmarks/**", "**/benchmarks/**", "**/example_*.py")
EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning", "Interrupt", "Exit")


@dataclass
class Judged:
    """A chain with its verdict and what its message says."""

    status: str  # analysis.DEAD | analysis.TEST_ONLY
    chain: Chain
    verdict: Verdict
    label: str  # "Method", "Exception class", ...
    kind: str  # the rule, for the finding id
    doubts: list[str] = field(default_factory=list)
    validation: list[Consumer] = field(default_factory=list)
    tests_going: list[str] = field(default_factory=list)  # validation surfaces that exist only for the chain
    test_lines: int = 0
    fix: str = ""  # the fix a role gives instead of deleting (`roles`)
    leftovers: list[str] = field(default_factory=list)  # production imports that go with it (`leftovers`)


def _is_exception(analysis: SurfaceAnalysis, dotted: str) -> bool:
    graph = analysis.reach.graph
    if dotted not in graph.nodes:
        return False
    for name in (dotted, *graph.ancestors(dotted)):
        for base in graph.nodes[name].upstream + [b for b in graph.nodes[name].definition.data.get("bases", []) if "." not in b]:
            tail = base.rpartition(".")[2]
            found = getattr(builtins, tail, None)
            if (isinstance(found, type) and issubclass(found, BaseException)) or tail.endswith(EXCEPTION_SUFFIXES):
                return True
    return False


def label_of(analysis: SurfaceAnalysis, surface: Surface) -> str:
    if surface.kind == "class":
        return "Exception class" if _is_exception(analysis, surface.dotted) else "Class"
    if surface.kind in ("method", "shadowed") and {decorator_tail(d) for d in surface.decorators} & {"property", "cached_property"}:
        return "Property"
    return {"module": "Module", "function": "Function", "method": "Method", "shadowed": "Definition"}[surface.kind]


def _validation_consumers(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain) -> list[Consumer]:
    """Resolved references and name mentions of the chain from validation files (tests, examples, docs)."""
    graph = graph_of(index)
    history = contracts_of(index).history
    surfaces = chain_surfaces(analysis, chain)
    found: dict[tuple[str, int], Consumer] = {}
    for dotted in surfaces:
        for ref in graph.refs_to(dotted):
            if ref.via in ("import", "hop", "store", "attr-store") or ref.path in history:
                continue
            if index.location(ref.path) is Location.VALIDATION or index.entries.get(ref.path, {}).get("kind") == "doc":
                found.setdefault((ref.path, ref.line), Consumer(ref.path, ref.line, ref.via, ConsumerKind.VALIDATION, dotted))
    root = analysis.table.surfaces[chain.root]
    vias = ATTRIBUTE_VIAS | (BARE_VIAS if root.kind != "method" else frozenset())
    elsewhere = _namesake_files(index, analysis, root, surfaces)
    owners = _lineage_names(analysis, root)
    for hit in graph.name_only(root.name, set(surfaces)):
        if hit.via == "doc" and (not names_as_code(file_line(index, hit.path, hit.line), root.name)
                                 or namesake_in_docs(index, hit.path, hit.line, root.name, owners)):
            continue  # a word of prose, or another package's name: not the surface
        if hit.path in elsewhere or any(t.endswith("." + root.name) for t in graph.targets_on_line(hit.path, hit.line)):
            continue  # that file's import or patch string names another definition of the name
        if hit.via in vias and hit.path not in history and (index.location(hit.path) is Location.VALIDATION or hit.via == "doc"):
            found.setdefault((hit.path, hit.line), Consumer(hit.path, hit.line, f"name-only {hit.via}", ConsumerKind.VALIDATION, root.name))
    return sorted(found.values(), key=lambda c: (c.path, c.line))


def _lineage_names(analysis: SurfaceAnalysis, root: Surface) -> frozenset[str]:
    """The class names a docs mention `Owner.method` may use for a method: its class's lineage (empty otherwise)."""
    if root.kind != "method" or not root.container:
        return frozenset()
    return frozenset(dotted.rpartition(".")[2] for dotted in analysis.reach.lineage(root.container))


def _namesake_files(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface, surfaces: list[str]) -> set[str]:
    """Files that resolve a reference to another definition of the root's name and none to the chain: their
    mentions of the bare name (`patch("pkg.other.name")`, a call after `from pkg.other import name`) are that one's."""
    graph = graph_of(index)
    ours = {r.path for d in surfaces for r in graph.refs_to(d)}
    theirs = {r.path for d in _same_named(analysis, root) if d not in surfaces for r in graph.refs_to(d)}
    return theirs - ours


def _presents(index: ProjectIndex, consumer: Consumer, module: str) -> bool:
    """A docs line that presents the surface to users, outside design pages and API reference listings (a
    line that is only the qualname: `- [pkg.mod.Name][]`, `::: pkg.mod.Name`): its qualname, or its name in
    a page that names its module (`from pkg.mod import Name` in a code block)."""
    if index.entries.get(consumer.path, {}).get("kind") != "doc" or is_design_page(consumer.path):
        return False
    if consumer.via.startswith("name-only") and not any(r.path == consumer.path for r in graph_of(index).refs_to(module)):
        return False
    return not API_LISTING.match(file_line(index, consumer.path, consumer.line))


REFERENCE_USE = re.compile(r"\b\w+_ref\b|\bref_\w+|\breference\b", re.IGNORECASE)


def _validation_role_doubts(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain, tests: list[Consumer]) -> list[str]:
    """Why a surface only tests use may still not be one to delete: test support kept in the package (fixtures
    use it), a reference implementation tests compare against, or production code naming it from code that no
    root reaches (the dead root is the finding; deleting this leaf breaks it)."""
    doubts: list[str] = []
    fixtures = [c for c in tests if c.path.rpartition("/")[2] == "conftest.py"]
    if fixtures:
        doubts.append(f"test fixtures use it ({listed(fixtures)}): test support, to move into the tests")
    if tests and all(_is_script(index, c.path) or TOOL_FILE.search(c.path.rpartition("/")[2]) for c in tests):
        doubts.append(f"a tool, not a test, runs it (a script under tests: {listed(tests)}); its output may feed production")
    root = analysis.table.surfaces[chain.root]
    if root.kind == "method" and TEST_SEAM.match(root.name):
        doubts.append(f"`{root.name}` resets shared state between tests (a test seam): without it the tests reach into "
                      "private fields; keep it, or move the reset into a fixture")
    twins = [d for d in _same_named(analysis, root) if d != root.dotted and analysis.reach.phase.get(d) == PRODUCTION]
    if twins:
        doubts.append(f"production uses a twin of the same name ({short_name(analysis, twins[0])}): a reference for tests or "
                      "an unfinished replacement; keep one")
    provenance = copied_code(index, root.path, root.line)
    if provenance is not None:
        doubts.append(f"in code {provenance.describe()}: drop it when resyncing the copy")
    if any(REFERENCE_USE.search(file_line(index, c.path, c.line)) for c in tests):
        doubts.append("a test compares against it (a reference implementation): move it into the tests")
    elif TESTS_REFERENCE.search(_module_docstring(index, root.path)):
        doubts.append("its module says it is a reference for tests (its docstring): test support by design; move it "
                      "into the tests or keep it")
    elif root.kind != "module" and FOR_TESTS.search(own_docstring(index, root)):
        doubts.append("its docstring says it is for tests: test support by design; move it into the tests or keep it")
    state = _global_state_read(index, analysis, root)
    if state:
        doubts.append(state)
    loaded = computed_import(index, analysis, root)
    if loaded:
        doubts.append(loaded)
    graph, table = graph_of(index), analysis.table
    members = chain_surfaces(analysis, chain)
    spans = [(table.surfaces[d].path, table.surfaces[d].line, table.surfaces[d].line + table.surfaces[d].lines)
             for d in members if d in table.surfaces]
    outside = outside_caller_doubt(index, table, root, spans)
    if outside:
        doubts.append(outside)
    if chain.used_by:
        doubts.append(f"besides tests, only {names_of(analysis, chain.used_by)} use it, which only tests use: "
                      "it goes with them, decide there")
    for dotted in members:
        for ref in graph.refs_to(dotted):
            if (ref.via in ("import", "hop", "store", "attr-store") or index.location(ref.path) is not Location.PRODUCTION
                    or any(ref.path == path and start <= ref.line < end for path, start, end in spans)):
                continue
            doubts.append(f"production code names it ({ref.path}:{ref.line}) inside code no root reaches; "
                          "that code's root is the finding")
            return doubts
    return doubts


NO_TEST_NAMES_IT = ("no test names it: validation code reaches it only through production code that no production root "
                    "reaches (a worker or plugin named in examples or docs); decide there")
# A definition whose own docstring says it is for tests (TorchServe's """Testing util method""").
FOR_TESTS = re.compile(r"\b(?:test(?:ing)? (?:util(?:ity|ities)?|helpers?|only|support)|for (?:unit |the )?test(?:s|ing)|"
                       r"(?:only )?used (?:only )?(?:in|by) tests)\b", re.IGNORECASE)
# A module whose docstring calls it a reference or an oracle for tests (`Pure-torch NVFP4 quantize/dequantize
# reference` ... `the numeric oracle for the kernel path`): functions only tests use are its purpose.
TESTS_REFERENCE = re.compile(r"^[^\n]*\breference\b|\boracle\b|\bfor (?:unit |the )?tests\b", re.IGNORECASE)
MODULE_DOCSTRING_LINES = 60  # lines read for a module's opening docstring
TOOL_FILE = re.compile(r"tun(e|ing)|bench|profil", re.IGNORECASE)
# `destroy_instance`, `reset_singleton`, `_reset_for_testing`: a singleton's or a registry's reset, for tests (tpu-inference).
TEST_SEAM = re.compile(r"_?(?:reset|destroy|clear|drop)_(?:instances?|singletons?|for_tests?|for_testing|global_state)$")


def _module_docstring(index: ProjectIndex, relpath: str) -> str:
    """The docstring a module opens with (after comments and blank lines), or ""."""
    lines = file_lines(index, relpath)[:MODULE_DOCSTRING_LINES]
    start = next((n for n, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")), len(lines))
    found = DOCSTRING.match("\n".join(lines[start:]))
    return found.group(2) if found else ""


def _global_state_read(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> str | None:
    """A function only tests call that sets a module global (`global loop_thread`) which production code reads:
    production depends on state only tests create, so deleting the setter leaves a branch nothing can enable; the
    change is the whole mechanism (setter, getter, the branches that read it), or a missing call."""
    if root.kind not in ("function", "method"):
        return None
    for name in declared_globals(file_lines(index, root.path)[root.line - 1:root.end]):
        used = re.compile(rf"\b{re.escape(name)}\b")
        for line, end, dotted in analysis.table.spans.get(root.path, ()):
            surface = analysis.table.surfaces[dotted]
            if dotted == root.dotted or surface.kind not in ("function", "method") or analysis.reach.phase.get(dotted) != PRODUCTION:
                continue
            if any(used.search(text) for text in file_lines(index, root.path)[line:end]):
                return (f"it sets the module global `{name}`, which production reads ({short_name(analysis, dotted)}, "
                        f"{root.path}:{line}): production depends on state only tests create; decide the whole "
                        "mechanism (a missing call in production, or the setter, its readers and their branches)")
    return None


def _same_named(analysis: SurfaceAnalysis, root: Surface) -> list[str]:
    """Surfaces with the root's name: functions and classes, or methods for a method."""
    table = analysis.table
    return (table.methods_by_name if root.kind == "method" else table.by_name).get(root.name, [])


def _is_script(index: ProjectIndex, relpath: str) -> bool:
    """A file under the test folders that runs as a program (`__main__` guard) and defines no test function."""
    text = index.text(relpath) or ""
    return "__main__" in text and re.search(r"^\s*(?:async\s+)?def test_", text, re.MULTILINE) is None


def tests_going(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain, consumers: list[Consumer]) -> tuple[list[str], int]:
    """Test functions and classes that exist for the chain: named after its root (`test_<name>`), or
    whose every project reference is to the chain. They go with it."""
    table = analysis.table
    inside = set(chain_surfaces(analysis, chain))
    going: list[str] = []
    lines = 0
    owners: set[str] = set()
    for consumer in consumers:
        rel = consumer.path
        for line, end, dotted in table.spans.get(rel, ()):
            if line <= consumer.line <= end and table.surfaces[dotted].kind in ("function", "class"):
                owners.add(dotted)
    wanted = analysis.table.surfaces[chain.root].name.lower().strip("_")
    for owner in sorted(owners):
        if wanted and wanted in table.surfaces[owner].name.lower():
            going.append(owner)  # `test_<name>`: a test of this surface
            lines += table.surfaces[owner].lines
            continue
        out = analysis.edges.out.get(owner)
        uses = set(out.nodes) if out is not None else set()
        uses |= {f"{c}.{n}" for c, n in (out.members if out is not None else ())}
        production = {u for u in uses if u in table.surfaces and table.surfaces[u].production and table.surfaces[u].kind != "module"}
        if production and production <= inside | {c.rpartition(".")[0] for c in inside}:
            going.append(owner)
            lines += table.surfaces[owner].lines
    return going, lines


def judge_chain(index: ProjectIndex, analysis: SurfaceAnalysis, status: str, chain: Chain) -> Judged:
    """The verdict of one chain (see the module docstring)."""
    root = analysis.table.surfaces[chain.root]
    label = label_of(analysis, root)
    kind = "shadowed" if root.kind == "shadowed" else "cycle" if chain.cycle else "chain" if chain.members else "unused"
    if status == DEAD:
        doubts = dead_doubts(index, analysis, chain, root)
        if root.kind == "shadowed":
            doubts = []  # Python itself replaces the first definition: nothing can reach it
        if any(d.startswith("suspected missing root") for d in doubts):
            kind = "missing-root"
        # An out-of-tree plugin, fork or sibling project of the repository that imports the package and names it
        # uses it: the project's own walk cannot see that code (`omni-external-roots`, monorepo siblings).
        named = [root.name] if root.kind in ("class", "function") else [
            analysis.table.surfaces[c].name for c in analysis.table.children.get(root.dotted, ())
            if analysis.table.surfaces[c].kind in ("class", "function")] if root.kind == "module" else []
        outside = [c for name in named for c in external_root_consumers(index, name)]
        verdict = judge(outside) if outside else decide("no consumer found", doubts=doubts)
        return Judged(status, chain, verdict, label, kind, doubts, leftovers=leftover_imports(index, analysis, chain))
    consumers = _validation_consumers(index, analysis, chain)
    module = analysis.table.module_of_path.get(root.path, "")
    presenting = [c for c in consumers if _presents(index, c, module)]
    docs = [c for c in consumers if index.entries.get(c.path, {}).get("kind") == "doc"]
    examples = [c for c in consumers if matches_any(c.path, EXAMPLE_GLOBS) and c not in docs]
    tests = [c for c in consumers if matches_any(c.path, TEST_GLOBS)]
    going, test_lines = tests_going(index, analysis, chain, tests)
    if presenting:
        verdict = decide("", rejects=[f"documented as supported API in {listed(presenting)}"], consumers=consumers)
        return Judged(status, chain, verdict, label, "documented", [], consumers, going, test_lines)
    support = test_support(root.path)
    if support:
        verdict = decide("", rejects=[f"test support the package ships ({support}): tests are its consumers by design"],
                         consumers=consumers)
        return Judged(status, chain, verdict, label, "test-support", [], consumers, going, test_lines)
    doubts = []
    if consumers and all(c.via.startswith("name-only") for c in consumers):
        doubts.append(f"tests only mention the name ({listed(consumers)}), on objects of unknown class; nothing resolves to it")
    if examples:
        doubts.append(f"examples use it ({listed(examples)})")
    # `scripts/train.py`, `tools/convert.py`: support programs, not tests; users may run them (speculators' pipeline).
    scripts = [c for c in consumers if index.entries.get(c.path, {}).get("kind") == "python"
               and not matches_any(c.path, TEST_GLOBS) and c not in examples]
    if scripts:
        doubts.append(f"scripts use it ({listed(scripts)}): a program users run, not a test")
    if docs:
        doubts.append(f"the docs name it ({listed(docs)})")
    doubts += _validation_role_doubts(index, analysis, chain, tests)
    doubts += [d for d in dead_doubts(index, analysis, chain, root) if not d.startswith("only dead code")]
    if not consumers and not chain.used_by:
        doubts.append(NO_TEST_NAMES_IT)  # last: a more telling doubt (a twin, a role) leads
    # A caller outside the repository explains it better than any role the code gives it.
    role = None if any(d.startswith(OUTSIDE_DOUBTS) for d in doubts) else role_of(index, analysis, root)
    if role:
        doubts.insert(0, role.doubt)
    verdict = decide(f"only tests use it: {listed(consumers)}", doubts=doubts, consumers=consumers)
    rule = ("example-only" if examples else "script-only" if scripts and not tests else "docs-only" if docs and not tests
            else "test-only")
    return Judged(status, chain, verdict, label, rule, doubts, consumers, going, test_lines,
                  role.fix if role else "", leftover_imports(index, analysis, chain))
