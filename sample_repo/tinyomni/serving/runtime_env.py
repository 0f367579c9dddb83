"""Per-stage environment of the runtime section of deploy/runtime/*.yaml."""

import os


def runtime_devices(runtime: dict) -> str:
    return str(runtime.get("devices", "0"))


def apply_runtime_env(runtime: dict) -> None:  # [unused-surface] lost feature: `env_vars` is still shipped
    for name, value in runtime.get("env_vars", {}).items():
        os.environ[name] = str(value)
