"""Functions that turn one stage's outputs into the next stage's inputs.

Deploy configs name them by qualname (`input_processor: tinyomni.engine.stage_processors.NAME`).
"""


def _first(outputs: list) -> object:
    return outputs[0] if outputs else None


def thinker_to_talker(outputs: list) -> list:
    return [_first(outputs)]


def talker_to_vocoder(outputs: list) -> list:
    return list(outputs)


def thinker_to_vocoder_direct(outputs: list) -> list:
    return [_first(outputs), *outputs]
