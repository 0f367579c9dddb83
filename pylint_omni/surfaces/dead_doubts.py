"""Why a dead chain may still be used: the doubts that keep an unused-surface finding medium.

Each doubt is a fact the reference graph could not settle: only dead code uses it, a
package exports it, it is vendored, a framework may call it by name, an API reference
lists its class, a production call of its name was not resolved, code no root reaches
calls its name, it is the release half of a live lifecycle, sibling classes define it as
their family's convention and production calls one of theirs, a sibling plugin is named
by configuration, a help text or the docs tell users to extend the class, outside data may name it, a computed import may load it, or so much
hangs off it that a root is more likely missing.
"""

from __future__ import annotations

import builtins
import re
import sys
from collections.abc import Iterable

from pylint_omni.evidence.contracts import contracts_of, is_design_page
from pylint_omni.evidence.heat import callers_of
from pylint_omni.evidence.provenance import copied_code
from pylint_omni.index.class_graph import class_graph, protocol_methods
from pylint_omni.index.derived import Derived
from pylint_omni.index.graph import graph_of
from pylint_omni.index.paths import Location, key_matches_patterns
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.surfaces.analysis import SurfaceAnalysis, chain_surfaces, owner_at, short_name
from pylint_omni.surfaces.chains import Chain
from pylint_omni.surfaces.conventions import FILE_PROTOCOL_REASON
from pylint_omni.surfaces.decorated import outside_decorator
from pylint_omni.surfaces.hooks import outside_callers
from pylint_omni.surfaces.knobs import knob_doubt
from pylint_omni.surfaces.loaded import computed_import
from pylint_omni.surfaces.lines import NOT_CODE, file_line, file_lines
from pylint_omni.surfaces.outside import DOCSTRING, own_docstring
from pylint_omni.surfaces.parked import parked_call
from pylint_omni.surfaces.reach import PRODUCTION
from pylint_omni.surfaces.table import Surface

MISSING_ROOT_SURFACES = 25  # surfaces hanging off one unreached root something names: more likely a missing root
MIN_SIBLINGS = 3  # subclasses of one base defining a method before it is the family's convention
API_LISTING = re.compile(r"^[-*\s]*(?::::\s*)?\[?`?[\w.:]+`?\]?(?:\[\]|\([^)]*\))?\s*$")
RELEASE_PAIRS = {"destroy": ("init", "initialize", "create", "build", "allocate", "alloc"),
                 "close": ("open", "create", "connect", "prepare", "setup", "init", "start"),
                 "stop": ("start", "run", "launch", "init"), "teardown": ("setup", "set_up", "prepare"),
                 "cleanup": ("setup", "prepare", "init"), "shutdown": ("start", "startup", "init", "launch"),
                 "release": ("acquire", "alloc", "allocate"), "free": ("alloc", "allocate"), "disconnect": ("connect",),
                 "unregister": ("register",), "clear": ("set", "init"), "unpatch": ("patch", "apply"),
                 "restore": ("patch", "save", "backup"), "uninstall": ("install",)}
WHOLE_OBJECT_VERBS = frozenset({"init", "initialize", "start", "startup", "run", "launch", "setup", "set_up", "create",
                                "build", "open", "prepare"})
# `load_rng_state` beside a reached `save_rng_state`: what production saves is never read back.
READ_BACK_PAIRS = {"load": ("save", "dump", "store"), "restore": ("save", "backup"), "deserialize": ("serialize",)}
# Halves named after one stem only (`from_yaml` beside a reached `to_yaml`, `set_tracker` beside `get_tracker`): the
# load half of a round trip, the setter of a public accessor pair (Megatron-LM's config and metrics trackers).
STEM_PAIRS = {"from": ("to", "the load half of a round trip whose save half {} production uses: users outside may load "
                             "what it wrote; keep both, or delete both"),
              "decode": ("encode", "the decode half of {}, which production uses: keep both, or delete both"),
              "set": ("get", "the setter of the accessor pair whose getter {} production uses: code outside may set what "
                             "it reads; keep both, or delete both")}


