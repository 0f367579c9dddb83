"""Stage runners, exported lazily: importing the package must not import every stage."""

import importlib

_LAZY_EXPORTS = {
    "ThinkerStage": ".thinker",
    "TalkerStage": ".talker",
    "VocoderStage": ".vocoder",
}


def __getattr__(name: str):
    if name in _LAZY_EXPORTS:
        return getattr(importlib.import_module(_LAZY_EXPORTS[name], __name__), name)
    raise AttributeError(name)
