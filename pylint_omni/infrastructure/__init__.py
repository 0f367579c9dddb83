"""`replaceable-infrastructure` (R7313): hand-written code a dependency the project already has replaces.

The recognisers (`shapes`) match AST shapes, never names alone; the checker emits
them. Upstream helpers copied by hand are `upstream-reimplementation` (`copies`), not this family.

May import: the evidence and index rooms. Never another message family.
"""
