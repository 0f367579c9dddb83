"""Samplers the user picks with --sampler; every key is a CLI choice."""


def greedy(logits):
    return logits.argmax(-1)


def top_k(logits, k: int = 20):
    return logits.topk(k).indices[..., 0]


def min_p(logits, p: float = 0.05):
    return logits.argmax(-1)


SAMPLERS = {
    "greedy": greedy,
    "top-k": top_k,
    "min-p": min_p,
}
