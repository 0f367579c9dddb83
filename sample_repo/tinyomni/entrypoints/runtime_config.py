"""Reads the per-stage runtime settings of deploy/runtime/*.yaml."""

from __future__ import annotations

import yaml

from tinyvllm.engine_args import EngineArgs, create_engine

RUNTIME_FOLDER = "deploy/runtime/"


def start_stages(path: str) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        config = yaml.safe_load(handle)
    engines = []
    for stage in config["stages"]:
        runtime = stage.get("runtime", {})
        devices = runtime.get("devices", "0")
        batch = int(runtime.get("max_batch_size", 1))
        engine_args = dict(stage.get("engine_args", {}))
        engines.append(f"{devices}/{batch}/" + create_engine(EngineArgs(model=stage["name"], **engine_args)))
    return engines
