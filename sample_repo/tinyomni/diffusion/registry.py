"""Diffusion pipelines register themselves by name; the stage config picks one."""

from typing import Callable

_PIPELINES: dict[str, type] = {}


def register_pipeline(name: str) -> Callable[[type], type]:
    def wrap(cls: type) -> type:
        _PIPELINES[name] = cls
        return cls

    return wrap


def get_pipeline_class(stage_config) -> type:
    try:
        return _PIPELINES[stage_config.pipeline]
    except KeyError:
        raise ValueError(f"unknown pipeline {stage_config.pipeline!r}; known: {sorted(_PIPELINES)}") from None
