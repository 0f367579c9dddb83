"""Upstream consumers of a project class's fields and methods, on the same kind of object.

A field or method of a project class is an external consumer's business when an
indexed upstream package reads, writes or calls it *on the kind of object the
class stands for* — never on a bare attribute name (upstream reads `.device` and
`.request_id` everywhere). The class stands for:
- every upstream class it descends from (directly or through project classes),
  and their upstream ancestors: upstream code that receives such an object (an
  annotated parameter, `self` in the upstream base) may read the field;
- every upstream class it is substituted for: `upstream_mod.X = OmniX`, or a loop
  over `sys.modules` assigning `module.X = OmniX` (`index.graph` records both), after
  which upstream's objects of class X are the project's.
A method that an upstream ancestor defines or calls on `self` is a hook override.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pylint_omni.evidence.consumers import Consumer, ConsumerKind
from pylint_omni.index.class_graph import class_graph
from pylint_omni.index.derived import Table
from pylint_omni.index.graph import graph_of
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream import UpstreamRef, upstream_of

MAX_LISTED_KINDS = 8  # upstream kinds listed for a class
# Bases that carry no attributes of their own: a class listing them hands its fields to no third-party code.
SAFE_BASES = frozenset({"object", "ABC", "abc.ABC", "Generic", "typing.Generic", "Protocol", "typing.Protocol", "Exception"})
TORCH_MODULE_PREFIXES = ("torch.nn.", "nn.Module")  # torch's module machinery reads no field a subclass adds

_KINDS: Table[str, UpstreamKinds] = Table("evidence.upstream_kinds")


@dataclass
class UpstreamKinds:
    """The upstream classes a project class stands for, and how each was found."""

    classes: list[str] = field(default_factory=list)
    why: dict[str, str] = field(default_factory=dict)


def _substituted(index: ProjectIndex, names: set[str]) -> dict[str, str]:
    """Upstream names the project assigns one of `names` over: replaced name -> where."""
    found: dict[str, str] = {}
    for replaced, value, path, line in graph_of(index).substitutions():
        if value in names:
            found.setdefault(replaced, f"{path}:{line}")
    return found


def upstream_kinds(index: ProjectIndex, dotted: str) -> UpstreamKinds:
    """Upstream classes whose objects instances of the project class `dotted` are (memoised per run)."""
    memo = _KINDS.values(index)
    if dotted in memo:
        return memo[dotted]
    kinds = memo[dotted] = UpstreamKinds()
    upstream = upstream_of(index)
    if not upstream.found:
        return kinds
    graph = class_graph(index)
    lineage = [dotted, *graph.ancestors(dotted)] if dotted in graph.nodes else [dotted]
    # An instance of a subclass is one of the class's too: a mixin's objects are whatever its subclasses combine it with.
    descendants = graph.descendants(dotted) if dotted in graph.nodes else []
    lineage = list(dict.fromkeys([*lineage, *(name for child in descendants for name in (child, *graph.ancestors(child)))]))
    for project_class in lineage:
        for base in graph.upstream_bases(project_class):
            for ancestor in upstream.ancestors(upstream.canonical(base)):
                kinds.why.setdefault(ancestor, f"{project_class.rpartition('.')[2]} extends {base}")
    for replaced, where in _substituted(index, set(lineage)).items():
        head, _, name = replaced.rpartition(".")
        candidates = [c.dotted for _, c in upstream.classes_named(name)] if head == "*" else [upstream.canonical(replaced)]
        for candidate in candidates:
            for ancestor in upstream.ancestors(candidate) or [candidate]:
                kinds.why.setdefault(ancestor, f"assigned over {replaced} at {where}")
    kinds.classes = list(kinds.why)
    return kinds


def upstream_readers(index: ProjectIndex, class_dotted: str, attr: str) -> list[tuple[UpstreamRef, str]]:
    """Upstream uses of `attr` on objects of the kinds `class_dotted` stands for, with why that kind."""
    kinds = upstream_kinds(index, class_dotted)
    found: list[tuple[UpstreamRef, str]] = []
    upstream = upstream_of(index)
    for kind in kinds.classes:
        found += [(ref, kinds.why[kind]) for ref in upstream.attribute_uses([kind], attr) if not ref.via.endswith("store")]
        package = upstream.owning(kind)
        upstream_class = package.classes().get(kind) if package is not None else None
        if upstream_class is not None and attr in upstream_class.methods:
            ref = UpstreamRef(package.name, package.version, upstream_class.path, upstream_class.line, "hook")  # type: ignore[union-attr]
            found.append((ref, f"overrides {kind}.{attr} ({kinds.why[kind]})"))
    return found


def upstream_consumers(index: ProjectIndex, class_dotted: str, attr: str) -> list[Consumer]:
    """The same, as external/dynamic consumers (path names the package, version and file)."""
    return [
        Consumer(f"{ref.package} {ref.version} {ref.path}", ref.line, f"upstream {ref.via}; {why}", ConsumerKind.EXTERNAL, attr)
        for ref, why in upstream_readers(index, class_dotted, attr)
    ]


def indexed_bases(index: ProjectIndex, bases: list[str]) -> list[str]:
    """The subset of `bases` (dotted, as written through imports) that an indexed upstream package defines."""
    upstream = upstream_of(index)
    return [base for base in bases if upstream.ancestors(upstream.canonical(base))]


def unread_base(base: str, index: ProjectIndex) -> bool:
    """Whether a third-party base's code may use any attribute of its subclasses' objects and no upstream index
    says which: not a plain typing/abc base, not torch's module machinery, not a class an indexed package defines."""
    return not (base.split("[")[0] in SAFE_BASES or base.startswith(TORCH_MODULE_PREFIXES) or indexed_bases(index, [base]))


def upstream_unknowns(index: ProjectIndex) -> list[str]:
    return upstream_of(index).unknowns()
