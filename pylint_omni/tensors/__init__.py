"""`redundant-tensor-materialization` (R7304) and `redundant-payload-conversion` (R7305).

A payload materialized, moved or converted more than once on one path, proven
inside one function: what the code proves of a tensor expression (`facts`),
function-local data flow (`local_flow`), values computed twice (`repeated_values`),
the finding and verdict both checkers share (`copy_findings`), and the two checkers
(`materialization` with `conversions`, `payload`).

May import: the index and evidence rooms. Never another message family.
"""
