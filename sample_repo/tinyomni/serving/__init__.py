"""Request serving: an HTTP front end, a router over stage replicas, health probes and codecs."""

import importlib

_LAZY_EXPORTS = {"RouterStats": ".stats"}


def __getattr__(name):
    if name in _LAZY_EXPORTS:
        return getattr(importlib.import_module(_LAZY_EXPORTS[name], __name__), name)
    raise AttributeError(name)
