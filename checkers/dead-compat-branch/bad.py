"""Each flagged line guards an environment the project no longer supports (requires-python >=3.10, torch>=2.4)."""

import sys

import torch
from packaging import version

if sys.version_info < (3, 8):  # [dead-compat-branch]
    from typing_extensions import Literal
else:
    from typing import Literal

try:
    import yaml
except ImportError:  # [dead-compat-branch]
    yaml = None

TORCH_VERSION = version.parse(torch.__version__)


def attention_impl() -> Literal["math", "sdpa"]:
    if TORCH_VERSION < version.parse("2.0"):  # [dead-compat-branch]
        return "math"
    return "sdpa"


def checkpoint_kwargs() -> dict:
    return {"use_reentrant": False} if TORCH_VERSION >= version.parse("1.11") else {}  # [dead-compat-branch]


def load(text: str) -> dict:
    if yaml is None:
        raise RuntimeError("pyyaml is required")
    return yaml.safe_load(text)
