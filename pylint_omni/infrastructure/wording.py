"""The message text: what is hand-written, the library call that replaces it, one evidence clause."""

from __future__ import annotations

from pylint_omni.evidence.wording import clipped, short_message
from pylint_omni.infrastructure.shapes import Replaceable

MAX_WRITTEN = 60  # characters of the hand-written code quoted in the message (the report quotes it whole)


def replaceable_text(found: Replaceable, declared: str = "") -> str:
    """`What; fix (what stays or differs).` in the budget of every message: the code, the replacement with the
    version that has it (and the declaration that guarantees it) and what goes; then what stays in glue or differs
    (cut first when long), else why it matches. The report carries both in full (the finding's risk and proof)."""
    use = f"decorate it with `@{found.replacement}`" if found.decorator else f"call `{found.replacement}(...)`"
    guaranteed = ", declared" if declared else ""  # the declaration itself is in the finding's proof
    return short_message(f"`{clipped(found.written, MAX_WRITTEN)}` is hand-written {found.name}",
                         f"{use} (needs {found.since}{guaranteed}) and delete {found.goes}",
                         f"differs: {found.glue}" if found.glue else found.evidence)
