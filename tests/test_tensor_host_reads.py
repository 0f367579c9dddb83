"""Host reads one call does already (`tensors.host_reads`) and factories cast after the fact, on real pylint runs.

Each candidate sits beside the trap that looks like it: a loop over a list of tensors,
a dict of metrics read one by one, a loop that writes the tensor it reads, a copy
into pinned memory from a tensor already named a host copy.
"""

from __future__ import annotations


import pytest

from conftest import Finding, enable_args, run_pylint, write_tree

OPS = '''\
import torch


def lengths_in_a_loop(mask: torch.Tensor, values, n):
    lens = mask.sum(dim=1)
    rows = []
    for i in range(n):
        rows.append(values[: lens[i]])
    return rows


def zipped_offsets(lens: torch.Tensor, values):
    offsets = lens.cumsum(dim=0)
    return [values[o - n: o] for n, o in zip(lens, offsets)]


def trimmed_rows(input_ids: torch.Tensor, prompt_mask: torch.Tensor):
    prompt_lengths = prompt_mask.sum(dim=1)
    kept = []
    for row, prompt_length in zip(input_ids, prompt_lengths):
        kept.append(row[: int(prompt_length.item())])
    return kept


def items_of_a_host_copy(timings):
    reduced = torch.tensor(timings, dtype=torch.float32)
    return [t.item() for t in reduced.to("cpu")]


def read_after_host_copy(loss: torch.Tensor):
    return loss.mean().cpu().item()


def ratio_after_host_copy(a: torch.Tensor, b: torch.Tensor):
    return (a / (b + 1e-8)).cpu().item()


def list_after_host_copy(scores: torch.Tensor):
    return scores.cpu().tolist()


def restore(buffer: torch.Tensor, saved: torch.Tensor):
    buffer.copy_(saved.to(buffer.device, non_blocking=True))


def restore_through_local(buffer: torch.Tensor, saved: torch.Tensor):
    on_device = saved.to(buffer.device)
    buffer.copy_(on_device)


def snapshot(param: torch.Tensor):
    return param.cpu().clone().pin_memory()


def offload(param: torch.Tensor):
    return param.cpu().pin_memory()


def routing(logits: torch.Tensor, top):
    return torch.zeros_like(logits).int().scatter(1, top, 1)


def counted(numel, device):
    return torch.tensor([numel]).to(device)


def joined(parts):
    return torch.cat(parts, dim=0).contiguous()


def metrics_one_by_one(metrics: dict):
    return {key: value.item() for key, value in metrics.items()}


def list_of_tensors():
    parts = [torch.ones(1), torch.zeros(1)]
    return [p.item() for p in parts]


def written_while_read(lens: torch.Tensor, n):
    for i in range(n):
        lens[i] = lens[i].item() + 1
    return lens


def pinned_from_host(weights_cpu):
    return weights_cpu.cpu().pin_memory()


def staged_upload(batch, device):
    return batch.cpu().pin_memory().to(device, non_blocking=True)


def round_in_place(weights: torch.Tensor):
    weights.copy_(weights.to(torch.bfloat16))


def async_upload(ids, device):
    return torch.tensor(ids, dtype=torch.int64, pin_memory=True).to(device, non_blocking=True)


def cast_adapter(model):
    model.to(model.dtype)


def health_probe():
    torch.zeros((2, 2)).cuda()


def kept_local(buffer: torch.Tensor, saved: torch.Tensor):
    on_device = saved.to(buffer.device)
    buffer.copy_(on_device)
    return on_device.sum()
'''


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> list[Finding]:
    root = write_tree(tmp_path_factory.mktemp("host-reads"), {
        "pyproject.toml": "[project]\nname = 'host-reads'\n",
        "pkg/__init__.py": "",
        "pkg/ops.py": OPS,
    })
    _, found, stderr = run_pylint([*enable_args(["redundant-tensor-materialization"]), "pkg"], cwd=root,
                                  cache_dir=tmp_path_factory.mktemp("cache"))
    assert "Traceback" not in stderr, stderr
    return found


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(OPS.splitlines(), start=1) if text in line)


def at(findings: list[Finding], text: str) -> Finding | None:
    return next((f for f in findings if f.line == line_of(text)), None)


def test_each_candidate_is_found_with_its_confidence(findings: list[Finding]) -> None:
    expected = {
        "rows.append(values[: lens[i]])": "INFERENCE",  # `lens` is a tensor by `dim=` and an annotation only
        "return [values[o - n: o]": "INFERENCE",
        "return [t.item() for t in": "HIGH",
        "loss.mean().cpu().item()": "HIGH",
        "buffer.copy_(saved.to(buffer.device, non_blocking=True))": "HIGH",
        "    buffer.copy_(on_device)": "HIGH",
        "param.cpu().clone().pin_memory()": "HIGH",
        "return param.cpu().pin_memory()": "INFERENCE",  # one copy only when `param` is already on the host
        "torch.zeros_like(logits).int()": "HIGH",
        "torch.tensor([numel]).to(device)": "INFERENCE",  # `device` is a device by its name only
        "torch.cat(parts, dim=0).contiguous()": "INFERENCE",  # channels_last inputs keep their format
    }
    got = {text: (at(findings, text).confidence if at(findings, text) else None) for text in expected}
    assert got == expected


def test_traps_stay_silent(findings: list[Finding]) -> None:
    for text in ("value.item() for key, value", "return [p.item() for p in parts]", "lens[i] = lens[i].item() + 1",
                 "weights_cpu.cpu().pin_memory()", "batch.cpu().pin_memory().to(device",
                 "torch.zeros((2, 2)).cuda()", "weights.copy_(weights.to(torch.bfloat16))",
                 "torch.tensor(ids, dtype=torch.int64, pin_memory=True)", "model.to(model.dtype)",
                 # `.tolist()` of a device tensor copies into a host tensor of its own: a `.cpu()` before it saves nothing
                 "scores.cpu().tolist()"):
        assert at(findings, text) is None, text
    kept = line_of("def kept_local") + 2
    assert not [f for f in findings if f.line == kept], "a moved source read again after the copy is not redundant"


def test_fixes_name_the_one_call_that_remains(findings: list[Finding]) -> None:
    zipped = at(findings, "kept.append(row[: int(prompt_length.item())])")
    assert "`prompt_lengths.tolist()`" in zipped.message, zipped  # the zipped tensor whose element is read
    assert "`loss.mean().item()`" in at(findings, "loss.mean().cpu().item()").message
    assert "`(a / (b + 1e-08)).item()`" in at(findings, "(a / (b + 1e-8)).cpu().item()").message
    assert "`buffer.copy_(saved, non_blocking=True)`" in at(findings, "buffer.copy_(saved.to(").message
    assert "`param.cpu().pin_memory()` already returns new pinned storage" in at(findings, "param.cpu().clone()").message
    loop = at(findings, "rows.append(values[: lens[i]])")
    assert "`lens.tolist()`" in loop.message and "one element at a time" in loop.message
    assert "pass `dtype=` to `torch.zeros_like(...)`" in at(findings, "torch.zeros_like(logits).int()").message
