"""Request ids of the engine."""

from __future__ import annotations

import uuid


def new_request_id(prefix: str) -> str:
    suffix = uuid.uuid4().hex[:12]
    return f"{prefix}-{suffix}"
