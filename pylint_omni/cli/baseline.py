"""`python -m pylint_omni baseline write FILE [PATHS]`: record today's findings so later runs show only new ones.

Lints PATHS (default: the project's top-level packages) with the plugin, ignoring any
configured baseline, and writes the candidates' ids (with symbol, subject, path,
line and message, for people) to FILE, sorted so that the file diffs well in review.
Then `--omni-baseline=FILE` (or `omni-baseline = "FILE"` in `[tool.pylint.pylint-omni]`,
relative to the project root) emits only findings whose id is not in it. pylint-omni
never reads its own outputs as project files, so FILE may live in the repository.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Sequence

from pylint_omni.evidence.baseline import baseline_document
from pylint_omni.cli.precommit import project_packages
from pylint_omni.cli.tree_lint import LintFailed, lint_findings


def write(file: str, root: Path, paths: Sequence[str], extra: Sequence[str]) -> int:
    targets = list(paths) or project_packages(root)
    if not targets:
        print(f"pylint-omni baseline: no package in {root}; pass the PATHS to record", file=sys.stderr)
        return 2
    missing = [t for t in targets if not (root / t).exists()]
    if missing:
        print(f"pylint-omni baseline: no such file or folder under {root}: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        found = lint_findings(root, targets, extra)
    except LintFailed as exc:
        print(f"pylint-omni baseline: {exc}", file=sys.stderr)
        return 2
    if not found.modules_linted:
        print(f"pylint-omni baseline: nothing was linted in {', '.join(targets)}; not written", file=sys.stderr)
        return 1
    document = baseline_document(found.candidates)
    try:
        Path(file).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"pylint-omni baseline: cannot write {file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"pylint-omni baseline: wrote {len(document['findings'])} findings of {found.modules_linted} modules "
          f"({', '.join(targets)}) to {file}", file=sys.stderr)
    return 0
