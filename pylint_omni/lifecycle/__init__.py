"""`lifecycle-mechanism` (R7312): two lifecycle mechanisms of one class that hold one state.

The per-class map of events, flags, handles, locks and queues and their transitions
(`mechanisms`); the shapes judged on it: a flag mirroring an Event, a handle or a field
(`pairs`), two locks guarding the same fields (`locks`), a closed flag beside a queue
sentinel (`sentinels`); the verdicts (`checker`), their wording, and the ownership table
that `explain ClassName` prints (`explain`).

May import: the index (the reference graph, for writes from outside a class), the evidence
room, `astroid`. Never another message family.
"""
