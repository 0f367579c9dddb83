"""The Opus codec (registered when the package is imported)."""

from tinyomni.serving.codecs.registry import register_codec


@register_codec("opus")
class OpusCodec:
    def encode(self, frames: list) -> bytes:
        return bytes(len(frames))
