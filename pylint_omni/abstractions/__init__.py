"""`single-implementation-abstraction` (R7302): abstractions and factories with one real implementation.

Implementations counted on the class graph (`implementations`), the class shapes a
reviewer recognises (`shapes`), the reject and downgrade rules (`verdict`),
single-choice factories (`factories`) judged by their callers (`factory_callers`),
the wording (`wording`) and the checker.

May import: the index and evidence rooms. Never another message family.
"""
