"""The `lifecycle-mechanism` message: what mirrors what, the fix, and one clause of evidence."""

from __future__ import annotations

from pylint_omni.lifecycle.mechanisms import Mechanism


def mirror_text(flag: Mechanism, event: Mechanism) -> str:
    """`_started` mirrors `_ready` (set together in start(), ...): read `_ready.is_set()` and drop the flag."""
    sets = ", ".join(f"{m}()" for m in sorted(flag.methods("set")))
    clears = ", ".join(f"{m}()" for m in sorted(event.methods("clear")))
    evidence = f"set together in {sets}" + (f", cleared together in {clears}" if clears else "")
    return f"`{flag.name}` mirrors `{event.name}` ({evidence}): read `{event.name}.is_set()` and drop the flag"
