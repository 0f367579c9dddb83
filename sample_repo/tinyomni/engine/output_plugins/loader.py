"""Formatters by name: the built-in one plus those installed plugins declare."""

from __future__ import annotations

from importlib.metadata import entry_points

from tinyomni.engine.output_plugins.base import OutputFormatter
from tinyomni.engine.output_plugins.json_formatter import JsonFormatter


def formatters() -> dict[str, type[OutputFormatter]]:
    found: dict[str, type[OutputFormatter]] = {"json": JsonFormatter}
    for point in entry_points(group="tinyomni.output_formatters"):
        found[point.name] = point.load()
    return found
