"""The `omni-*` options, declared once on an options-only checker, and their reading.

Settable on the command line (`--omni-root=...`) or in the analysed project's
`pyproject.toml` under `[tool.pylint.pylint-omni]` (any `[tool.pylint.*]` table works,
as pylint reads them all).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pylint.checkers import BaseChecker

from pylint_omni.settings import (
    DEFAULT_EXCLUDE_GLOBS,
    DEFAULT_EXTERNAL_KEY_PATTERNS,
    DEFAULT_MAX_FILE_BYTES,
    DEFAULT_VALIDATION_GLOBS,
    OmniSettings,
)

OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("omni-root", {"type": "string", "default": "", "metavar": "<dir>",
                   "help": "Project root for the index (default: nearest folder with pyproject.toml, setup.py or .git above the linted file)."}),
    ("omni-validation-globs", {"type": "csv", "default": DEFAULT_VALIDATION_GLOBS, "metavar": "<globs>",
                               "help": "Root-relative globs of validation/support files (tests, benchmarks, examples, docs, CI, tools)."}),
    ("omni-production-globs", {"type": "csv", "default": (), "metavar": "<globs>",
                               "help": "Globs that are production even when a validation glob matches (e.g. a deploy folder under examples/)."}),
    ("omni-exclude-globs", {"type": "csv", "default": DEFAULT_EXCLUDE_GLOBS, "metavar": "<globs>",
                            "help": "Globs the index never reads."}),
    ("omni-external-key-patterns", {"type": "csv", "default": DEFAULT_EXTERNAL_KEY_PATTERNS, "metavar": "<patterns>",
                                    "help": "Name patterns of keys chosen by outside data (model checkpoints): never high confidence."}),
    ("omni-cache-dir", {"type": "string", "default": "", "metavar": "<dir>",
                        "help": "Where the index cache lives (default $PYLINT_OMNI_CACHE_DIR, $XDG_CACHE_HOME/pylint-omni or ~/.cache/pylint-omni)."}),
    ("omni-cache", {"type": "yn", "default": True, "metavar": "<y or n>", "help": "Cache per-file facts on disk."}),
    ("omni-max-file-bytes", {"type": "int", "default": DEFAULT_MAX_FILE_BYTES, "metavar": "<bytes>",
                             "help": "Files larger than this are skipped with a message."}),
    ("omni-include-rejected", {"type": "yn", "default": False, "metavar": "<y or n>",
                               "help": "Also emit findings the evidence rejected (confidence UNDEFINED), for the audit report."}),
)


class OmniOptions(BaseChecker):
    """Holds the `omni-*` options; emits nothing itself."""

    name = "pylint-omni"
    msgs: dict[str, Any] = {}
    options = OPTIONS


def settings_from(config: Any) -> OmniSettings:
    """OmniSettings from pylint's parsed configuration namespace."""
    def get(name: str, default: Any) -> Any:
        return getattr(config, name.replace("-", "_"), default)

    root = get("omni-root", "")
    cache_dir = get("omni-cache-dir", "")
    return OmniSettings(
        root=Path(root).resolve() if root else None,
        validation_globs=tuple(get("omni-validation-globs", DEFAULT_VALIDATION_GLOBS)),
        production_globs=tuple(get("omni-production-globs", ())),
        exclude_globs=tuple(get("omni-exclude-globs", DEFAULT_EXCLUDE_GLOBS)),
        external_key_patterns=tuple(get("omni-external-key-patterns", DEFAULT_EXTERNAL_KEY_PATTERNS)),
        cache_dir=Path(cache_dir).expanduser() if cache_dir else None,
        cache_enabled=bool(get("omni-cache", True)),
        max_file_bytes=int(get("omni-max-file-bytes", DEFAULT_MAX_FILE_BYTES)),
        include_rejected=bool(get("omni-include-rejected", False)),
    )
