"""Pick the attention backend class for a stage."""

import importlib

from tinyomni.attention.backends import AttentionBackendEnum


def default_backend() -> AttentionBackendEnum:
    return AttentionBackendEnum.FLASH


def load_backend(name: str):
    """`name` comes from the stage config (`attention_backend:` in deploy/*.yaml)."""
    member = AttentionBackendEnum[name] if name else default_backend()
    module_name, _, class_name = member.value.rpartition(".")
    return getattr(importlib.import_module(module_name), class_name)
