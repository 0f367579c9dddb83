"""Hadamard rotation matrices for the rotated KV-cache quantisation, built once per size and dtype."""

from __future__ import annotations

import math

import torch

_HADAMARD_TABLES: dict = {}


def hadamard_matrix(size: int, dtype: torch.dtype) -> torch.Tensor:
    key = (size, dtype)
    if key in _HADAMARD_TABLES:
        return _HADAMARD_TABLES[key]
    matrix = torch.ones(1, 1)
    while matrix.shape[0] < size:
        matrix = torch.cat([torch.cat([matrix, matrix], 1), torch.cat([matrix, -matrix], 1)], 0)
    table = (matrix / math.sqrt(size)).to(dtype)
    _HADAMARD_TABLES[key] = table
    return table


class RotationCache:
    """Trap: a per-instance cache in a method; `functools.cache` would share it across instances."""

    def __init__(self) -> None:
        self._tables: dict = {}

    def rotation(self, size: int) -> torch.Tensor:
        if size in self._tables:
            return self._tables[size]
        table = hadamard_matrix(size, torch.float32)
        self._tables[size] = table
        return table
