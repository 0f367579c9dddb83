"""Evidence and downgrade: join a raw finding with its consumers and decide what it is.

Every mention the index found becomes a `Consumer` of one of three kinds, as the
audit method classifies evidence:
- production: the package, runtime/deploy configuration, console scripts;
- validation: tests, benchmarks, examples, docs, CI, tools (by path glob), and any
  documentation mention;
- external/dynamic: entry-point groups, import strings (`pkg.mod.Name` in code or
  config), `getattr`/`import_module`/resolver arguments, f-strings assembled from
  module constants: someone loads the symbol by name.

`decide` is the one judge every family asks: a claim, the reasons that reject it, the doubts that
leave it open. `judge` states them for a surface judged by its consumers:
production -> live (no finding); external/dynamic -> rejected, naming the consumer;
an unresolvable dynamic path -> rejected; an externally keyed name -> rejected when
mentioned anywhere, else medium; a user-facing name (a registry key) documented in
the docs -> rejected, the docs make it a supported choice; validation only ->
medium; nothing -> high.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Iterable

from pylint.interfaces import HIGH, INFERENCE, UNDEFINED, Confidence

from pylint_omni.index.derived import Derived, Table
from pylint_omni.index.external import ExternalRoot, external_indexes
from pylint_omni.index.project_index import Hit, ProjectIndex
from pylint_omni.index.paths import Location

DYNAMIC_VIAS = frozenset({"getattr", "import_module", "resolver", "fstr"})
CONFIG_VIAS = frozenset({"yaml-key", "yaml-value", "json", "toml"})  # a mention in a config file (set, not read)
DOC_VIAS = frozenset({"doc"})
MAX_LISTED = 3  # consumers shown before 'and N more'

_KINDS: Table[tuple[str, str], ConsumerKind] = Table("evidence.consumer_kinds")


class ConsumerKind(str, Enum):
    PRODUCTION = "production"
    VALIDATION = "validation"
    EXTERNAL = "external/dynamic"


@dataclass(frozen=True, slots=True)  # slots: a big project's judgements hold a few hundred thousand
class Consumer:
    """A place that uses a surface: where, how, and which kind of evidence it is."""

    path: str
    line: int
    via: str
    kind: ConsumerKind
    token: str

    def describe(self) -> str:
        return f"{self.path}:{self.line} ({self.via})"


def consumer_of(index: ProjectIndex, hit: Hit, token: str) -> Consumer:
    """The consumer one mention of `token` makes."""
    return Consumer(hit.path, hit.line, hit.via, consumer_kind(index, hit), token)


def consumer_kind(index: ProjectIndex, hit: Hit) -> ConsumerKind:
    """The kind of one mention (remembered per file and via for the run: it is asked millions of times)."""
    kinds = _KINDS.values(index)
    key = (hit.path, hit.via)
    kind = kinds.get(key)
    if kind is None:
        kind = kinds[key] = _consumer_kind(index, hit)
    return kind


def _consumer_kind(index: ProjectIndex, hit: Hit) -> ConsumerKind:
    if hit.via.startswith("entry-point:"):
        return ConsumerKind.EXTERNAL
    if hit.via in DOC_VIAS or index.location(hit.path) is Location.VALIDATION:
        return ConsumerKind.VALIDATION
    if hit.via in DYNAMIC_VIAS:
        return ConsumerKind.EXTERNAL
    return ConsumerKind.PRODUCTION


# What counts in an external root: code that names the surface. Its own definitions
# (a store) are a name collision, its tests and docs are not the plugin running.
EXTERNAL_ROOT_SKIPPED_VIAS = frozenset({"store", "attr-store", *DOC_VIAS})


def _external_roots(index: ProjectIndex) -> list[tuple[ExternalRoot, ProjectIndex, frozenset[str]]]:
    """Each external root, its index, and its Python files that name one of this project's packages.

    Only those files can use this project's code: a same-named key or attribute in a
    module that never mentions the project is a name collision, not a consumer.
    """
    found: list[tuple[ExternalRoot, ProjectIndex, frozenset[str]]] = []
    packages = {entry.get("module", "").partition(".")[0] for entry in index.entries.values() if entry.get("kind") == "python"}
    packages = {p for p in packages if p and p != "__init__"}
    for root, other in external_indexes(index.settings, index.root):
        users = frozenset(hit.path for package in packages for hit in other.hits(package))
        found.append((root, other, users))
    return found


_EXTERNAL_ROOTS: Derived[list[tuple[ExternalRoot, ProjectIndex, frozenset[str]]]] = Derived(
    "evidence.external_roots", _external_roots)


def external_root_consumers(index: ProjectIndex, token: str) -> list[Consumer]:
    """Mentions of `token` in the production code of the external consumer roots (`omni-external-roots`).

    Each is an external consumer, named `<root label>/<path>`: an out-of-tree plugin or
    fork uses the surface. A Python module counts only when it names one of this
    project's top-level packages (an import, a dotted path); configuration files count. The one place that asks other indexes, so that an upstream
    index can later answer here too.
    """
    found: list[Consumer] = []
    for root, other, users in _EXTERNAL_ROOTS.of(index):
        for hit in other.hits(token):
            if hit.via in EXTERNAL_ROOT_SKIPPED_VIAS or other.location(hit.path) is Location.VALIDATION:
                continue
            if hit.path not in users and other.entries.get(hit.path, {}).get("kind") == "python":
                continue  # a module that never names this project: a name collision
            kind = "sibling project" if root.label.startswith("sibling:") else "external root"
            found.append(Consumer(f"{root.label.removeprefix('sibling:')}/{hit.path}", hit.line, f"{kind}: {hit.via}",
                                  ConsumerKind.EXTERNAL, token))
    return found


class Status(str, Enum):
    LIVE = "live"
    REJECTED = "rejected"
    CANDIDATE = "candidate"


@dataclass
class Verdict:
    """What the evidence says of one raw finding."""

    status: Status
    confidence: str | None  # "high" | "medium" for candidates
    reason: str
    consumers: list[Consumer] = field(default_factory=list)
    unknowns: list[str] = field(default_factory=list)

    @property
    def pylint_confidence(self) -> Confidence:
        if self.status is Status.CANDIDATE:
            return HIGH if self.confidence == "high" else INFERENCE
        return UNDEFINED

    def by_kind(self, kind: ConsumerKind) -> list[Consumer]:
        return [c for c in self.consumers if c.kind is kind]

    def evidence_line(self) -> str:
        """Consumers found by kind, e.g. `production 0, validation 2 (tests/x.py:3 (str)), external/dynamic 0`."""
        parts = []
        for kind in ConsumerKind:
            found = self.by_kind(kind)
            parts.append(f"{kind.value} {len(found)}" + (f" ({listed(found)})" if found else ""))
        return "; ".join(parts)


def listed(consumers: list[Consumer]) -> str:
    text = ", ".join(c.describe() for c in consumers[:MAX_LISTED])
    return text + (f" and {len(consumers) - MAX_LISTED} more" if len(consumers) > MAX_LISTED else "")


def decide(
    claim: str,
    *,
    rejects: Iterable[str] = (),
    doubts: Iterable[str] = (),
    consumers: Iterable[Consumer] = (),
    unknowns: Iterable[str] | None = None,
) -> Verdict:
    """The one judge. A family states what it claims, the reasons that reject the idea, the doubts that leave it
    open and the consumers it found; this turns them into the verdict: the first reject wins (rejected, naming it),
    then the first doubt (a medium candidate), else the claim (high). `unknowns`: what the report lists as not
    known, when it says more than the doubts (by default the rejects, or the doubts, or nothing)."""
    rejects, doubts, consumers = list(rejects), list(doubts), list(consumers)
    if rejects:
        return Verdict(Status.REJECTED, None, rejects[0], consumers, list(rejects if unknowns is None else unknowns))
    if doubts:
        return Verdict(Status.CANDIDATE, "medium", doubts[0], consumers, list(doubts if unknowns is None else unknowns))
    return Verdict(Status.CANDIDATE, "high", claim, consumers, list(unknowns or ()))


def lowered(verdict: Verdict, doubt: str, unknown: str | None = None) -> Verdict:
    """A candidate a later check leaves in doubt: medium, the doubt its reason, `unknown` (or the doubt) added to
    what is not known."""
    return replace(verdict, confidence="medium", reason=doubt, unknowns=[*verdict.unknowns, unknown or doubt])


def judge(
    consumers: list[Consumer],
    *,
    externally_keyed: bool = False,
    documented_rejects: bool = False,
    reject_reasons: Iterable[str] = (),
    medium_reasons: Iterable[str] = (),
) -> Verdict:
    """The downgrade rules of the audit method for a surface judged by its consumers, in order (`decide` rules)."""
    production = next((c for c in consumers if c.kind is ConsumerKind.PRODUCTION), None)
    if production is not None:
        return Verdict(Status.LIVE, None, f"production consumer {production.describe()}", consumers)
    external = [c for c in consumers if c.kind is ConsumerKind.EXTERNAL]
    validation = [c for c in consumers if c.kind is ConsumerKind.VALIDATION]
    outside = [c for c in external if c.via.startswith("external root")]
    siblings = [c for c in external if c.via.startswith("sibling project")]
    documented = [c for c in validation if c.via in DOC_VIAS]
    rejects = [
        *([f"used outside this repository: {listed(outside)}"] if outside else
          [f"used by another project of this repository: {listed(siblings)}"] if siblings else
          [f"loaded by name: {listed(external)}"] if external else []),
        *reject_reasons,
        *([f"documented as a supported name in {listed(documented)}"] if documented_rejects and documented else []),
        *([f"externally keyed name mentioned as supported in {listed(validation)}"] if externally_keyed and validation
          else []),
    ]
    doubts = [
        *(["the consumer may live outside this repository (model checkpoints name such keys)"] if externally_keyed else
          [f"only validation/support consumers: {listed(validation)}"] if validation else []),
        *medium_reasons,
    ]
    return decide("no consumer found", rejects=rejects, doubts=doubts, consumers=consumers)
