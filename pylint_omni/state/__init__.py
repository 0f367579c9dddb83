"""`duplicated-state-field` (R7303): one fact held by two owners.

What a class does to its own fields (`patterns`), keyed containers that follow one
another (`maps`: a key set, the same members, derived values), the class hierarchy's claims on a
field (`hierarchy`), cross-file owner facts (`evidence`), where a copied value
comes from (`sources`), the wording and the checker. The per-file facts it needs
from other files (`attr_writes`, `sent_types`, ...) are recorded by the index's
`scan/state_scan.py` while the index reads each file.

May import: the index and evidence rooms. Never another message family.
"""
