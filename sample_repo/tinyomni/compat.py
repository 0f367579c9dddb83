"""Environment shims: Python and dependency versions tinyomni once had to support.

tinyomni declares `requires-python >=3.10` and `torch>=2.4` (pyproject.toml); the
transformers it runs with comes through tinyvllm (.upstream/tinyvllm-0.4.0.dist-info).
"""

import sys

import torch
import transformers
from packaging import version

if sys.version_info < (3, 9):  # planted: Python 3.8 is below requires-python
    from typing_extensions import Annotated
else:
    from typing import Annotated

if sys.version_info >= (3, 11):  # trap: Python 3.10 is still supported
    import tomllib
else:
    import tomli as tomllib

try:  # trap: typing.Self is new in 3.11, and 3.10 is supported
    from typing import Self
except ImportError:
    from typing_extensions import Self

try:  # planted: functools.cache exists since Python 3.9
    from functools import cache
except ImportError:
    from functools import lru_cache

    cache = lru_cache(maxsize=None)

TORCH_VERSION = version.parse(torch.__version__)


def torch_at_least(minimum: str) -> bool:
    """Whether the running torch is `minimum` or newer."""
    return version.parse(torch.__version__) >= version.parse(minimum)


def compile_mode() -> str:
    if TORCH_VERSION < version.parse("2.1"):  # planted: torch 2.0 is below the floor
        return "eager"
    if TORCH_VERSION >= version.parse("2.6"):  # trap: a gate inside the supported range
        return "max-autotune-no-cudagraphs"
    return "reduce-overhead"


def text_version_gate() -> bool:
    # trap: a version compared as text is only judged against an exact pin
    return torch.__version__ >= "2.0"


def tokenizer_padding() -> str:
    # planted, medium: transformers is not declared; tinyvllm 0.4.0 requires transformers>=4.50
    if version.parse(transformers.__version__) < version.parse("4.40"):
        return "longest_first"
    return "longest"


Annotated, tomllib, Self, cache  # re-exported for the modules below

try:  # trap: fcntl is POSIX-only and tinyomni declares no platform (no `Operating System ::` classifier)
    import fcntl
except ImportError:
    fcntl = None


def lock_file(handle) -> None:
    if fcntl is not None:
        fcntl.flock(handle, fcntl.LOCK_EX)
