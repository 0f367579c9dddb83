"""Replica-picking backends, exported lazily."""

import importlib

_LAZY_BACKENDS = {  # [unused-registry-entry] production imports each backend from its own module
    "RoundRobinBackend": ".round_robin",
    "FirstBackend": ".first",
}


def __getattr__(name: str):
    if name in _LAZY_BACKENDS:
        return getattr(importlib.import_module(_LAZY_BACKENDS[name], __name__), name)
    raise AttributeError(name)


def __dir__() -> list[str]:
    return sorted(_LAZY_BACKENDS)
