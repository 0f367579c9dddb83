"""Registries whose entries nothing in production looks up."""

import os


def _flash(q, k, v):
    return q


def _naive(q, k, v):
    return q


def _sdpa(q, k, v):
    return q


def _paged_v1(q, k, v):
    return q


ATTENTION_KERNELS = {
    "flash": _flash,
    "naive": _naive,
    "sdpa": _sdpa,
    "paged-v1": _paged_v1,  # [unused-registry-entry]
}


def attention(name: str, q, k, v):
    return ATTENTION_KERNELS[name](q, k, v)


def run_default(q, k, v, on_cpu: bool, exact: bool):
    if exact:
        return attention("naive", q, k, v)
    return attention("sdpa" if on_cpu else "flash", q, k, v)


class ImageHook:
    pass


_HOOKS_BY_CLASS = {
    "ImageHook": lambda module: module,
    "RemovedVideoHook": lambda module: module,  # [unused-registry-entry]
}


def hook_for(module):
    return _HOOKS_BY_CLASS[type(module).__name__]


environment_variables = {
    "APP_LOG_LEVEL": lambda: os.getenv("APP_LOG_LEVEL", "INFO"),
    "APP_CACHE_DIR": lambda: os.getenv("APP_CACHE_DIR", "/tmp"),
    "APP_OLD_SCHEDULER": lambda: os.getenv("APP_OLD_SCHEDULER", "0"),  # [unused-registry-entry]
}


def __getattr__(name: str):
    return environment_variables[name]()


# Read as module attributes by context/app_settings.py (`bad.APP_LOG_LEVEL`).


class SafetensorsReader:
    pass


CHECKPOINT_READERS = {
    "safetensors": SafetensorsReader,
    "st": SafetensorsReader,  # [unused-registry-entry]
}


def reader_for(fmt: str):
    return CHECKPOINT_READERS[fmt]()


def default_reader():
    return reader_for("safetensors")


_EXIT_HOOKS = {}


def register_exit_hook(name: str):
    def wrap(fn):
        _EXIT_HOOKS[name] = fn
        return fn

    return wrap


@register_exit_hook("flush")  # [unused-registry-entry]
def flush():
    return None
