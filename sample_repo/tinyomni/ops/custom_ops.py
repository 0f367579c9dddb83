"""Custom ops: the framework exposes each as `torch.ops.<namespace>.<name>`."""

import torch

from tinyupstream.ops import direct_register_custom_op


def _fused_add_norm(x, residual):
    return x + residual


def _rotary_fused(q, k):
    return q, k


def _rms_norm_legacy(x):
    return x


direct_register_custom_op(op_name="fused_add_norm", op_func=_fused_add_norm)
direct_register_custom_op(op_name="rotary_fused", op_func=_rotary_fused)
direct_register_custom_op(op_name="rms_norm_legacy", op_func=_rms_norm_legacy)


def apply_rotary(q, k):
    return torch.ops.tinyomni.rotary_fused(q, k)
