"""The library calls, and look-alikes with other numerics or semantics that stay silent."""

import functools
from dataclasses import dataclass, replace

import torch
import torch.nn.functional as F


def activate(x: torch.Tensor) -> torch.Tensor:
    return F.silu(x)


def quick_gelu(x: torch.Tensor) -> torch.Tensor:
    return x * torch.sigmoid(1.702 * x)


def gelu_tanh(x: torch.Tensor) -> torch.Tensor:
    return F.gelu(x, approximate="tanh")


def scale_norm(x: torch.Tensor, eps: float) -> torch.Tensor:
    # eps outside the root: no library norm computes this
    return x / (torch.sqrt(x.pow(2).mean(-1, keepdim=True)) + eps)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return F.rms_norm(x, (x.shape[-1],), weight, eps)


def channels_first_norm(x: torch.Tensor, eps: float) -> torch.Tensor:
    # over dim 1: layer_norm normalises the last dims only
    mean = x.mean(1, keepdim=True)
    var = (x - mean).pow(2).mean(1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps)


def unshifted(logits: torch.Tensor) -> torch.Tensor:
    # no max shift: overflows where torch.softmax does not
    e = torch.exp(logits)
    return e / e.sum(dim=-1, keepdim=True)


def attend_fp32(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    # softmax in float32: other numerics than the fused kernel
    return torch.softmax(q @ k.transpose(-2, -1), dim=-1, dtype=torch.float32).to(v.dtype) @ v


@functools.cache
def table(size: int, dtype: torch.dtype) -> torch.Tensor:
    return torch.eye(size, dtype=dtype)


class PerInstance:
    # a per-instance cache: functools.cache on the method would share it across instances
    def __init__(self) -> None:
        self._cache: dict[int, torch.Tensor] = {}

    def get(self, size: int) -> torch.Tensor:
        if size in self._cache:
            return self._cache[size]
        self._cache[size] = torch.eye(size)
        return self._cache[size]


@dataclass
class StepInputs:
    input_ids: torch.Tensor
    is_prefill: bool = False

    def clone(self, **changes):
        return replace(self, **changes)


class Vocabulary:
    def __init__(self, tokenizer) -> None:
        self.tokenizer = tokenizer
        self._special = None

    @functools.cached_property
    def ids(self) -> set[int]:
        return set(self.tokenizer.get_vocab().values())

    @property
    def special(self) -> set[int]:
        # reset when tokens are added: not a compute-once value
        if self._special is None:
            self._special = set(self.tokenizer.all_special_ids)
        return self._special

    def add_tokens(self, tokens: list[str]) -> None:
        self.tokenizer.add_tokens(tokens)
        self._special = None


_GROUP = None


def get_group() -> object:
    # reset by destroy_group: not a compute-once value
    global _GROUP
    if _GROUP is None:
        _GROUP = object()
    return _GROUP


def destroy_group() -> None:
    global _GROUP
    _GROUP = None


_CLIENT = None


async def get_client() -> object:
    # a coroutine function: functools.cache would cache the coroutine, which can be awaited once
    global _CLIENT
    if _CLIENT is None:
        _CLIENT = object()
    return _CLIENT
