"""What a candidate is worth (SPEC §5): the lines that go, the kind of saving, and how often it runs.

Every candidate carries one `Benefit`, so the report can rank findings and bundle
the small ones: a whole unused class outranks a no-op `.to()`, and a copy on a
decode step outranks the same copy in `__init__`. `evidence.heat` decides the heat,
`evidence.ranking` turns benefits into the report's order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any


class BenefitKind(str, Enum):
    """What the simplification removes."""

    API = "api"  # a public surface: class, function, method, entry, route, event
    STATE = "state"  # a field, a map, a copy of a fact kept in sync by hand
    COPIES = "copies"  # code written twice (or written again after upstream)
    TRANSFERS = "transfers"  # tensor materializations, host/device moves, encodings
    CONFIG = "config"  # an option, a config field, a YAML key
    COMPAT = "compat"  # a branch for an environment no longer supported
    FEATURE = "feature"  # a lost feature: dead code alone consumes something still produced (`pylint_omni.changes`)


class Heat(str, Enum):
    """How often the code runs (`hot`: forward, step/decode loops, per-request paths)."""

    HOT = "hot"
    COLD = "cold"  # init, `lru_cache`d, error paths, module-level setup
    UNKNOWN = "unknown"
    NEVER = "never"  # no production path reaches it (dead or test-only code)


@dataclass(frozen=True)
class Benefit:
    """The gain of one candidate.

    `lines`: lines that disappear (the surface plus what only it uses); `micro`: a
    real but small finding (a no-op call, one unread field) that the report bundles
    with its kind in the same file or class; `text`: the gain in words.
    `heat_reason` says why the code is hot or cold (`in forward()`, `error path`);
    `bundle` names one micro finding for a bundle title (`no-op .to() call`),
    `scope` the class or function it sits in (`Sampler.forward()`), and `sites` how
    many places the one finding covers (identical sibling lines reported once).
    """

    lines: int
    kind: BenefitKind
    text: str
    heat: Heat = Heat.UNKNOWN
    micro: bool = False
    heat_reason: str = ""
    bundle: str = ""
    scope: str = ""
    sites: int = 1
    change: str = ""  # what the change is, when it weighs beyond its lines: "lost-feature", "module" (`evidence.ranking`)

    def with_heat(self, heat: Heat, reason: str) -> Benefit:
        return replace(self, heat=heat, heat_reason=reason)

    def as_json(self) -> dict[str, object]:
        return {
            "lines": self.lines, "kind": self.kind.value, "text": self.text, "heat": self.heat.value,
            "heat_reason": self.heat_reason, "micro": self.micro, "bundle": self.bundle, "scope": self.scope,
            "sites": self.sites, "change": self.change,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Benefit:
        """The benefit a finding record carries (unknown values fall back to the defaults)."""
        try:
            kind = BenefitKind(data.get("kind", "api"))
        except ValueError:
            kind = BenefitKind.API
        try:
            heat = Heat(data.get("heat", "unknown"))
        except ValueError:
            heat = Heat.UNKNOWN
        return cls(
            int(data.get("lines") or 0), kind, str(data.get("text") or ""), heat, bool(data.get("micro")),
            str(data.get("heat_reason") or ""), str(data.get("bundle") or ""), str(data.get("scope") or ""),
            int(data.get("sites") or 1), str(data.get("change") or ""),
        )
