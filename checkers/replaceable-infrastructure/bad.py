"""Hand-written primitives the library has: activations, norms, softmax, attention, a memo dict, a dataclass copy, a lazy property, a lazy global."""

import math
from dataclasses import dataclass, fields

import torch

_TABLES = {}
_ENCODING = None


def activate(x: torch.Tensor) -> torch.Tensor:
    return x * torch.sigmoid(x)  # [replaceable-infrastructure]


def gelu_tanh(x: torch.Tensor) -> torch.Tensor:
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)))  # [replaceable-infrastructure]


def gelu_erf(x: torch.Tensor) -> torch.Tensor:
    return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))  # [replaceable-infrastructure]


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    variance = x.pow(2).mean(-1, keepdim=True)
    x = x * torch.rsqrt(variance + eps)  # [replaceable-infrastructure]
    return weight * x


def layer_norm(x: torch.Tensor, eps: float) -> torch.Tensor:
    mean = x.mean(-1, keepdim=True)
    var = (x - mean).pow(2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps)  # [replaceable-infrastructure]


def probabilities(logits: torch.Tensor) -> torch.Tensor:
    e = torch.exp(logits - logits.max(dim=-1, keepdim=True)[0])
    return e / e.sum(dim=-1, keepdim=True)  # [replaceable-infrastructure]


def log_probabilities(logits: torch.Tensor) -> torch.Tensor:
    return logits - torch.logsumexp(logits, dim=-1, keepdim=True)  # [replaceable-infrastructure]


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float) -> torch.Tensor:
    return torch.softmax(q @ k.transpose(-2, -1) * scale, dim=-1) @ v  # [replaceable-infrastructure]


def table(size: int, dtype: torch.dtype) -> torch.Tensor:  # [replaceable-infrastructure]
    key = (size, dtype)
    if key in _TABLES:
        return _TABLES[key]
    value = torch.eye(size, dtype=dtype)
    _TABLES[key] = value
    return value


@dataclass
class StepInputs:
    input_ids: torch.Tensor
    is_prefill: bool = False

    def clone(self, **changes):  # [replaceable-infrastructure]
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return type(self)(**values)


class Vocabulary:
    def __init__(self, tokenizer) -> None:
        self.tokenizer = tokenizer
        self._ids = None

    @property
    def ids(self) -> set[int]:  # [replaceable-infrastructure]
        if self._ids is None:
            self._ids = set(self.tokenizer.get_vocab().values())
        return self._ids


def get_encoding() -> dict[str, int]:  # [replaceable-infrastructure]
    global _ENCODING
    if _ENCODING is None:
        _ENCODING = {"<pad>": 0}
    return _ENCODING
