"""`unused-registry-entry` (R7301): registry entries no production lookup reaches.

How each registry is read across the project (`liveness.read_registry`), each
entry judged against its key's and target's consumers (`liveness.judge_entry`), and
the checker that words and emits it.

May import: the index and evidence rooms. Never another message family.
"""
