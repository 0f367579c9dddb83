"""Loads stage input processors by qualname."""

import importlib

_PROCESSORS = "tinyomni.engine.stage_processors"


def resolve_obj_by_qualname(qualname: str):
    module_name, _, name = qualname.rpartition(".")
    return getattr(importlib.import_module(module_name), name)


def vocoder_processor():
    return resolve_obj_by_qualname(f"{_PROCESSORS}.talker_to_vocoder")


def processor_for(stage_config: dict):
    return resolve_obj_by_qualname(stage_config["input_processor"])
