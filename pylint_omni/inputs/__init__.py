"""`omni-unreadable-input` (I7301): files the index could not use, named with the reason.

May import: the index and evidence rooms. Never another message family.
"""
