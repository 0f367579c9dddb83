"""Inspection helpers."""


def dump_queue_state(router) -> dict:  # [test-only-surface] only tests/test_serving.py calls it
    return {"replicas": list(router.replicas), "routed": router.stats.routed}


def replica_table(router) -> str:
    """Documented in docs/serving.md: a supported helper although only tests call it."""
    return "\n".join(router.replicas)
