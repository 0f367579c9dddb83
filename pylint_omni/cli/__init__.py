"""The command line's subcommands (`python -m pylint_omni ...`, `pylint-omni ...`).

`report` (the audit report through pylint), `precommit` (the advisory hook),
`baseline` and `diff` (adoption: known findings, findings added or resolved since the
merge base) and `tree_lint` (lint a tree in a subprocess, cached by content), which
`baseline`, `diff` and `explain` share. `pylint_omni/__main__.py` parses the
arguments and dispatches here. Each runs pylint in a subprocess, so pylint's and
astroid's state stay per run.

May import: the index and evidence rooms and the options. Never a message family or
the reporters (they are reached through pylint's `--output-format`).
"""
