"""Environment variables read by tinyomni, evaluated lazily on attribute access."""

import os

environment_variables = {
    "TINYOMNI_LOG_LEVEL": lambda: os.getenv("TINYOMNI_LOG_LEVEL", "INFO"),
    "TINYOMNI_CACHE_ROOT": lambda: os.path.expanduser(os.getenv("TINYOMNI_CACHE_ROOT", "~/.cache/tinyomni")),
    "TINYOMNI_STAGE_TIMEOUT_S": lambda: float(os.getenv("TINYOMNI_STAGE_TIMEOUT_S", "30")),
    "TINYOMNI_USE_LEGACY_SCHEDULER": lambda: os.getenv("TINYOMNI_USE_LEGACY_SCHEDULER", "0") == "1",
}


def __getattr__(name: str):
    if name in environment_variables:
        return environment_variables[name]()
    raise AttributeError(name)


def __dir__():
    return list(environment_variables.keys())
