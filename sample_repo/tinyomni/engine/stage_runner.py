"""Runs the three stages of a request (consumers of the lazy stage exports)."""

from tinyomni.stages import ThinkerStage
from tinyomni.stages.vocoder import VocoderStage


def run_request(prompt: str, talker_cls) -> bytes:
    hidden = ThinkerStage().run(prompt)
    codes = talker_cls().run(hidden)
    return VocoderStage().run(codes)
