"""The message text: what is hand-written, the library call that replaces it, one evidence clause."""

from __future__ import annotations

from pylint_omni.infrastructure.shapes import Replaceable


def replaceable_text(found: Replaceable) -> str:
    """One line: the code, the replacement with the version that has it, why the numerics match."""
    return (f"`{found.written}` is hand-written {found.name}; call `{found.replacement}(...)` (since {found.since}) "
            f"and delete the expression: {found.evidence}")
