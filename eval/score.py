"""Score a run's findings against hand labels: candidates found, traps flagged, per family.

    python eval/score.py FINDINGS.json LABELS.yaml [LABELS.yaml ...]

FINDINGS.json is the `omni-json` report of a run on the labels' project. A finding
*covers* a label when it is of one of the family's messages and it, one of its members
(a change set's, or a finding it took in) or one of its surface lines sits in the
label's file at a line of the label's span (the label's first line, up to two lines
before it, for a decorator or a module docstring; or one of the label's own members).
A candidate label is *found* when a candidate finding covers it; a trap is *flagged*
when a candidate finding covers it (`high` counts the high ones apart). Labels of a
family the tool has no message for yet are counted as not found.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterator

import yaml

FAMILIES = {
    "surfaces": {"unused-surface", "test-only-surface"},
    "copies": {"duplicated-implementation", "upstream-reimplementation"},
    "config": {"unread-config-option"},
    "compat": {"dead-compat-branch"},
    "registry": {"unused-registry-entry"},
    "abstraction": {"single-implementation-abstraction"},
    "tensor": {"redundant-tensor-materialization", "redundant-payload-conversion"},
    "state": {"duplicated-state-field"},
    "lifecycle": {"lifecycle-mechanism"},
    "infrastructure": {"replaceable-infrastructure"},
}
LOCATION = re.compile(r"^(?P<path>[^\s:]+):(?P<line>\d+)(?:-(?P<end>\d+))?\b")
LEAD = 2  # a decorator or a docstring line above the label's first line


def places(finding: dict[str, Any]) -> Iterator[tuple[str, str, int, int]]:
    """(symbol, path, first, last) of every place a finding speaks of: itself, its members, its surface lines."""
    yield finding["symbol"], finding["path"], finding["line"], finding["line"]
    for member in finding.get("members") or ():
        yield member["symbol"], member["path"], member["line"], member["line"]
    for item in finding.get("surface") or ():
        found = LOCATION.match(item)
        if found:
            first = int(found["line"])
            yield finding["symbol"], found["path"], first, int(found["end"] or first)


def label_spans(label: dict[str, Any]) -> list[tuple[str, int, int]]:
    spans = [(label["path"], int(label["line"]), int(label.get("end") or label["line"]))]
    for member in label.get("members") or ():
        if isinstance(member, dict) and member.get("path") and member.get("line"):
            spans.append((member["path"], int(member["line"]), int(member.get("end") or member["line"])))
    return spans


def covers(finding: dict[str, Any], label: dict[str, Any], symbols: set[str]) -> bool:
    spans = label_spans(label)
    for symbol, path, first, last in places(finding):
        if symbol not in symbols:
            continue
        for label_path, start, end in spans:
            if path == label_path and first <= end and last >= start - LEAD:
                return True
    return False


def score(findings: dict[str, Any], label_files: list[Path]) -> dict[str, dict[str, Any]]:
    candidates = findings["candidates"]
    table: dict[str, dict[str, Any]] = defaultdict(lambda: {"candidates": 0, "found": 0, "traps": 0, "flagged": 0,
                                                            "flagged_high": 0, "missed": [], "flagged_ids": []})
    for path in label_files:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        family = document["family"]
        symbols = FAMILIES[family]
        row = table[family]
        for label in document["labels"]:
            hits = [f for f in candidates if covers(f, label, symbols)]
            if label["label"] == "candidate":
                row["candidates"] += 1
                if hits:
                    row["found"] += 1
                else:
                    row["missed"].append(label["id"])
            else:
                row["traps"] += 1
                if hits:
                    row["flagged"] += 1
                    row["flagged_ids"].append(label["id"])
                    row["flagged_high"] += any(f["confidence"] == "high" for f in hits)
    return dict(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("findings", type=Path)
    parser.add_argument("labels", type=Path, nargs="+")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument("--ids", action="store_true", help="list the missed candidates and flagged traps")
    args = parser.parse_args(argv)
    table = score(json.loads(args.findings.read_text(encoding="utf-8")), args.labels)
    if args.json:
        print(json.dumps(table, indent=2))
        return 0
    print(f"{'family':<15} {'found':>9} {'traps flagged':>14} {'(high)':>7}")
    for family, row in sorted(table.items()):
        print(f"{family:<15} {row['found']:>4}/{row['candidates']:<4} {row['flagged']:>7}/{row['traps']:<6} {row['flagged_high']:>7}")
        if args.ids:
            print(f"{'':<15} missed: {', '.join(row['missed']) or '-'}; flagged: {', '.join(row['flagged_ids']) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
