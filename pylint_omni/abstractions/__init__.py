"""`single-implementation-abstraction` (R7302): abstractions and factories with one real implementation.

Implementations counted on the class graph (`implementations`), the reject and
downgrade rules (`verdict`), single-choice factories (`factories`) and the checker.

May import: the index and evidence rooms. Never another message family.
"""
