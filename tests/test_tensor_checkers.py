"""`redundant-tensor-materialization` and `redundant-payload-conversion` on real pylint runs.

The catalogue tests (test_catalogue.py) check where bad.py fires and that good.py is
silent; these check what the catalogue cannot: confidence levels, the message text,
rejection by a comment, validation paths, import resolution, alias tracking,
`# pylint: disable=` and `-j 2`.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import Finding, enable_args, run_pylint

SYMBOLS = ["redundant-tensor-materialization", "redundant-payload-conversion"]

OPS = '''\
import pickle

import torch
import torch as th
import triton.language as tl


def proven(logits):
    ids = th.argmax(logits, dim=-1)
    return torch.tensor(ids.tolist())


def heuristic(hidden: torch.Tensor, target_dtype):
    return hidden.to(target_dtype).to(hidden.device)


def round_trip(x):
    return x.cpu().cuda()


def cast_then_async_copy(x):
    return x.to(torch.int32).to("cuda", non_blocking=True)


def async_copy_then_cast(x):
    return x.to("cuda", non_blocking=True).to(torch.float16)


def three_siblings(a, b, c):
    first = torch.zeros_like(a).to(a.device)
    second = torch.zeros_like(b).to(b.device)
    third = torch.zeros_like(c).to(c.device)
    return first, second, third


def explained(x):
    return x.cpu().cuda()  # sync on purpose: the kernel reads host memory


def silenced(x):
    return x.cpu().cuda()  # pylint: disable=redundant-tensor-materialization


def triton_kernel(u):
    return tl.zeros_like(u).to(tl.uint8)


def alias_written(x: torch.Tensor):
    flat = x.view(-1)
    first = x.item()
    flat.add_(1)
    return first, x.item()


def callee_may_write(x: torch.Tensor, step):
    first = x.item()
    step(x)
    return first, x.item()


def self_may_write(self, x: torch.Tensor):
    first = x.tolist()
    self.refresh()
    return first, x.tolist()


def pickled_twice(output, sock):
    size = len(pickle.dumps(output))
    sock.send(pickle.dumps(output))
    return size


def deep_copy(request):
    return pickle.loads(pickle.dumps(request))


def unpack_reference(weight):
    """Test function to check the packing; not used in inference."""
    return torch.zeros(4, 4).to(weight.device)


def host_lengths(lengths):
    """Built on the host already: `.to("cpu")` copies nothing (judged wrong on OpenRLHF)."""
    kept = torch.tensor(lengths).to("cpu")
    return kept
'''

TEST_FILE = '''\
import torch


def test_round_trip():
    x = torch.zeros(3)
    assert torch.equal(torch.tensor(x.tolist()), x)
'''


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tensor-project")
    (root / "pyproject.toml").write_text("[project]\nname = 'tensor-case'\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "ops.py").write_text(textwrap.dedent(OPS))
    (root / "tests").mkdir()
    (root / "tests" / "test_ops.py").write_text(TEST_FILE)
    return root


def lint(project: Path, cache: Path, *extra: str) -> list[Finding]:
    _, findings, stderr = run_pylint([*enable_args(SYMBOLS), *extra, "pkg", "tests"], cwd=project, cache_dir=cache)
    assert "Traceback" not in stderr, stderr
    return findings


def line_of(text: str) -> int:
    return next(i for i, line in enumerate(OPS.splitlines(), start=1) if text in line)


@pytest.fixture(scope="module")
def default_run(project: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Finding]:
    return lint(project, tmp_path_factory.mktemp("cache"))


def test_exact_findings_and_confidence(default_run: list[Finding]) -> None:
    got = {(f.path, f.line, f.symbol, f.confidence) for f in default_run}
    tensor, payload = SYMBOLS
    assert got == {
        ("pkg/ops.py", line_of("torch.tensor(ids.tolist())"), tensor, "HIGH"),
        ("pkg/ops.py", line_of("hidden.to(target_dtype)"), tensor, "INFERENCE"),
        ("pkg/ops.py", line_of("def round_trip") + 1, tensor, "HIGH"),
        ("pkg/ops.py", line_of("def async_copy_then_cast") + 1, tensor, "HIGH"),
        ("pkg/ops.py", line_of("torch.zeros_like(a)"), tensor, "HIGH"),
        ("pkg/ops.py", line_of("sock.send(pickle.dumps(output))"), payload, "HIGH"),
        ("pkg/ops.py", line_of("pickle.loads(pickle.dumps(request))"), payload, "INFERENCE"),
    }


def test_message_names_the_copy_the_fix_and_the_proof(default_run: list[Finding]) -> None:
    """The transitions counted live in the report (`proof`); the message keeps the copy, the fix, the proof."""
    round_trip = next(f for f in default_run if f.line == line_of("def round_trip") + 1)
    assert round_trip.message.startswith("[high] `x.cpu().cuda()` moves a tensor to the host and straight back; move it once: `x.cuda()`")
    assert "in one expression" in round_trip.message
    # The receiver already is on `hidden.device`: drop the no-op, do not merge.
    medium = next(f for f in default_run if f.confidence == "INFERENCE" and "target_dtype" in f.message)
    assert "drop the no-op `.to(hidden.device)`" in medium.message and ".to(hidden.device, " not in medium.message
    twice = next(f for f in default_run if f.symbol == "redundant-payload-conversion" and f.confidence == "HIGH")
    assert f"first at line {line_of('size = len(pickle.dumps(output))')}" in twice.message


def test_rewrites_keep_non_blocking_and_cast_before_copy_is_intended(default_run: list[Finding]) -> None:
    """`x.to(torch.int32).to("cuda", non_blocking=True)` never becomes `x.to("cuda", torch.int32)`: casting on
    the host first moves the narrower dtype, so that order is left alone; a merge keeps `non_blocking=True`."""
    assert not [f for f in default_run if f.line == line_of("def cast_then_async_copy") + 1]
    assert not [f for f in default_run if 'x.to("cuda", torch.int32)' in f.message or "x.to('cuda', torch.int32)" in f.message]
    merged = next(f for f in default_run if f.line == line_of("def async_copy_then_cast") + 1)
    assert "x.to('cuda', torch.float16, non_blocking=True)" in merged.message


def test_identical_sibling_lines_are_one_finding(default_run: list[Finding]) -> None:
    siblings = [f for f in default_run if line_of("torch.zeros_like(a)") <= f.line <= line_of("torch.zeros_like(c)")]
    assert len(siblings) == 1
    assert f"also lines {line_of('torch.zeros_like(b)')}, {line_of('torch.zeros_like(c)')}" in siblings[0].message


def test_messages_stay_short(default_run: list[Finding]) -> None:
    assert all(len(f.message) <= 260 for f in default_run), [len(f.message) for f in default_run]


def test_comment_rejects_and_report_lists_it(project: Path, tmp_path: Path, default_run: list[Finding]) -> None:
    explained = line_of("sync on purpose")
    assert all(f.line != explained for f in default_run)
    with_rejected = lint(project, tmp_path, "--omni-include-rejected=y")
    rejected = [f for f in with_rejected if f.line == explained]
    assert len(rejected) == 1
    assert "rejected: a comment on the line explains it" in rejected[0].message
    assert all(f.line != line_of("pylint: disable=redundant") for f in with_rejected)


def test_validation_files_are_not_audited(default_run: list[Finding]) -> None:
    assert not [f for f in default_run if f.path.startswith("tests/")]
    assert not [f for f in default_run if f.line == line_of("def unpack_reference") + 2]  # a docstring says: test code


def test_same_findings_with_two_jobs(project: Path, tmp_path: Path, default_run: list[Finding]) -> None:
    assert lint(project, tmp_path, "-j", "2") == default_run


def lint_module(tmp_path: Path, source: str, *extra: str) -> list[Finding]:
    """The family's findings on a project of one module, `pkg/mod.py`."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "mod.py").write_text(source)
    _, found, stderr = run_pylint([*enable_args(SYMBOLS), *extra, "pkg"], cwd=root, cache_dir=tmp_path / "c")
    assert "Traceback" not in stderr, stderr
    return found


