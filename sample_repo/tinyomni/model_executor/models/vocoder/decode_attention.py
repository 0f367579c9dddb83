"""Decode attention in two kernel stages (each model package ships its own stage kernels)."""


def decode_attention(q, k, v, lengths, out):
    from .stage1 import decode_stage1
    from .stage2 import decode_stage2

    partial = q.new_empty(q.shape[0], 8, q.shape[-1])
    decode_stage1(q, k, v, lengths, partial)
    decode_stage2(partial, lengths, out)
    out = out.contiguous()
    return out
