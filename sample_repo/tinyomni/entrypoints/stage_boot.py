"""Starting the stages of a pipeline and waiting until each reports ready."""

from __future__ import annotations

import logging
import time

logger = logging.getLogger(__name__)


def wait_for_stages(stages: list, timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    ready: list[int] = []
    while len(ready) < len(stages) and time.monotonic() < deadline:
        for stage_id, stage in enumerate(stages):
            if stage_id not in ready and stage.poll_ready():
                ready.append(stage_id)
                logger.info("[Orchestrator] stage %d ready", stage_id)
        time.sleep(0.05)
    if len(ready) < len(stages):
        logger.warning("[Orchestrator] %d stages not ready after %.0fs", len(stages) - len(ready), timeout)
    return ready
