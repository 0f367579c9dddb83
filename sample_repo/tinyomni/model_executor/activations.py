"""Activation functions by name, and a sibling table of their cost keyed by the same names."""

import torch


def gelu(x):
    return x * torch.sigmoid(1.702 * x)


def silu(x):
    return x * torch.sigmoid(x)


def relu_squared(x):
    return x * x


ACTIVATIONS = {
    "gelu": gelu,
    "silu": silu,
    "relu_squared": relu_squared,
}

ACTIVATION_FLOPS = {
    "gelu": 8,
    "silu": 4,
    "relu_squared": 2,
}


def activation_for(model_config):
    return ACTIVATIONS[model_config.hidden_act]


def default_activation():
    return ACTIVATIONS["gelu"]
