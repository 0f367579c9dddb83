"""The evidence of each chain: who consumes it, what may still reach it, and how sure the finding is.

`unused-surface` (nothing reaches the chain):
- high: no consumer in code, configuration, docs or tests;
- medium, naming the doubt: only dead code uses it (a chain's shared member), a
  subpackage exports it (`__all__`, `__init__` imports: outside code may import
  it), a public method of the library's public API, a method that may override a
  third-party base no index reads, a class named like outside data chooses it
  (`*ForCausalLM`, `*Pipeline`), a module a computed import may load, or so many
  surfaces hanging off one unreached root that the root is more likely missing
  from the roots than dead (*suspected missing root*).
`test-only-surface` (only validation code reaches it):
- high when only tests use it; medium when examples or benchmarks use it (they
  teach it to users: the decision is whether it is supported API) or when the
  docs list it in an API reference or name it without its module;
- medium too, naming the doubt, when it may be a hook for an outside caller (its
  docstring describes one, or production prose in its package names it: `outside`),
  or when only other test-only code uses it besides tests (a shared member of
  test-only chains: the decision is at those roots);
- medium with its own fix when the code gives it a role (`roles`: a reference
  implementation, an op never registered beside registered siblings, a missing call);
- rejected when user-facing docs present it (its qualname or an import of it
  in a page that is not a design page): a documented supported name.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field

from pylint_omni.evidence.consumers import Consumer, ConsumerKind, Status, Verdict, listed
from pylint_omni.evidence.contracts import contracts_of, is_design_page
from pylint_omni.evidence.heat import callers_of
from pylint_omni.evidence.provenance import copied_code
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location, key_matches_patterns, matches_any
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.vocabulary import decorator_tail
from pylint_omni.surfaces.analysis import DEAD, SurfaceAnalysis
from pylint_omni.surfaces.chains import Chain
from pylint_omni.surfaces.edges import ATTRIBUTE_VIAS, BARE_VIAS
from pylint_omni.surfaces.lines import file_line, names_as_code
from pylint_omni.surfaces.namesakes import namesake_in_docs
from pylint_omni.surfaces.leftovers import leftover_imports
from pylint_omni.surfaces.outside import OUTSIDE_DOUBTS, outside_caller_doubt
from pylint_omni.surfaces.reach import PRODUCTION
from pylint_omni.surfaces.roles import role_of
from pylint_omni.surfaces.table import SURFACE_FACTS, Surface, may_load

MISSING_ROOT_SURFACES = 25  # surfaces hanging off one unreached root: more likely a missing root
EXAMPLE_GLOBS = ("examples/**", "**/examples/**", "benchmarks/**", "**/benchmarks/**", "**/example_*.py")
TEST_GLOBS = ("tests/**", "test/**", "**/tests/**", "**/test_*.py", "**/*_test.py", "**/conftest.py")
EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning", "Interrupt", "Exit")
API_LISTING = re.compile(r"^[-*\s]*(?::::\s*)?\[?`?[\w.:]+`?\]?(?:\[\]|\([^)]*\))?\s*$")


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


def short_name(analysis: SurfaceAnalysis, dotted: str) -> str:
    """`pkg.mod.Cls.meth` -> `Cls.meth`; a module stays dotted; a shadowed definition keeps its line."""
    surface = analysis.table.surfaces[dotted]
    if surface.kind == "module":
        return dotted
    module = analysis.table.module_of_path.get(surface.path, "")
    return dotted[len(module) + 1:] if module and dotted.startswith(module + ".") else dotted


def names_of(analysis: SurfaceAnalysis, dotted: list[str], most: int = 3, home: str = "") -> str:
    """`A.x, B.y, C.z and 2 more`; a name defined outside the file `home` says its module (`helper (in pkg.util)`):
    a short name alone would send the reader looking in the wrong file."""
    def named(name: str) -> str:
        surface = analysis.table.surfaces[name]
        if not home or surface.path == home or surface.kind == "module":
            return short_name(analysis, name)
        return f"{short_name(analysis, name)} (in {analysis.table.module_of_path.get(surface.path) or surface.path})"
    shown = ", ".join(named(d) for d in dotted[:most])
    return shown + (f" and {len(dotted) - most} more" if len(dotted) > most else "")


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


def _chain_surfaces(analysis: SurfaceAnalysis, chain: Chain) -> list[str]:
    units = [*chain.units, *chain.overrides]
    return [*units, *(c for u in units for c in analysis.table.contained(u))]


def _validation_consumers(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain) -> list[Consumer]:
    """Resolved references and name mentions of the chain from validation files (tests, examples, docs)."""
    graph = graph_of(index)
    history = contracts_of(index).history
    surfaces = _chain_surfaces(analysis, chain)
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
    twins = [d for d in _same_named(analysis, root) if d != root.dotted and analysis.reach.phase.get(d) == PRODUCTION]
    if twins:
        doubts.append(f"production uses a twin of the same name ({short_name(analysis, twins[0])}): a reference for tests or "
                      "an unfinished replacement; keep one")
    provenance = copied_code(index, root.path, root.line)
    if provenance is not None:
        doubts.append(f"in code {provenance.describe()}: drop it when resyncing the copy")
    if any(REFERENCE_USE.search(file_line(index, c.path, c.line)) for c in tests):
        doubts.append("a test compares against it (a reference implementation): move it into the tests")
    graph, table = graph_of(index), analysis.table
    members = _chain_surfaces(analysis, chain)
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


TOOL_FILE = re.compile(r"tun(e|ing)|bench|profil", re.IGNORECASE)
RELEASE_PAIRS = {"destroy": ("init", "initialize", "create", "build"), "close": ("open", "create", "connect"),
                 "stop": ("start", "run"), "teardown": ("setup", "set_up"), "shutdown": ("start", "startup", "init"),
                 "release": ("acquire", "alloc", "allocate"), "free": ("alloc", "allocate"), "disconnect": ("connect",),
                 "unregister": ("register",), "clear": ("set", "init")}


def _same_named(analysis: SurfaceAnalysis, root: Surface) -> list[str]:
    """Surfaces with the root's name: functions and classes, or methods for a method."""
    table = analysis.table
    return (table.methods_by_name if root.kind == "method" else table.by_name).get(root.name, [])


