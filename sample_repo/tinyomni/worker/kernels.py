"""Kernel selection for the worker (uses the version helpers of tinyomni.compat)."""

import torch
import tinyvllm.engine_args as tv_args

from tinyomni.compat import TORCH_VERSION, torch_at_least
from packaging import version

try:  # trap: flash-attn is an optional extra (`tinyomni[flash]`)
    import flash_attn
except ImportError:
    flash_attn = None


def checkpoint_kwargs() -> dict:
    # planted: use_reentrant arrived in torch 1.11; the floor is 2.4
    return {"use_reentrant": False} if torch_at_least("1.11") else {}


def attention_impl() -> str:
    if not torch_at_least("2.0"):  # planted: always False under torch>=2.4
        return "math"
    if flash_attn is not None and version.parse(flash_attn.__version__) < version.parse("2.7"):  # trap: an extra
        return "flash-v2"
    return "sdpa"


def maybe_compile(fn):
    if TORCH_VERSION >= version.parse("2.0"):  # planted, micro: always true, nothing else to run
        fn = torch.compile(fn)
    if hasattr(torch, "npu"):  # trap: a build/plugin probe, not a version
        fn = getattr(torch, "npu").wrap(fn)
    return fn


def engine_factory():
    if hasattr(tv_args, "create_engine"):  # planted, medium: tinyvllm 0.4.0 (the only allowed version) defines it
        return tv_args.create_engine
    return None


def fused_engine_factory():
    if hasattr(tv_args, "create_fused_engine"):  # trap: not in tinyvllm 0.4.0's source: a newer feature
        return tv_args.create_fused_engine
    return None
