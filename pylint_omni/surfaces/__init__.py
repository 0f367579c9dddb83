"""`unused-surface` (R7306) and `test-only-surface` (R7307): surfaces no production root reaches.

The surfaces of the project (modules, classes, functions, methods: `table`), the
edges between them read from the reference graph and the per-file name mentions
(`edges`), the production and validation roots and the framework conventions that
keep a member alive (`roots`, `conventions`, `decorators`), reachability and dead
chains (`reach`, `chains`), the evidence of each reported chain (`verdicts`), the
per-file facts the family hands to the index (`scan`), wording and the checker.

May import: the index and evidence rooms. Never another message family.
"""
