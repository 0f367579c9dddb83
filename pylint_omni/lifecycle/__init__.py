"""`lifecycle-mechanism` (R7312): two lifecycle mechanisms of one class that mirror one state.

The per-class map of events, flags, handles, locks and queues and their transitions
(`mechanisms`), the judgement (`checker`), its wording, and the ownership table that
`explain ClassName` prints (`explain`).

May import: the evidence room, `astroid`. Never another message family.
"""
