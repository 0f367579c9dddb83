"""The message text: what is hand-written, the library call that replaces it, one evidence clause."""

from __future__ import annotations

from pylint_omni.infrastructure.shapes import Replaceable


def replaceable_text(found: Replaceable, declared: str = "") -> str:
    """One line: the code, the replacement with the version that has it (and the declaration that guarantees it),
    what goes, why it matches, what stays."""
    kept = f"; what stays or differs: {found.glue}" if found.glue else ""
    use = f"decorate it with `@{found.replacement}`" if found.decorator else f"call `{found.replacement}(...)`"
    guaranteed = f"; the project requires {declared}" if declared else ""
    return (f"`{found.written}` is hand-written {found.name}; {use} (needs {found.since}{guaranteed}) "
            f"and delete {found.goes}: {found.evidence}{kept}")
