"""The built-in formatter."""

from __future__ import annotations

import json
from typing import Any

from tinyomni.engine.output_plugins.base import OutputFormatter


class JsonFormatter(OutputFormatter):
    def format(self, output: Any) -> str:
        return json.dumps(output, default=str)
