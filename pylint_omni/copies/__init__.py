"""`duplicated-implementation` (R7309) and `upstream-reimplementation` (R7310): code written twice.

The fingerprint scanner the index runs on every Python file, project or upstream
(`fingerprints`, tokens from `normalize`), the project's copy groups computed once per
run (`groups` for functions, methods, classes and modules, `blocks` for statement
runs, `project`, cached by `store`), project copies of upstream units (`upstream`,
judged and cached by `reimplementation`), what each copy differs in (`drift`), the
verdicts (`verdict`), and the wording and checker that emit them.

May import: the index and evidence rooms. Never another message family.
"""
