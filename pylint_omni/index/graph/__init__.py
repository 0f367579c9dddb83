"""The reference graph: every reference of the project resolved to the definition it reaches.

Built from the per-file link facts (`index.scan.link_scan`) through the modules'
export tables (`exports`), one file at a time (`resolve`), cached per file and
re-resolved only when the file or an export table it went through changed
(`store`). `graph_of(index)` gives the `ReferenceGraph` of the index's current state;
what cannot be resolved stays a name-only mention (`ProjectIndex.hits`).

Public API (typed, small): `graph_of`, `ReferenceGraph` (`resolve`, `refs_to`,
`attribute_reads`, `calls_to`, `table_uses`, `flows`, `patterns_over`, `substitutions`,
`writer_params`, `name_only`), and the records `Ref`, `AttributeRead`, `CallSite`, `TableUse`, `Flow`,
`Target`.
"""

from pylint_omni.index.graph.exports import Target
from pylint_omni.index.graph.graph import AttributeRead, CallSite, Flow, ReferenceGraph, Ref, TableUse, graph_of

__all__ = ["AttributeRead", "CallSite", "Flow", "ReferenceGraph", "Ref", "TableUse", "Target", "graph_of"]