# A module or folder a package ships for tests (its own and its users'): `test_utils/`, `_testing/`, `testing.py`.
TEST_SUPPORT = re.compile(r"(?:^|/)(?:_?testing|test_?utils|testing_?utils|test_?helpers|test_?support)(?:/|\.py$)")
FORWARD = re.compile(r"^\s*(?:return\s+)?(?:await\s+)?self\.(\w+)\.(\w+)\(")  # `return self.scheduler.print_lr(...)`


def test_support(relpath: str) -> str:
    """The test-support module or folder of a production path (`accelerate/test_utils/testing.py`, `pkg/_testing/`:
    skip decorators, TestCase bases, fixtures the package ships for its own and its users' tests), or ""."""
    found = TEST_SUPPORT.search(relpath)
    return relpath[:found.end()].rstrip("/") if found else ""


def _forwarding(index: ProjectIndex, root: Surface) -> str | None:
    """A method whose body only calls the same-named method of an object it wraps (`def print_lr(self, *a, **k):
    return self.scheduler.print_lr(*a, **k)`): the wrapper mirrors the wrapped API, which callers outside may use."""
    body = [line for line in file_lines(index, root.path)[root.line:root.end]
            if line.strip() and not line.strip().startswith(NOT_CODE)]
    found = FORWARD.match(body[0]) if body and len(body) <= 2 else None
    if found is None or found.group(2) != root.name:
        return None
    return (f"it forwards to `self.{found.group(1)}.{root.name}`: the wrapper mirrors the wrapped object's API, which "
            "callers outside may use")


STATE_VIEW = re.compile(r"^_?(?:is|was|has(?:_been)?)_(\w+?)(?:ed|d)$")  # `is_aborted`, `is_registered`, `has_started`


