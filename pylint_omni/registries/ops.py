"""Custom ops: `direct_register_custom_op("x", f)` is read as `torch.ops.NS.x`, by the project or upstream.

A framework turns the registration into another name, so the consumers of an op
are the `torch.ops.NS.NAME` chains (and `getattr(torch.ops.NS, "NAME")`) in the
project's code and in the indexed upstream packages (vLLM calls its own ops by
name: an op an out-of-tree platform registers under vLLM's name is called there).
"""

from __future__ import annotations

from pylint_omni.evidence.consumers import Consumer, ConsumerKind
from pylint_omni.index.derived import Derived
from pylint_omni.index.paths import Location
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.upstream import upstream_of
from pylint_omni.index.upstream.build import OPS_PREFIX


def _project_op_uses(index: ProjectIndex) -> dict[str, list[tuple[str, int]]]:
    """op name -> (path, line) of every `torch.ops.NS.NAME` in the project (once per run)."""
    uses: dict[str, list[tuple[str, int]]] = {}
    for rel, facts in index.python_files():
        for chain, encoded in (facts.get("links") or {}).get("chains", {}).items():
            if chain.startswith(OPS_PREFIX) and chain.count(".") >= 3:
                name = chain.split(".")[3]
                for item in encoded.split("|"):
                    uses.setdefault(name, []).append((rel, int(item.partition(",")[0])))
    return uses


_OP_USES: Derived[dict[str, list[tuple[str, int]]]] = Derived("registries.torch_op_uses", _project_op_uses)


def op_consumers(index: ProjectIndex, name: str, own: list[tuple[str, int, int]]) -> list[Consumer]:
    """Calls of the op in the project (production or validation) and in indexed upstream packages."""
    found = []
    for path, line in _OP_USES.of(index).get(name, []):
        if any(path == p and a <= line <= b for p, a, b in own):
            continue
        kind = ConsumerKind.VALIDATION if index.location(path) is Location.VALIDATION else ConsumerKind.PRODUCTION
        found.append(Consumer(path, line, "torch.ops", kind, name))
    for ref in (r for package in upstream_of(index).packages() for r in package.op_uses_any(name)):
        found.append(Consumer(f"{ref.package} {ref.version} {ref.path}", ref.line, "upstream torch.ops", ConsumerKind.EXTERNAL, name))
    return found
