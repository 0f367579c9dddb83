"""Environment tests that still decide something on a supported install: nothing to report."""

import sys

import torch
from packaging import version

if sys.version_info >= (3, 11):  # Python 3.10 is still supported
    import tomllib
else:
    import tomli as tomllib

try:  # typing.Self is new in 3.11
    from typing import Self
except ImportError:
    from typing_extensions import Self

try:  # soundfile is an optional extra
    import soundfile
except ImportError:
    soundfile = None

try:  # fcntl is POSIX-only, and the project declares no platform: this is the Windows path
    import fcntl
except ImportError:
    fcntl = None

TORCH_VERSION = version.parse(torch.__version__)


def compile_mode() -> str:
    if TORCH_VERSION >= version.parse("2.6"):  # inside the supported range
        return "max-autotune"
    return "default"


def on_npu() -> bool:
    return hasattr(torch, "npu")  # a plugin or build flag, not a version


__all__ = ["tomllib", "Self", "soundfile", "fcntl", "compile_mode", "on_npu"]
