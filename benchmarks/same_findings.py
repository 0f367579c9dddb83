"""Whether two runs' findings are the same set: a speed change must not change what is found.

    python benchmarks/same_findings.py BEFORE.json AFTER.json

Both files are `omni-json` outputs (`--output-format=omni-json:FILE`). Compared as
sorted sets: every candidate and every rejected finding by (path, line, symbol,
status, confidence, message). Prints what only one side has; exit status 1 when
the sets differ.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

Finding = tuple[str, int, str, str, str, str]


def findings(path: Path) -> set[Finding]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {(f["path"], f["line"], f["symbol"], f["status"], f.get("confidence") or "", f["message"])
            for key in ("candidates", "rejected") for f in data.get(key, [])}


def main() -> None:
    before, after = findings(Path(sys.argv[1])), findings(Path(sys.argv[2]))
    for side, only in (("before only", before - after), ("after only", after - before)):
        for item in sorted(only):
            print(f"{side}: {item}")
    print(f"{len(before)} before, {len(after)} after: {'same' if before == after else 'DIFFERENT'}")
    sys.exit(0 if before == after else 1)


if __name__ == "__main__":
    main()
