"""Each annotated line materializes, moves or converts a tensor once more than needed."""

import torch


def round_trips(logits: torch.Tensor, device: torch.device):
    ids = torch.argmax(logits, dim=-1)
    again = torch.tensor(ids.tolist())  # [redundant-tensor-materialization]
    host = torch.tensor(ids.cpu().numpy())  # [redundant-tensor-materialization]
    back = torch.from_numpy(ids.cpu().numpy()).to(device)  # [redundant-tensor-materialization]
    moved = ids.cpu().cuda()  # [redundant-tensor-materialization]
    hop = ids.to("cpu").to(device)  # [redundant-tensor-materialization]
    return again, host, back, moved, hop


def through_a_local(scores: torch.Tensor):
    ranks = scores.argsort().tolist()
    return torch.tensor(ranks)  # [redundant-tensor-materialization]


def copy_of_a_tensor():
    mask = torch.ones(8, dtype=torch.bool)
    return torch.tensor(mask)  # [redundant-tensor-materialization]


def fresh_clones(a: torch.Tensor, b: torch.Tensor):
    joined = torch.cat([a, b]).clone()  # [redundant-tensor-materialization]
    summed = (a + b).clone()  # [redundant-tensor-materialization]
    stacked = torch.stack([a, b])
    return joined, summed, stacked.clone()  # [redundant-tensor-materialization]


def chained_conversions(x: torch.Tensor, hidden: torch.Tensor):
    merged = x.to(torch.float16).to(hidden.device)  # [redundant-tensor-materialization]
    zeros = torch.zeros_like(hidden).to(hidden.device)  # [redundant-tensor-materialization]
    same = hidden.detach().clone().to(hidden.device)  # [redundant-tensor-materialization]
    late = torch.zeros(4, 4).to(hidden.device)  # [redundant-tensor-materialization]
    typed = torch.ones(4).to(torch.bfloat16)  # [redundant-tensor-materialization]
    layout = torch.empty(4, 4).contiguous()  # [redundant-tensor-materialization]
    return merged, zeros, same, late, typed, layout


def repeated_host_copies(lengths: torch.Tensor):
    total = torch.sum(lengths)
    if total.item() > 0:
        print("tokens:", total.item())  # [redundant-tensor-materialization]
    starts = lengths.cumsum(0)
    first = starts.tolist()
    for i in range(3):
        print(i, starts.tolist())  # [redundant-tensor-materialization]
    return first
