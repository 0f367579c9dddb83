"""Look-alikes that must stay apart: model math, sibling operations, stubs, tiny bodies."""

import torch
import torch.nn.functional as F
from torch import distributed as dist


class TalkerMLP(torch.nn.Module):
    def __init__(self, hidden_size, intermediate_size):
        super().__init__()
        self.gate_up = torch.nn.Linear(hidden_size, 2 * intermediate_size)
        self.down = torch.nn.Linear(intermediate_size, hidden_size)
        self.intermediate_size = intermediate_size

    def forward(self, x):
        gate, up = self.gate_up(x).split(self.intermediate_size, dim=-1)
        return self.down(F.silu(gate) * up)


class VocoderMLP(torch.nn.Module):
    """Same shape as the talker's, but the checkpoint was trained with GELU."""

    def __init__(self, hidden_size, intermediate_size):
        super().__init__()
        self.gate_up = torch.nn.Linear(hidden_size, 2 * intermediate_size)
        self.down = torch.nn.Linear(intermediate_size, hidden_size)
        self.intermediate_size = intermediate_size

    def forward(self, x):
        gate, up = self.gate_up(x).split(self.intermediate_size, dim=-1)
        return self.down(F.gelu(gate) * up)


def broadcast_tensor(group, tensor, src=0):
    if group is None or dist.get_world_size(group) == 1:
        return tensor
    rank = dist.get_rank(group)
    if rank == src:
        tensor = tensor.contiguous()
    dist.broadcast(tensor, src=src, group=group)
    return tensor


def broadcast_objects(group, objects, src=0):
    if group is None or dist.get_world_size(group) == 1:
        return objects
    rank = dist.get_rank(group)
    if rank == src:
        objects = list(objects)
    dist.broadcast_object_list(objects, src=src, group=group)
    return objects


class MooncakeTransport:
    def __init__(self, **config):
        self.config = config

    def put(self, key, payload):
        raise RuntimeError("transport not available")

    def get(self, key):
        raise RuntimeError("transport not available")


class ZmqTransport:
    def __init__(self, **config):
        self.config = config

    def put(self, key, payload):
        raise RuntimeError("transport not available")

    def get(self, key):
        raise RuntimeError("transport not available")


def request_label(prefix, number):
    label = f"{prefix}-{number}"
    return label.lower()


def transfer_label(prefix, number):
    label = f"{prefix}-{number}"
    return label.lower()
