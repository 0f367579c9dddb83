"""`duplicated-implementation` (R7309) and `upstream-reimplementation` (R7310): code written twice.

The fingerprint scanner the index runs on every Python file, project or upstream
(`fingerprints`, tokens from `normalize`), the project's copy groups computed once per
run (`groups` for functions, methods, classes and modules, `blocks` for statement
runs, `project`, cached by `store`), project copies of upstream units (`upstream`,
judged and cached by `reimplementation`), what each copy differs in (`drift`, its
kinds in `kinds`: plain parameters or behaviour), the verdicts (`verdict`, then
`doubts` after the cache), and the change each copy belongs to (`plan`: per-model
conventions in `conventions`, forked modules in `forks`, classes repeating another's
methods in `classes`, the copies left of a group in `grouped`; each copy as reported
alone in `reported`), with the wording and checker that emit them.

May import: the index, evidence and change-set rooms (the change sets' wording helpers). Never another message family.
"""
