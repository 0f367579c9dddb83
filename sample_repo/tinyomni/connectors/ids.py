"""Transfer ids of the connectors (same scheme as request ids, kept local: tiny)."""

from __future__ import annotations

import uuid


def new_transfer_id(prefix: str) -> str:
    suffix = uuid.uuid4().hex[:12]
    return f"{prefix}-{suffix}"