def _live_partner(analysis: SurfaceAnalysis, root: Surface) -> str | None:
    """`destroy_x` beside a reached `init_x` (same container, or the module): the other half of a lifecycle."""
    verb, _, rest = root.name.lstrip("_").partition("_")
    for partner_verb in RELEASE_PAIRS.get(verb.lower(), ()):
        for name in ({f"{partner_verb}_{rest}", partner_verb} if rest else {partner_verb}):
            for prefix in ("", "_"):
                dotted = f"{root.dotted.rpartition('.')[0]}.{prefix}{name}"
                if dotted in analysis.table.surfaces and analysis.reach.phase.get(dotted) == PRODUCTION:
                    return short_name(analysis, dotted)
    return None


def _is_script(index: ProjectIndex, relpath: str) -> bool:
    """A file under the test folders that runs as a program (`__main__` guard) and defines no test function."""
    text = index.text(relpath) or ""
    return "__main__" in text and re.search(r"^\s*(?:async\s+)?def test_", text, re.MULTILINE) is None


def _api_listing(index: ProjectIndex, class_dotted: str) -> str | None:
    """`path:line` of an API reference listing that names the class (`- [pkg.mod.Cls][]`, `::: pkg.mod.Cls`)."""
    history = contracts_of(index).history
    for ref in graph_of(index).refs_to(class_dotted):
        if (index.entries.get(ref.path, {}).get("kind") == "doc" and ref.path not in history and not is_design_page(ref.path)
                and API_LISTING.match(file_line(index, ref.path, ref.line))):
            return f"{ref.path}:{ref.line}"
    return None


def tests_going(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain, consumers: list[Consumer]) -> tuple[list[str], int]:
    """Test functions and classes that exist for the chain: named after its root (`test_<name>`), or
    whose every project reference is to the chain. They go with it."""
    table = analysis.table
    inside = set(_chain_surfaces(analysis, chain))
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


