"""Copies, moves and conversions that look redundant but are needed: none is reported."""

import numpy as np
import torch
import torch.distributed as dist
from safetensors.torch import save_file


class Runner:
    def __init__(self) -> None:
        self.static_out = torch.zeros(8)
        self.cache: dict[str, torch.Tensor] = {}

    def graph_output(self) -> torch.Tensor:
        # The CUDA-graph output buffer is overwritten by the next replay.
        return self.static_out.clone()

    def cached(self, key: str, n: int) -> torch.Tensor:
        buffer = torch.zeros(n)
        self.cache[key] = buffer
        return buffer.clone()  # the cache keeps `buffer`: the caller gets its own copy


def clone_before_in_place(x: torch.Tensor, device: torch.device) -> torch.Tensor:
    moved = x.to(device).clone()  # `.to()` returns `x` itself when it is already there
    moved.mul_(2)
    return moved


def clone_kept_apart(a: torch.Tensor):
    base = torch.zeros_like(a)
    copy = base.clone()
    copy.add_(1)
    return base, copy


def clone_per_iteration(n: int):
    template = torch.zeros(n)
    rows = []
    for i in range(n):
        row = template.clone()
        row[i] = 1
        rows.append(row)
    return rows


def rounding(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.bfloat16).to(torch.float32)


def cast_before_the_copy(x: torch.Tensor, device: torch.device):
    # Cast on the host first: the narrower dtype crosses the bus (and `non_blocking` stays).
    return x.to(torch.float16).to(device), x.to(torch.int32).to("cuda", non_blocking=True)


def copy_then_blocking_cast(x: torch.Tensor, device: torch.device) -> torch.Tensor:
    # A merged blocking `.to(device, dtype)` would convert on the host: more bytes for a wider dtype.
    return x.to(device).to(torch.float32)


def contiguous_where_needed(x: torch.Tensor, session) -> None:
    dist.all_reduce(x.transpose(0, 1).contiguous())
    raw = x.t().contiguous().view(torch.uint8)
    save_file({"weight": x.t().contiguous()}, "w.safetensors")
    session.run(None, {"input": x.contiguous().numpy()})
    print(raw)


def host_copies_needed(x: torch.Tensor, device: torch.device):
    pinned = x.cpu().pin_memory().to(device, non_blocking=True)
    spectrum = torch.from_numpy(np.fft.rfft(x.cpu().numpy())).to(device)
    return pinned, spectrum


def object_transport(obj, group) -> torch.Tensor:
    import pickle

    payload = torch.frombuffer(pickle.dumps(obj), dtype=torch.uint8)
    dist.broadcast(payload, src=0, group=group)
    return payload


def host_named(positions_cpu: torch.Tensor, seq_lens_cpu: torch.Tensor):
    on_device = positions_cpu.cpu().cuda()
    longest = seq_lens_cpu.max().item()
    if seq_lens_cpu.max().item() > 4:
        longest += 1
    return on_device, longest


def documented(x: torch.Tensor):
    return x.cpu().cuda()  # round trip through host: the NPU kernel needs a fresh allocation


def reread_after_write(x: torch.Tensor):
    before = x.sum().item()
    x.add_(1)
    after = x.sum().item()
    return before, after


def random_values(n: int, device: torch.device):
    noise = torch.randn(n).to(device)  # CPU generator on purpose: same noise on every device
    return noise, torch.rand(1).item(), torch.rand(1).item()


def branches(x: torch.Tensor, flag: bool):
    if flag:
        value = x.item()
    else:
        value = -x.item()
    return value


def host_reads_that_differ(metrics: dict, lens: torch.Tensor, batch: torch.Tensor, device: torch.device):
    logged = {key: value.item() for key, value in metrics.items()}  # a different tensor each time
    for i in range(lens.numel()):
        lens[i] = lens[i].item() + 1  # the loop writes what it reads: no list taken before it stays true
    staged = batch.cpu().pin_memory().to(device, non_blocking=True)  # `batch` is on the host: one pinned copy
    return logged, staged
