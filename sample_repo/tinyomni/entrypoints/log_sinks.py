"""Request log sinks (trap: the kind is a command-line option, so the one accepted kind is a user-facing check)."""

from __future__ import annotations

import sys


class StderrLogSink:
    def write(self, line: str) -> None:
        print(line, file=sys.stderr)


def make_log_sink(kind: str) -> StderrLogSink:
    if kind == "stderr":
        return StderrLogSink()
    raise ValueError(f"unknown log sink {kind!r}")