def _live_call(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> str | None:
    """A production call of the root's name from code production reaches, when the name is the root's own (defined
    once in the project): the walk missed a path its call sites show (`self.m()` from a sibling mixin, a factory's
    return), so the finding must not say nothing calls it (SPEC §5: a candidate never contradicts its own facts)."""
    if len(index.definitions_named(root.name)) != 1:
        return None
    for caller in callers_of(index, root.name) or ():
        owner = _owner_at(analysis, caller.path, caller.function["line"])
        if owner is not None and analysis.reach.phase.get(owner) == PRODUCTION:
            return (f"a production call of `{root.name}` in {caller.label} ({caller.path}:{caller.function['line']}) "
                    "may reach it; the reference graph did not resolve that call")
    return None


MENTION_VIAS = frozenset({"attr", "call", "getattr"})


def _unreached_mention(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain, root: Surface) -> str | None:
    """Production code calls the method's name on an object of unknown class, from code no root reaches (a live
    caller would have reached it): it goes with that code, which is the finding to decide (`.invoke()` in an override
    of a framework's hook whose base no index reads), so it is not "no consumer"."""
    spans = [(analysis.table.surfaces[d].path, analysis.table.surfaces[d].line, analysis.table.surfaces[d].end)
             for d in _chain_surfaces(analysis, chain) if d in analysis.table.surfaces]
    for hit in graph_of(index).name_only(root.name, set(_chain_surfaces(analysis, chain))):
        if hit.via not in MENTION_VIAS or index.location(hit.path) is not Location.PRODUCTION:
            continue
        if any(hit.path == path and first <= hit.line <= last for path, first, last in spans):
            continue
        owner = _owner_at(analysis, hit.path, hit.line)
        where = f" in {short_name(analysis, owner)}" if owner and owner in analysis.table.surfaces else ""
        return (f"code no root reaches calls `.{root.name}` on an object of unknown class ({hit.path}:{hit.line}{where}): "
                "it may be this one; it goes with that code")
    return None


def _owner_at(analysis: SurfaceAnalysis, relpath: str, line: int) -> str | None:
    """The innermost surface of a file whose span holds `line`."""
    best: tuple[int, str] | None = None
    for first, last, dotted in analysis.table.spans.get(relpath, ()):
        if first <= line <= last and (best is None or first >= best[0]):
            best = (first, dotted)
    return best[1] if best is not None else None


def _dead_doubts(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain, root: Surface) -> list[str]:
    doubts: list[str] = []
    if chain.used_by:
        shown = ", ".join(short_name(analysis, d) for d in chain.used_by[:3])
        doubts.append(f"only dead code uses it ({shown}); it goes when they do")
    # a dead module goes with what it defines: a definition a package exports caps the module too
    inside = analysis.table.children.get(root.dotted, []) if root.kind == "module" else []
    capped = analysis.roots.capped.get(root.dotted) or next(
        (analysis.roots.capped[u] for u in [*chain.units, *inside] if u in analysis.roots.capped), None)
    if capped:
        doubts.append(capped)
    provenance = copied_code(index, root.path, root.line)
    if provenance is not None and provenance.scope == "vendored":  # pruning a vendored tree turns each resync into a merge
        doubts.append(f"{provenance.describe()}: prune it when the vendored code is resynced, or drop the unused vendored package")
    if root.kind == "method" and root.container:
        cap = analysis.conventions.cap(root.container, root.name)
        if cap:
            doubts.append(cap)
        public_api = next((w for d, w in analysis.roots.production if d == root.container and w.startswith("public API")), None)
        if public_api and not root.name.startswith("_"):
            doubts.append(f"a public method of the {public_api}: users outside may call it")
        elif root.container in analysis.roots.capped and not root.name.startswith("_"):
            doubts.append(f"a public method of a class {analysis.roots.capped[root.container]}")
        listing = _api_listing(index, root.container) if not root.name.startswith("_") else None
        if listing:
            doubts.append(f"a public method of a class the API reference lists ({listing}): users outside may call it")
    call = _live_call(index, analysis, root) if root.kind in ("function", "method") else None
    if call:
        doubts.append(call)
    mention = _unreached_mention(index, analysis, chain, root) if root.kind == "method" and not chain.used_by else None
    if mention:
        doubts.append(mention)
    partner = _live_partner(analysis, root) if root.kind in ("function", "method") else None
    if partner:
        doubts.append(f"the release half of {partner}, which production uses: a missing teardown call, or delete it")
    classes = [root.dotted] if root.kind == "class" else [
        c for c in analysis.table.children.get(root.dotted, ()) if analysis.table.surfaces[c].kind == "class"] if root.kind == "module" else []
    plugin = next(filter(None, map(analysis.conventions.configured_sibling, classes)), None)
    if plugin:
        doubts.append(plugin)
    if root.kind == "class" and key_matches_patterns(root.name, index.settings.external_key_patterns):
        doubts.append("outside data (model checkpoints, model_index.json) may name this class")
    if root.kind == "module":
        for rel in analysis.table.module_of_path:
            for line, prefix in (index.extra(rel, SURFACE_FACTS) or {}).get("dyn_imports", []):
                if may_load(prefix, root.dotted) and index.location(rel) is Location.PRODUCTION:
                    doubts.append(f"a computed import at {rel}:{line} may load it")
                    break
            if len(doubts) > 0 and doubts[-1].startswith("a computed import"):
                break
    count = len(_chain_surfaces(analysis, chain))
    if count >= MISSING_ROOT_SURFACES:
        doubts.append(f"suspected missing root: {count} surfaces hang off {short_name(analysis, root.dotted)}; "
                      "if code outside the repository loads it, declare it in omni-extra-roots")
    return doubts


def judge_chain(index: ProjectIndex, analysis: SurfaceAnalysis, status: str, chain: Chain) -> Judged:
    """The verdict of one chain (see the module docstring)."""
    root = analysis.table.surfaces[chain.root]
    label = label_of(analysis, root)
    kind = "shadowed" if root.kind == "shadowed" else "cycle" if chain.cycle else "chain" if chain.members else "unused"
    if status == DEAD:
        doubts = _dead_doubts(index, analysis, chain, root)
        if root.kind == "shadowed":
            doubts = []  # Python itself replaces the first definition: nothing can reach it
        if any(d.startswith("suspected missing root") for d in doubts):
            kind = "missing-root"
        verdict = (Verdict(Status.CANDIDATE, "medium", doubts[0], [], doubts) if doubts
                   else Verdict(Status.CANDIDATE, "high", "no consumer found", []))
        return Judged(status, chain, verdict, label, kind, doubts, leftovers=leftover_imports(index, analysis, chain))
    consumers = _validation_consumers(index, analysis, chain)
    module = analysis.table.module_of_path.get(root.path, "")
    presenting = [c for c in consumers if _presents(index, c, module)]
    docs = [c for c in consumers if index.entries.get(c.path, {}).get("kind") == "doc"]
    examples = [c for c in consumers if matches_any(c.path, EXAMPLE_GLOBS) and c not in docs]
    tests = [c for c in consumers if matches_any(c.path, TEST_GLOBS)]
    going, test_lines = tests_going(index, analysis, chain, tests)
    if presenting:
        verdict = Verdict(Status.REJECTED, None, f"documented as supported API in {listed(presenting)}", consumers)
        return Judged(status, chain, verdict, label, "documented", [], consumers, going, test_lines)
    doubts = []
    if consumers and all(c.via.startswith("name-only") for c in consumers):
        doubts.append(f"tests only mention the name ({listed(consumers)}), on objects of unknown class; nothing resolves to it")
    if examples:
        doubts.append(f"examples use it ({listed(examples)})")
    if docs:
        doubts.append(f"the docs name it ({listed(docs)})")
    doubts += _validation_role_doubts(index, analysis, chain, tests)
    doubts += [d for d in _dead_doubts(index, analysis, chain, root) if not d.startswith("only dead code")]
    # A caller outside the repository explains it better than any role the code gives it.
    role = None if any(d.startswith(OUTSIDE_DOUBTS) for d in doubts) else role_of(index, analysis, root)
    if role:
        doubts.insert(0, role.doubt)
    if doubts:
        verdict = Verdict(Status.CANDIDATE, "medium", doubts[0], consumers, doubts)
    else:
        verdict = Verdict(Status.CANDIDATE, "high", f"only tests use it: {listed(consumers)}", consumers)
    rule = "example-only" if examples else "docs-only" if docs and not tests else "test-only"
    return Judged(status, chain, verdict, label, rule, doubts, consumers, going, test_lines,
                  role.fix if role else "", leftover_imports(index, analysis, chain))
