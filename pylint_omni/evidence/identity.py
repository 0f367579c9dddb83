"""The stable finding id: what a finding is, not where it currently sits.

Recipe (README "Finding ids", docs/report.md): the first 16 hex digits of
SHA-256 over `symbol`, `subject` and `kind`, joined by newlines, plus a newline and
an ordinal when the same three already produced a finding earlier in the same file
(two identical copies in one function). Line and column numbers never enter it, so
an edit above the finding (an import, a docstring, another function) keeps the id.

- `subject`: the surface's qualified name, given by the family
  (`FindingDetails.subject`): the dotted qualname (`pkg.mod.Class.field`,
  `pkg.mod.REGISTRY['key']`), or `path::what` for a surface without one. Fallback
  when a family gives none: `path::` and the first surface item without its
  `path:line ` prefix; with no surface either, `path::` and the message with its
  numbers blanked (`#`).
- `kind`: which rule of the message found it (`entry`, `class`, `factory`, `mirror`,
  ...), since one surface can carry two different findings of one message.
"""

from __future__ import annotations

import hashlib
import re

ID_DIGITS = 16  # hex digits of a finding id
NUMBERS = re.compile(r"\d+")
LOCATION_PREFIX = re.compile(r"^\S+:\d+ ")


def finding_id(symbol: str, subject: str, kind: str, ordinal: int = 1) -> str:
    """The id of the `ordinal`-th finding with this symbol, subject and kind in one file."""
    text = f"{symbol}\n{subject}\n{kind}" + (f"\n{ordinal}" if ordinal > 1 else "")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:ID_DIGITS]


def fallback_subject(relpath: str, surface: list[str], message: str) -> str:
    """The subject of a finding whose family named none (see the module docstring)."""
    if surface:
        return f"{relpath}::{LOCATION_PREFIX.sub('', surface[0])}"
    return f"{relpath}::{NUMBERS.sub('#', message)}"


def looks_like_id(text: str) -> bool:
    """Whether a command-line argument is a finding id rather than a name."""
    return len(text) == ID_DIGITS and all(ch in "0123456789abcdef" for ch in text)
