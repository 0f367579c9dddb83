"""Prometheus metrics of the router."""


def count_request(counters: dict) -> None:
    counters["tinyomni_requests_total"] = counters.get("tinyomni_requests_total", 0) + 1


def export_queue_depth(gauges: dict, depth: float) -> None:  # [unused-surface] lost feature: a documented metric
    gauges["tinyomni_queue_depth_seconds"] = depth
