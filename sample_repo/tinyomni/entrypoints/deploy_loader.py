"""Reads the stage lists of deploy/*.yaml into stage specs."""

from __future__ import annotations

import yaml


def stage_specs(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        config = yaml.safe_load(handle)
    specs = []
    for index, stage in enumerate(config.get("stages", [])):
        specs.append({
            "id": stage.get("stage_id", index),
            "worker": stage.get("worker_cls") or stage.get("executor"),
            "runner": stage.get("runner"),
            "attention": stage.get("attention_backend", "SDPA"),
            "transport": stage.get("connector"),
        })
    return specs
