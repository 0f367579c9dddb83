"""Engine and worker configuration (planted cases of unread-config-option; see PLANTED.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

from tinyvllm.engine_args import EngineArgs

TINYOMNI_PROFILE_DIR = os.getenv("TINYOMNI_PROFILE_DIR")  # planted: read into a constant nothing uses
TINYOMNI_DEBUG = os.getenv("TINYOMNI_DEBUG", "0") == "1"  # trap: used below


@dataclass
class EngineConfig:
    model: str
    max_batch_size: int = 8
    legacy_swap_space_gb: int = 4  # planted: nothing reads it
    trace_dir: str | None = None  # planted, medium: only tests/test_config.py reads it
    dtype: str = "bfloat16"  # trap: read with getattr(config, "dtype")
    warmup_steps: int = 2  # planted: copied into WorkerConfig.warmup_steps, which nothing reads
    poll_timeout_s: float = 30.0  # planted: the only `.poll_timeout_s` read is StagePoller's own attribute
    tensor_parallel_size: int = 1
    world_size: int = 1  # planted: __post_init__ overwrites it before anything reads it

    def __post_init__(self) -> None:
        self.world_size = self.tensor_parallel_size * 2


@dataclass
class WorkerConfig:
    device: str
    warmup_steps: int = 0  # planted: only ever set from EngineConfig, never read


@dataclass
class LoggingConfig:
    level: str = "INFO"
    json_lines: bool = False  # trap: every field is read by the loop over fields() below

    def as_env(self) -> dict[str, str]:
        return {f"TINYOMNI_LOG_{f.name.upper()}": str(getattr(self, f.name)) for f in fields(self)}


@dataclass
class OmniEngineArgs(EngineArgs):
    enforce_eager: bool = True  # trap: the upstream engine reads `.enforce_eager`
    stage_count: int = 1
    extra_compile_passes: int = 0  # planted, medium: EngineArgs is upstream; it reads other names, not this one


def build_worker_config(config: EngineConfig) -> WorkerConfig:
    return WorkerConfig(device="cuda:0", warmup_steps=config.warmup_steps)


def batch_limit(config: EngineConfig) -> int:
    if TINYOMNI_DEBUG:
        return 1
    return min(config.max_batch_size, config.world_size * 4)


def compute_dtype(config: EngineConfig) -> str:
    return f"{config.model}:" + getattr(config, "dtype")


def stage_count(args: OmniEngineArgs) -> int:
    return args.stage_count


class StagePoller:
    """Polls a stage; its own `poll_timeout_s` is not the engine's."""

    def __init__(self, poll_timeout_s: float) -> None:
        self.poll_timeout_s = poll_timeout_s

    def deadline(self, now: float) -> float:
        return now + self.poll_timeout_s
