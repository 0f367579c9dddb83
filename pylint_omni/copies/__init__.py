"""`duplicated-implementation` (R7309): copies of one implementation inside the project.

The fingerprint scanner the index runs on every Python file (`fingerprints`, tokens
from `normalize`), the project's copy groups computed once per run (`groups` for
functions, methods, classes and modules, `blocks` for statement runs, `project`),
what each copy differs in (`drift`), the verdict (`verdict`), and the wording and
checker that emit it.

May import: the index and evidence rooms. Never another message family.
"""
