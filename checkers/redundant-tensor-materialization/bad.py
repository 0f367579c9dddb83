"""Each annotated line materializes, moves or converts a tensor once more than needed."""

import torch


def rebuilt_from_a_list(logits: torch.Tensor):
    ids = torch.argmax(logits, dim=-1)
    return torch.tensor(ids.tolist())  # [redundant-tensor-materialization]


def rebuilt_from_numpy(logits: torch.Tensor):
    ids = torch.argmax(logits, dim=-1)
    return torch.tensor(ids.cpu().numpy())  # [redundant-tensor-materialization]


def back_to_the_device(logits: torch.Tensor, device: torch.device):
    ids = torch.argmax(logits, dim=-1)
    return torch.from_numpy(ids.cpu().numpy()).to(device)  # [redundant-tensor-materialization]


def device_round_trips(logits: torch.Tensor, device: torch.device):
    ids = torch.argmax(logits, dim=-1)
    moved = ids.cpu().cuda()  # [redundant-tensor-materialization]
    return moved, ids.to("cpu").to(device)  # same pattern, same function: named in the finding above


def through_a_local(scores: torch.Tensor):
    ranks = scores.argsort().tolist()
    return torch.tensor(ranks)  # [redundant-tensor-materialization]


def copy_of_a_tensor():
    mask = torch.ones(8, dtype=torch.bool)
    return torch.tensor(mask)  # [redundant-tensor-materialization]


def fresh_clones(a: torch.Tensor, b: torch.Tensor):
    joined = torch.cat([a, b]).clone()  # [redundant-tensor-materialization]
    summed = (a + b).clone()  # [redundant-tensor-materialization]
    return joined, summed


def clone_through_a_local(a: torch.Tensor, b: torch.Tensor):
    stacked = torch.stack([a, b])
    return stacked.clone()  # [redundant-tensor-materialization]


def no_op_conversions(hidden: torch.Tensor):
    zeros = torch.zeros_like(hidden).to(hidden.device)  # [redundant-tensor-materialization]
    same = hidden.detach().clone().to(hidden.device)  # same pattern: named in the finding above
    return zeros, same


def no_op_first_step(x: torch.Tensor, dtype: torch.dtype):
    return x.to(x.device).to(dtype)  # [redundant-tensor-materialization]


def async_copy_then_cast(x: torch.Tensor, device: torch.device):
    return x.to(device, non_blocking=True).to(torch.float16)  # [redundant-tensor-materialization]


def factories_converted_after(hidden: torch.Tensor):
    late = torch.zeros(4, 4).to(hidden.device)  # [redundant-tensor-materialization]
    typed = torch.ones(4).to(torch.bfloat16)  # [redundant-tensor-materialization]
    return late, typed


def new_tensor_made_contiguous():
    return torch.empty(4, 4).contiguous()  # [redundant-tensor-materialization]


def repeated_host_copies(lengths: torch.Tensor):
    total = torch.sum(lengths)
    if total.item() > 0:
        print("tokens:", total.item())  # [redundant-tensor-materialization]
    starts = lengths.cumsum(0)
    first = starts.tolist()
    for i in range(3):
        print(i, starts.tolist())  # [redundant-tensor-materialization]
    return first


def lengths_read_one_by_one(mask: torch.Tensor, values: torch.Tensor):
    lens = mask.sum(dim=1)
    rows = []
    for i in range(lens.numel()):
        rows.append(values[i, : lens[i].item()])  # [redundant-tensor-materialization]
    return rows


def host_reads_one_call_does(loss: torch.Tensor, buffer: torch.Tensor, saved: torch.Tensor):
    value = loss.mean().cpu().item()  # [redundant-tensor-materialization]
    buffer.copy_(saved.to(buffer.device))  # [redundant-tensor-materialization]
    snapshot = buffer.clone().pin_memory()  # [redundant-tensor-materialization]
    mask = torch.zeros_like(buffer).bool()  # [redundant-tensor-materialization]
    return value, snapshot, mask
