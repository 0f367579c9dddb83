"""Codecs register themselves on import."""

from tinyomni.serving.codecs import opus  # noqa: F401  (registers "opus")
from tinyomni.serving.codecs.registry import CODECS


def codec_for(name: str):
    return CODECS[name]()
