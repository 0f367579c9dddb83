"""First decode stage of the vocoder: any head size, padded to a power of two."""


def decode_stage1(q, k, v, lengths, partial):
    padded = 1 << (q.shape[-1] - 1).bit_length()
    scores = (q.unsqueeze(1) * k[:, : partial.shape[1]])[..., :padded]
    partial.copy_(scores.softmax(-1))
    return partial