def _state_view(analysis: SurfaceAnalysis, root: Surface) -> str | None:
    """`is_aborted` beside a reached `abort()` of the same class (`is_registered` beside `register`): the read side of
    the state production changes, which tests observe through it rather than a private attribute."""
    found = STATE_VIEW.match(root.name)
    if found is None or root.kind != "method":
        return None
    stem = found.group(1)
    verbs = (stem, f"{stem}e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem)
    dotted = _reached_sibling(analysis, root, verbs, prefixes=("",))
    if dotted is None:
        return None
    return (f"the read side of the state {short_name(analysis, dotted)}() sets, which production calls: tests "
            "observe it there instead of through a private attribute")


def _reached_sibling(analysis: SurfaceAnalysis, root: Surface, names: Iterable[str],
                     prefixes: tuple[str, ...] = ("", "_")) -> str | None:
    """The first of `names` (each also with a leading underscore) defined beside the root, in its class or module,
    that production reaches."""
    holder = root.dotted.rpartition(".")[0]
    for name in dict.fromkeys(names):
        for prefix in prefixes:
            dotted = f"{holder}.{prefix}{name}"
            if dotted in analysis.table.surfaces and analysis.reach.phase.get(dotted) == PRODUCTION:
                return dotted
    return None


def _live_partner(analysis: SurfaceAnalysis, root: Surface) -> str | None:
    """`destroy_x` beside a reached `init_x`, `load_x` beside a reached `save_x` (same container, or the module): the
    other half of a lifecycle or of a checkpoint, which production uses; the doubt that says so. Also the read side
    of a state a reached method changes (`_state_view`)."""
    view = _state_view(analysis, root)
    if view:
        return view
    verb, _, rest = root.name.lstrip("_").partition("_")
    for pairs, doubt in ((READ_BACK_PAIRS, "the read-back half of {}, which production uses: what it writes is never "
                                           "read back (a missing resume or restore call), or delete both"),
                         (RELEASE_PAIRS, "the release half of {}, which production uses: a missing teardown call, or "
                                         "delete it")):
        for partner_verb in pairs.get(verb.lower(), ()):
            # `free_req` pairs with `alloc_req` or a bare `alloc`; `stop_profile` with `start_profile`, never with a bare
            # `init` or `start` of its class: those begin the whole object, another mechanism.
            names = [f"{partner_verb}_{rest}"] if rest else [partner_verb]
            if rest and partner_verb not in WHOLE_OBJECT_VERBS:
                names.append(partner_verb)
            dotted = _reached_sibling(analysis, root, names)
            if dotted is not None:
                return doubt.format(short_name(analysis, dotted))
    partner_verb, doubt = STEM_PAIRS.get(verb.lower(), ("", ""))
    dotted = _reached_sibling(analysis, root, [f"{partner_verb}_{rest}"]) if partner_verb and rest else None
    return doubt.format(short_name(analysis, dotted)) if dotted is not None else None


def _sibling_convention(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> str | None:
    """The method is one of a family's convention: `MIN_SIBLINGS` subclasses of one project base define it, and
    production calls one of theirs (`FlashAttentionBackend.get_supported_head_sizes()`): a caller choosing the class
    may call any, and dropping it from one subclass breaks the family's shape."""
    graph = class_graph(index)
    for base in graph.ancestors(root.container) if root.container in graph.nodes else []:
        defining = [f"{c}.{root.name}" for c in graph.descendants(base) if f"{c}.{root.name}" in analysis.table.surfaces]
        live = next((d for d in defining if analysis.reach.phase.get(d) == PRODUCTION), None)
        if len(defining) >= MIN_SIBLINGS and live is not None:
            return (f"{len(defining)} subclasses of {base.rpartition('.')[2]} define {root.name} and production calls "
                    f"{short_name(analysis, live)}: a family convention; declare it on the base or drop it from all")
    return None


def _api_listing(index: ProjectIndex, class_dotted: str) -> str | None:
    """`path:line` of an API reference listing that names the class (`- [pkg.mod.Cls][]`, `::: pkg.mod.Cls`)."""
    history = contracts_of(index).history
    for ref in graph_of(index).refs_to(class_dotted):
        if (index.entries.get(ref.path, {}).get("kind") == "doc" and ref.path not in history and not is_design_page(ref.path)
                and API_LISTING.match(file_line(index, ref.path, ref.line))):
            return f"{ref.path}:{ref.line}"
    return None


def _live_call(index: ProjectIndex, analysis: SurfaceAnalysis, root: Surface) -> str | None:
    """A production call of the root's name from code production reaches, when the name is the root's own (defined
    once in the project): the walk missed a path its call sites show (`self.m()` from a sibling mixin, a factory's
    return), so the finding must not say nothing calls it (SPEC §5: a candidate never contradicts its own facts)."""
    if len(index.definitions_named(root.name)) != 1:
        return None
    for caller in callers_of(index, root.name) or ():
        owner = owner_at(analysis, caller.path, caller.function["line"])
        if owner is not None and analysis.reach.phase.get(owner) == PRODUCTION:
            return (f"a production call of `{root.name}` in {caller.label} ({caller.path}:{caller.function['line']}) "
                    "may reach it; the reference graph did not resolve that call")
    return None


MENTION_VIAS = frozenset({"attr", "call", "getattr"})
# "an instance extending CustomCallbackHandler", "subclass `BasePlugin`": the class a sentence tells users to extend.
TOLD_TO_EXTEND = re.compile(r"\b(?i:extend(?:s|ing)?|subclass(?:es|ing)?|inherit(?:s|ing)?(?: from)?|deriv(?:e|es|ing) from|"
                            r"implement(?:s|ing)?|based on)\b[^.\n]{0,40}?\b([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)\b")


def _told_to_extend(index: ProjectIndex) -> dict[str, str]:
    """Class name -> `path:line` of the first docs page or production text that tells users to extend it (read once
    per state: a help string's words are no index tokens)."""
    found: dict[str, str] = {}
    for rel, entry in sorted(index.entries.items()):
        if entry.get("kind") != "doc" and not (entry.get("kind") == "python" and index.location(rel) is Location.PRODUCTION):
            continue
        text = index.text(rel) or ""
        for match in TOLD_TO_EXTEND.finditer(text):
            found.setdefault(match.group(1), f"{rel}:{text.count(chr(10), 0, match.start()) + 1}")
    return found


_TOLD: Derived[dict[str, str]] = Derived("surfaces.told_to_extend", _told_to_extend)


# `# public/stable api exposed to transformers/optimum`, `# Do not remove: used by ...`: the author says who calls it.
PUBLIC_MARK = re.compile(r"\b(?:public|stable)\b[\w\s/-]{0,20}\bapis?\b|\bexposed to\b|\bdo not (?:remove|delete)\b",
                         re.IGNORECASE)


def _marked_public(index: ProjectIndex, root: Surface) -> str | None:
    """The comment right above a definition (or its decorators) that marks it as API for callers outside."""
    lines = file_lines(index, root.path)
    at = root.line - 2
    while 0 <= at < len(lines) and lines[at].lstrip().startswith("@"):
        at -= 1
    above = lines[at].strip() if 0 <= at < len(lines) else ""
    if above.startswith("#") and PUBLIC_MARK.search(above):
        return f"a comment above it marks it as API for outside callers ({root.path}:{at + 1}: `{above[:60]}`)"
    return None


BUILTIN_NAMES = frozenset(dir(builtins))  # `print(obj)`, `isinstance(x, Cls)`, `sorted(objs)`: read, never kept to call back
# Standard-library modules that keep an object and call its methods later (a handler, a server's handler class, a
# thread's target); the others (`dataclasses.asdict`, `json.dumps`, `copy.deepcopy`) read data, not methods by name.
STDLIB_CALLBACK_HOSTS = frozenset({"threading", "asyncio", "concurrent", "logging", "socketserver", "http", "atexit",
                                   "signal", "sched", "multiprocessing", "xmlrpc", "sys"})


def _named_elsewhere(index: ProjectIndex, root: Surface) -> bool:
    """Something outside the root's own file names it (code, a script, a config, a Dockerfile, the docs): what
    loads it may be a root the walk misses. A module, class or function nothing names anywhere is dead, however
    much hangs off it (a 1,000-line module no file mentions)."""
    return any(hit.path != root.path for hit in index.hits(root.name))


# "Backward-compatible imports for the relocated output-format API", "Deprecated alias", "kept for compatibility".
# Not "maps kernel to weight for compatibility" (tpu-inference's JaxConv): code that provides compatibility is no shim.
COMPATIBILITY_WORDS = re.compile(r"\bbackwards?[- ]compat\w*|\bkept for (?:legacy )?compatibility\b|\bdeprecated\b|"
                                 r"\blegacy (?:import|alias|name|path|entry)", re.IGNORECASE)
LEADING_COMMENTS = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\n)*")


def compatibility_shim(index: ProjectIndex, root: Surface) -> str | None:
    """A module or definition whose own docstring says it stays for compatibility (an old import path kept after a
    move, a deprecated alias): removing it is a deprecation decision, not dead code."""
    if root.kind == "module":
        text = index.text(root.path) or ""
        found = DOCSTRING.match(text, LEADING_COMMENTS.match(text).end())
        docstring = found.group(2) if found else ""
    elif root.kind in ("function", "method", "class"):
        docstring = own_docstring(index, root)
    else:
        return None
    if not COMPATIBILITY_WORDS.search(docstring):
        return None
    return "its docstring says it is kept for compatibility (an old import path or a deprecated name): deprecate it " \
           "with a warning, then delete it in a later release"


def _protocols(index: ProjectIndex) -> dict[str, list[tuple[str, frozenset[str]]]]:
    """Method name -> each project Protocol that declares it, with the classes implementing that Protocol (its
    ancestors and descendants, and the classes that match it by shape)."""
    graph = class_graph(index)
    found: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for dotted, node in graph.nodes.items():
        if node.definition.data.get("protocol"):
            implementers = frozenset([*graph.ancestors(dotted), *graph.descendants(dotted), *graph.structural_matches(dotted)])
            for method in protocol_methods(node.definition.data):
                found.setdefault(method, []).append((dotted, implementers))
    return found


_PROTOCOLS: Derived[dict[str, list[tuple[str, frozenset[str]]]]] = Derived("surfaces.protocol_methods", _protocols)


def _protocol_member(index: ProjectIndex, root: Surface) -> str | None:
    """A method a project Protocol declares, on a class that implements that Protocol (by inheritance or by shape):
    deleting it here alone breaks the type check; the Protocol member and every implementation go together."""
    for protocol, implementers in _PROTOCOLS.of(index).get(root.name, ()):
        if root.container in implementers:
            return (f"it implements {protocol.rpartition('.')[2]}.{root.name}, a Protocol member: delete it there and in "
                    "every implementation together, or keep it")
    return None


def _handed(index: ProjectIndex) -> dict[str, str]:
    """Class -> where production code first passes an instance of it to a callable outside the project."""
    found: dict[str, str] = {}
    classes = class_graph(index)
    for rel, facts in index.python_files():
        if index.location(rel) is not Location.PRODUCTION:
            continue
        for held, callee, line in (facts.get("links") or {}).get("handed", ()):
            own = index.resolve_target(callee)
            head = callee.partition(".")[0]
            outside = own is None and index.module_file(callee.rpartition(".")[0]) is None and head not in BUILTIN_NAMES and (
                head not in sys.stdlib_module_names or head in STDLIB_CALLBACK_HOSTS)
            # a project class built on a third-party one passes its arguments on (`LogMonitor(RayLogMonitor)`)
            if outside or own is not None and own.kind == "class" and (
                    classes.extends_outside(own.dotted)):
                found.setdefault(held, f"`{callee.rpartition('.')[2]}` ({rel}:{line})")
    return found


_HANDED: Derived[dict[str, str]] = Derived("surfaces.handed_outside", _handed)


def _handed_outside(index: ProjectIndex, analysis: SurfaceAnalysis, owner: str) -> str | None:
    """A public method of a class whose instances production hands to outside code (a gRPC server's servicer, a
    library's publisher or callback object) and whose public methods the project never calls: an object made for
    that code, which calls its methods by name, out of the project's sight."""
    handed = _HANDED.of(index)
    where = next((handed[c] for c in analysis.reach.lineage(owner) if c in handed), None)
    # The project calls some of its methods (the I/O machinery's `flush` on a stand-in file is no project call): an
    # object it uses itself, handed on as data.
    if where is None or any(analysis.reach.phase.get(m) == PRODUCTION and not analysis.reach.why.get(m, "").startswith(FILE_PROTOCOL_REASON)
                            for m in analysis.table.methods(owner) if not analysis.table.surfaces[m].name.startswith("_")):
        return None
    return f"the class or an instance of it is handed to {where}, outside code that may call its methods by name"


def _extension_base(index: ProjectIndex, classes: list[str]) -> str | None:
    """A class the project's help texts or docs tell users to extend (`--callbacks: an instance extending
    CustomCallbackHandler`): plugins outside the repository subclass it, so nothing here needs to."""
    told = _TOLD.of(index)
    for dotted in classes:
        name = dotted.rpartition(".")[2]
        if name in told:
            return f"{told[name]} tells users to extend {name}: plugins outside the repository subclass it, so nothing here needs to"
    return None


def _unreached_mention(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain, root: Surface) -> str | None:
    """Production code calls the method's name on an object of unknown class, from code no root reaches (a live
    caller would have reached it): it goes with that code, which is the finding to decide (`.invoke()` in an override
    of a framework's hook whose base no index reads), so it is not "no consumer"."""
    spans = [(analysis.table.surfaces[d].path, analysis.table.surfaces[d].line, analysis.table.surfaces[d].end)
             for d in chain_surfaces(analysis, chain) if d in analysis.table.surfaces]
    for hit in graph_of(index).name_only(root.name, set(chain_surfaces(analysis, chain))):
        if hit.via not in MENTION_VIAS or index.location(hit.path) is not Location.PRODUCTION:
            continue
        if any(hit.path == path and first <= hit.line <= last for path, first, last in spans):
            continue
        owner = owner_at(analysis, hit.path, hit.line)
        where = f" in {short_name(analysis, owner)}" if owner and owner in analysis.table.surfaces else ""
        return (f"code no root reaches calls `.{root.name}` on an object of unknown class ({hit.path}:{hit.line}{where}): "
                "it may be this one; it goes with that code")
    return None


def dead_doubts(index: ProjectIndex, analysis: SurfaceAnalysis, chain: Chain, root: Surface) -> list[str]:
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
    if root.kind in ("function", "class") and root.path.rpartition("/")[2] == "__init__.py" and not root.name.startswith("_") \
            and "." not in root.dotted.rpartition(".")[0]:
        doubts.append(f"defined in the top-level package {root.dotted.rpartition('.')[0]}: its public interface "
                      "(`import pkg; pkg.name`), which code outside may call")
    support = test_support(root.path)
    if support:  # skip decorators and fixtures a package ships: other test suites import them
        doubts.append(f"part of the test support the package ships ({support}): test suites outside the repository may use it")
    parked = parked_call(index, root.name) if root.kind in ("function", "method") else None
    if parked:
        doubts.append(parked)
    forwarded = _forwarding(index, root) if root.kind == "method" else None
    if forwarded:
        doubts.append(forwarded)
    decorated = outside_decorator(index, analysis, root)
    if decorated:
        doubts.append(decorated)
    provenance = copied_code(index, root.path, root.line)
    if provenance is not None and provenance.scope == "vendored":  # pruning a vendored tree turns each resync into a merge
        doubts.append(f"{provenance.describe()}: prune it when the vendored code is resynced, or drop the unused vendored package")
    elif provenance is not None and provenance.scope == "file":  # `# Copied from: <upstream file>`: the same, one file
        doubts.append(f"{provenance.describe()}: the file is kept as a copy of its source; prune it when it is resynced")
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
        handed = _handed_outside(index, analysis, root.container) if not root.name.startswith("_") else None
        if handed:
            doubts.append(handed)
    call = _live_call(index, analysis, root) if root.kind in ("function", "method") else None
    if call:
        doubts.append(call)
    marked = _marked_public(index, root) if root.kind in ("function", "method", "class") else None
    if marked:
        doubts.append(marked)
    shim = compatibility_shim(index, root)
    if shim:
        doubts.append(shim)
    doubts += outside_callers(index, analysis, chain, root)
    declared = _protocol_member(index, root) if root.kind == "method" and root.container else None
    if declared:
        doubts.append(declared)
    convention = _sibling_convention(index, analysis, root) if root.kind == "method" and root.container else None
    if convention:
        doubts.append(convention)
    mention = _unreached_mention(index, analysis, chain, root) if root.kind == "method" and not chain.used_by else None
    if mention:
        doubts.append(mention)
    partner = _live_partner(analysis, root) if root.kind in ("function", "method") else None
    if partner:
        doubts.append(partner)
    knob = knob_doubt(index, analysis, root) if not partner else None
    if knob:
        doubts.append(knob)
    classes = [root.dotted] if root.kind == "class" else [
        c for c in analysis.table.children.get(root.dotted, ()) if analysis.table.surfaces[c].kind == "class"] if root.kind == "module" else []
    plugin = next(filter(None, map(analysis.conventions.configured_sibling, classes)), None)
    if plugin:
        doubts.append(plugin)
    extended = _extension_base(index, classes)
    if extended:
        doubts.append(extended)
    if root.kind == "class" and key_matches_patterns(root.name, index.settings.external_key_patterns):
        doubts.append("outside data (model checkpoints, model_index.json) may name this class")
    loaded = computed_import(index, analysis, root)
    if loaded:
        doubts.append(loaded)
    count = len(chain_surfaces(analysis, chain))
    if count >= MISSING_ROOT_SURFACES and _named_elsewhere(index, root):
        doubts.append(f"suspected missing root: {count} surfaces hang off {short_name(analysis, root.dotted)}; "
                      "if code outside the repository loads it, declare it in omni-extra-roots")
    return doubts
