"""Checkpoint formats by name; every caller names the format it loads."""


class SafetensorsFormat:
    suffix = ".safetensors"


class GgufFormat:
    suffix = ".gguf"


LOAD_FORMATS = {
    "safetensors": SafetensorsFormat,
    "st": SafetensorsFormat,
    "gguf": GgufFormat,
}


def format_for(name: str):
    return LOAD_FORMATS[name]()


def default_format():
    return format_for("safetensors")


def quantized_format():
    return format_for("gguf")
