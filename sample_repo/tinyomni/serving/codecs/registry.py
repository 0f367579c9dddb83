"""The audio codecs, by name."""

CODECS: dict = {}


def register_codec(name: str):
    def decorate(cls):
        CODECS[name] = cls
        return cls

    return decorate