def test_host_data_moved_to_the_device_spares_only_a_call(tmp_path: Path) -> None:
    """`torch.tensor(margin).to(device)` (OpenRLHF, CosyVoice: judged noise four times): `torch.tensor(data, device=...)`
    still builds on the host and copies, so only a call goes. Medium, saying so, and no claim that values may differ;
    a shape factory moved after the fact (`torch.zeros(n).to(device)`) saves a host allocation and copy: high."""
    found = lint_module(tmp_path, (
        "import torch\n\n\ndef margins(margin: list, device: torch.device):\n    kept = torch.tensor(margin).to(device)\n"
        "    return kept\n\n\ndef buffer(n: int, device: torch.device):\n    made = torch.zeros(n).to(device)\n    return made\n"
    ))
    by_line = {f.line: f for f in found if f.symbol == SYMBOLS[0]}
    assert by_line[5].confidence == "INFERENCE" and "host→device copy stays" in by_line[5].message, by_line
    assert by_line[10].confidence == "HIGH", by_line


def test_a_factory_cast_then_moved_takes_both_and_a_float_of_the_default_dtype_is_no_cast(tmp_path: Path) -> None:
    """GPT-NeoX: `torch.ones([b]).long().cuda()` builds on the host in float32, casts, then copies to the device: the
    fix passes `dtype=` and `device=` (not `dtype=` alone); `torch.empty(n, v).float().cuda()`: `.float()` of the
    default dtype returns the tensor unchanged, so only `device=` saves anything, and without the move nothing does."""
    found = lint_module(tmp_path, (
        "import torch\n\n\ndef start(b, n, v):\n    done = torch.zeros([b]).byte().cuda()\n"
        "    logits = torch.empty(n, v).float().cuda()\n    plain = torch.ones([b]).long()\n"
        "    kept = torch.empty(n).float()\n    return done, logits, plain, kept\n"
    ), "--omni-granularity=member")
    by_line = {f.line: f.message for f in found if f.symbol == SYMBOLS[0]}
    assert sorted(by_line) == [5, 6, 7], by_line
    assert "pass `dtype=` and `device=` to `torch.zeros(...)`" in by_line[5], by_line
    assert "pass `device=` to `torch.empty(...)`" in by_line[6] and "dtype" not in by_line[6], by_line
    assert "pass `dtype=` to `torch.ones(...)`" in by_line[7], by_line


def test_an_arange_cast_then_moved_keeps_its_cast_and_takes_the_device(tmp_path: Path) -> None:
    """A rotary table's `torch.arange(0, dim, 2).float().to(device)`: the cast stays where it is (an arange in another
    dtype accumulates differently), and the move goes into the factory: `device=`, not `dtype=`."""
    found = lint_module(tmp_path, (
        "import torch\n\n\ndef table(dim, device):\n    inv = 1.0 / (10000 ** (torch.arange(0, dim, 2).float().to(device) / dim))\n"
        "    return inv\n"
    ), "--omni-granularity=member")
    [message] = [f.message for f in found if f.symbol == SYMBOLS[0]]
    assert "pass `device=` to `torch.arange(...)`" in message and "dtype=" not in message, message
