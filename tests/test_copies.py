"""`duplicated-implementation`: fingerprints, copy groups across files, the drift, the traps, the cache.

Fingerprint tests call the scanner on source text; the others lint small temporary
projects with real pylint runs.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import Finding, enable_args, run_pylint
from pylint_omni.copies.fingerprints import fingerprint_source

SYMBOL = "duplicated-implementation"


def unit_hash(source: str, name: str, module: str = "pkg.mod") -> str:
    fact = fingerprint_source(textwrap.dedent(source), module)
    return next(str(u[6]) for u in fact["units"] if u[1] == name)


MLP = '''
    import torch.nn.functional as F
    from torch import nn


    def {name}(self, x):
        """{doc}"""
        {g}, {u} = self.gate_up(x).split(self.size, dim=-1)  # {comment}
        y = F.{act}({g}) * {u}
        y = self.down(y)
        y = y * self.scale
        return y
'''


def mlp(name: str = "mlp", act: str = "silu", doc: str = "", comment: str = "", g: str = "gate", u: str = "up") -> str:
    return MLP.format(name=name, act=act, doc=doc, comment=comment, g=g, u=u)


def test_locals_docstrings_and_comments_do_not_count() -> None:
    first = unit_hash(mlp("a", doc="one", comment="x"), "a")
    assert unit_hash(mlp("b", doc="two", comment="y", g="left", u="right"), "b") == first


def test_callees_attributes_and_constants_count() -> None:
    assert unit_hash(mlp("a", act="gelu"), "a") != unit_hash(mlp("a"), "a")
    layer = "def build(n):\n    a = {cls}(n, n)\n    b = a.weight\n    c = b * 2\n    d = c + 1\n    return d\n"
    column = unit_hash("from vllm.layers import ColumnParallelLinear\n" + layer.format(cls="ColumnParallelLinear"), "build")
    linear = unit_hash("from torch import nn\n" + layer.format(cls="nn.Linear"), "build")
    assert column != linear
    assert unit_hash(layer.format(cls="nn.Linear").replace("* 2", "* 3"), "build") != unit_hash(layer.format(cls="nn.Linear"), "build")


def test_imports_resolve_aliases_but_keep_whose_object_it_is() -> None:
    body = "def norm(x, w):\n    y = {f}(x, w)\n    y = y * 2\n    y = y + 1\n    y = y.float()\n    return y\n"
    cuda = unit_hash("from kernels.cuda import rms_norm\n" + body.format(f="rms_norm"), "norm")
    alias = unit_hash("from kernels.cuda import rms_norm as rn\n" + body.format(f="rn"), "norm")
    npu = unit_hash("from kernels.npu import rms_norm\n" + body.format(f="rms_norm"), "norm")
    assert cuda == alias
    assert cuda != npu  # a backend's own kernel is not the other backend's


def write_project(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'copies-case'\n")
    for relpath, text in files.items():
        target = root / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))


CONFIDENCE_TAG = re.compile(r"^\[(?:high|medium|rejected)\] ")

def lint(root: Path, cache_dir: Path, *extra: str) -> list[Finding]:
    """The family's findings, their messages without the confidence tag pylint's printed line starts with."""
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), *extra, "pkg"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return [replace(f, message=CONFIDENCE_TAG.sub("", f.message)) for f in findings if f.symbol == SYMBOL]


STEP = '''
    import logging

    logger = logging.getLogger(__name__)


    def {name}(states, sampled, eos_id):
        finished = []
        for request_id, token in sampled.items():
            state = states[request_id]
            state.output_ids.append(token)
            {extra}
            if token == eos_id:
                finished.append(request_id)
                logger.info("{log} %s finished", request_id)
        return finished
'''
PLACEHOLDERS = "state.num_placeholders = max(0, state.num_placeholders - 1)"


def test_three_copies_are_one_finding_at_the_first_copy_after_the_kept_one(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
        "pkg/b.py": STEP.format(name="apply_b", extra=PLACEHOLDERS, log="[b]"),
        "pkg/c.py": STEP.format(name="apply_c", extra=PLACEHOLDERS, log="[a]"),
    })
    [found] = lint(tmp_path, cache_dir)  # c.py is the same text as a.py: first after it in the group
    assert (found.path, found.line, found.confidence) == ("pkg/c.py", 7, "HIGH")
    assert found.message == ("apply_c() and apply_b() (pkg/b.py) repeat apply() (pkg/a.py:7); keep apply() and call it "
                             "from the 2 copies (3 copies; identical after renaming locals; 20 lines go).")
    # One message per copy on request, each with the id it has as a member of the group's finding.
    per_copy = lint(tmp_path, cache_dir, "--omni-granularity=member")
    assert [(f.path, f.confidence) for f in per_copy] == [("pkg/b.py", "HIGH"), ("pkg/c.py", "HIGH")]
    assert "differs only in log or error text" in per_copy[0].message
    assert "identical after renaming locals" in per_copy[1].message
    group = audit(tmp_path, cache_dir)["pkg/c.py:7"]
    alone = audit(tmp_path, cache_dir, "--omni-granularity=member")
    assert [(m["path"], m["id"], m["what"]) for m in group["members"]] == [
        (f["path"], f["id"], f["message"]) for f in (alone["pkg/c.py:7"], alone["pkg/b.py:7"])]
    assert group["benefit_lines"] == sum(f["benefit_lines"] for f in alone.values()) == 20


def test_a_drifted_copy_is_medium_and_names_the_drift(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/engine.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[sync]"),
        "pkg/async_engine.py": STEP.format(name="apply_async", extra="", log="[sync]"),
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE"
    assert "num_placeholders" in found.message and "drift" in found.message


BACKEND = '''
    import torch


    def bind_device(rank, fraction):
        device = torch.device(f"{vendor}:{{rank}}")
        torch.{vendor}.set_device(device)
        torch.{vendor}.empty_cache()
        free, total = torch.{vendor}.mem_get_info()
        budget = int(total * fraction)
        if free < budget:
            raise RuntimeError("not enough memory")
        return device
'''


def test_backends_that_differ_in_vendor_calls_are_never_high(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/platforms/__init__.py": "",
        "pkg/platforms/cuda.py": BACKEND.format(vendor="cuda"),
        "pkg/platforms/npu.py": BACKEND.format(vendor="npu"),
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "vendor calls" in found.message


def test_model_math_is_rejected_and_only_shown_on_request(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/models/__init__.py": "",
        "pkg/models/talker.py": mlp(),
        "pkg/models/vocoder.py": mlp(act="gelu"),
    })
    assert lint(tmp_path, cache_dir) == []
    [rejected] = lint(tmp_path, cache_dir, "--omni-include-rejected=y")
    assert rejected.confidence == "UNDEFINED" and "model math" in rejected.message and "F.gelu" in rejected.message


def test_tests_generated_files_stubs_and_tiny_bodies_are_not_copies(tmp_path: Path, cache_dir: Path) -> None:
    stub = "class {name}:\n    def __init__(self, **config):\n        self.config = config\n\n" \
           "    def put(self, key, payload):\n        raise RuntimeError('unavailable')\n\n" \
           "    def get(self, key):\n        raise RuntimeError('unavailable')\n"
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]") + stub.format(name="A"),
        "pkg/b_pb2.py": "# Generated by the protocol buffer compiler.  DO NOT EDIT!\n"
        + STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
        "pkg/c.py": stub.format(name="C") + "def tiny(x):\n    y = x + 1\n    return y\n",
        "pkg/d.py": "def tiny(x):\n    y = x + 1\n    return y\n",
        "tests/test_a.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
    })
    assert lint(tmp_path, cache_dir) == []


def test_min_statements_option_hides_smaller_copies(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
        "pkg/b.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
    })
    assert len(lint(tmp_path, cache_dir)) == 1
    assert lint(tmp_path, cache_dir, "--omni-copy-min-statements=12") == []


def test_groups_are_cached_and_parallel_runs_agree(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
        "pkg/b.py": STEP.format(name="apply_b", extra="", log="[a]"),
        "pkg/c.py": STEP.format(name="apply_c", extra=PLACEHOLDERS, log="[c]"),
    })
    first = lint(tmp_path, cache_dir)
    stored = list(cache_dir.glob("index-*-copies.json"))
    assert len(stored) == 1 and json.loads(stored[0].read_text())["judgements"]
    assert lint(tmp_path, cache_dir) == first
    assert lint(tmp_path, cache_dir, "-j", "2") == first


@pytest.mark.parametrize("header, lowered", [
    ("# Adapted from https://github.com/org/upstream/blob/main/pkg/rotary.py\n", True),
    ("# Copyright 2024 The Upstream Team. All rights reserved.\n", True),
    ("# Copyright 2024 Our Team.\n", False),
])
def test_micro_findings_in_copied_code_are_not_high(tmp_path: Path, cache_dir: Path, header: str, lowered: bool) -> None:
    own = "# Copyright 2024 Our Team.\n"
    micro = "import torch\n\n\ndef pad(q):\n    return torch.zeros_like(q).to(q.device)\n"
    write_project(tmp_path, {"pkg/__init__.py": own, "pkg/own.py": own, "pkg/more.py": own, "pkg/rotary.py": header + micro})
    _, findings, stderr = run_pylint([*enable_args(["redundant-tensor-materialization"]), "pkg"], cwd=tmp_path, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    [found] = findings
    assert found.confidence == ("INFERENCE" if lowered else "HIGH")
    assert ("[in code" in found.message) is lowered


LONG_HEADER = ("# Adapted from the ``ConfigFactory`` of ``project/config/config_factory.py`` and the loader\n"
               "# (see ``project/config/loader.py``) of the original project, with our changes\n")


def well_formed(tag: str) -> bool:
    """Brackets paired in order and backticks even: the tag reads as one piece."""
    depth: list[str] = []
    for char in tag:
        if char in "([{":
            depth.append(char)
        elif char in ")]}":
            if not depth or "([{"[")]}".index(char)] != depth.pop():
                return False
    return not depth and tag.count("`") % 2 == 0


@pytest.mark.parametrize("header, tag", [
    ("# Adapted from https://github.com/org/repo)\n", "[in code copied from github.com/org/repo]"),
    ("# Modified from ESPnet(https://github.com/espnet/espnet).\n", "[in code copied from github.com/espnet/espnet]"),
    ('"""Origin: adapted from `LTX-2 <https://github.com/Lightricks/LTX-2>`_."""\n', "[in code copied from github.com/Lightricks/LTX-2]"),
    (LONG_HEADER, "[in code copied from the ``ConfigFactory`` of ``project/config/config_factory.py`` …]"),
    ("# This file has been modified from the upstream Apache-2.0 source at\n#   https://github.com/org/tool (pkg/utils.py).\n",
     "[in code copied from github.com/org/tool]"),
])
def test_the_provenance_tag_is_well_formed(tmp_path: Path, cache_dir: Path, header: str, tag: str) -> None:
    micro = "import torch\n\n\ndef pad(q):\n    return torch.zeros_like(q).to(q.device)\n"
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/rotary.py": header + micro})
    _, findings, stderr = run_pylint([*enable_args(["redundant-tensor-materialization"]), "pkg"], cwd=tmp_path, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    [found] = findings
    shown = found.message[found.message.index("[in code"):found.message.rindex("]") + 1]
    assert shown == tag and well_formed(shown)


REGISTRY = '''
    _SCHEMES: dict = {{}}
    PREFIX = "{prefix}"


    def register_scheme(quant_type, layer_type):
        def decorator(cls):
            key = (quant_type, layer_type)
            if key in _SCHEMES:
                raise ValueError(f"already registered: {{key}}")
            _SCHEMES[key] = cls
            cls.label = PREFIX + quant_type
            return cls

        return decorator
'''


@pytest.mark.parametrize("prefix", ["", "310p-"])
def test_copies_using_their_own_module_state_are_medium(tmp_path: Path, cache_dir: Path, prefix: str) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/registry.py": REGISTRY.format(prefix=""),
        "pkg/registry_310p.py": REGISTRY.format(prefix=prefix),
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "_SCHEMES" in found.message and "module-level state" in found.message


UPSTREAM_WORKER = '''
    class Worker:
        def load(self, path, device):
            state = {}
            for name, tensor in read_shards(path):
                state[name] = tensor.to(device)
            missing = [n for n in self.expected if n not in state]
            if missing:
                raise KeyError(missing)
            self.state = state
            return len(state)


    def read_shards(path):
        return []
'''


def test_upstream_reimplementations_in_imported_modules_only(tmp_path: Path, cache_dir: Path) -> None:
    body = UPSTREAM_WORKER.split("class Worker:")[1].split("def read_shards")[0]
    write_project(tmp_path, {
        ".upstream/flow/__init__.py": "",
        ".upstream/flow/worker.py": UPSTREAM_WORKER,
        ".upstream/flow/unused.py": UPSTREAM_WORKER.replace("class Worker", "class Spare"),
        "pkg/__init__.py": "",
        "pkg/worker.py": "from flow.worker import Worker, read_shards\n\n\nclass OmniWorker(Worker):" + body,
        "pkg/spare.py": "from flow.worker import read_shards\n\n\nclass Spare:" + body,
    })
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'up'\n\n[tool.pylint.pylint-omni]\nomni-upstream-paths = ['.upstream']\n"
        "omni-reimplementation-upstreams = ['flow']\n")
    args = ["--disable=all", "--enable=upstream-reimplementation", "pkg"]
    _, first, stderr = run_pylint(args, cwd=tmp_path, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    assert [(f.path, f.confidence) for f in first] == [("pkg/worker.py", "HIGH")]
    assert "overrides Worker.load() of flow" in first[0].message and "flow/worker.py:3" in first[0].message
    assert list(cache_dir.glob("index-*-copies-upstream.json"))
    _, again, _ = run_pylint(args, cwd=tmp_path, cache_dir=cache_dir)
    assert again == first


CHECKED = '''
    def send(group, tensor, dst):
        assert {check}, "destination must differ from this rank"
        group.pending.append((dst, tensor))
        group.count += 1
        group.sent_bytes += tensor.nbytes
        return group.count
'''


RECEIVED = '''
    def receive(inbox, source):
        if source not in inbox.peers:
            raise KeyError(f"peer {{source}} {text}")
        message = inbox.queue.pop(0)
        inbox.received[source] = inbox.received.get(source, 0) + 1
        inbox.last = message
        return message
'''


def test_what_an_assert_checks_is_drift_and_only_its_text_is_cosmetic(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/ops.py": CHECKED.format(check="dst != group.rank"),
        "pkg/models/ops.py": CHECKED.format(check="dst != group.rank_in_group"),
        "pkg/models/__init__.py": "",
        "pkg/text/__init__.py": "",
        "pkg/text/a.py": RECEIVED.format(text="must be known"),
        "pkg/text/b.py": RECEIVED.format(text="is not known"),
    })
    found = lint(tmp_path, cache_dir, "--omni-copy-min-statements=3")
    checked = [f for f in found if not f.path.startswith("pkg/text")]
    worded = [f for f in found if f.path.startswith("pkg/text")]
    assert [f.confidence for f in checked] == ["INFERENCE"] and "group.rank_in_group" in checked[0].message
    assert [f.confidence for f in worded] == ["HIGH"] and "differs only in log or error text" in worded[0].message


def test_the_kept_copy_is_named_by_the_folders_where_the_paths_part(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        **{f"pkg/{m}/{k}__init__.py": "" for m in ("llama", "bloom") for k in ("", "kernels/")},
        "pkg/llama/kernels/step.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
        "pkg/bloom/kernels/step.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
    })
    [found] = lint(tmp_path, cache_dir)
    kept = "llama" if found.path.startswith("pkg/bloom") else "bloom"
    assert f"({kept}/kernels/step.py:" in found.message


def test_a_copy_of_code_copied_on_purpose_or_reading_locals_is_not_high(tmp_path: Path, cache_dir: Path) -> None:
    frame = "\n".join(f"    {name} = payload.get('{name}')" for name in ("alpha", "beta", "gamma", "delta", "eps", "zeta"))
    block = frame + "\n    kwargs = {k: locals()[k] for k in hook.names}\n    hook.fire(**kwargs)\n"
    readers = {
        "first": "def first(payload, hook):\n    total = payload.size * 2\n    hook.start(total)\n" + block + "    return total\n",
        "second": ("def second(payload, hook, scale):\n    count = len(payload) + scale\n    hook.begin(count, scale)\n"
                   + block + "    return [count] * scale\n"),
    }
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "# Adapted from https://github.com/org/upstream/blob/main/pkg/step.py\n"
        + textwrap.dedent(STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]")),
        "pkg/b.py": STEP.format(name="apply_b", extra=PLACEHOLDERS, log="[a]"),
        "pkg/c.py": readers["first"],
        "pkg/d.py": readers["second"],
    })
    found = {f.path: f for f in lint(tmp_path, cache_dir)}
    assert found["pkg/b.py"].confidence == "INFERENCE" and "copied from pkg/step.py on purpose" in found["pkg/b.py"].message
    framed = next(f for p, f in found.items() if p in ("pkg/c.py", "pkg/d.py"))
    assert framed.confidence == "INFERENCE" and "reads locals()" in framed.message


def test_a_module_copying_five_definitions_of_another_is_one_fork_finding(tmp_path: Path, cache_dir: Path) -> None:
    units = "\n\n".join(
        f"def {name}(conn, request):\n    if conn.closed:\n        conn.reopen()\n    buffer = conn.buffers['{name}']\n"
        f"    buffer.append(request.{field})\n    conn.{name}_count += 1\n    conn.stats['{name}'] = len(buffer)\n"
        f"    return buffer\n"
        for name, field in (("send", "payload"), ("recv", "reply"), ("ping", "stamp"), ("probe", "route"), ("flush", "batch")))
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/connector.py": units,
        # its own additions keep the module as a whole from being one copy of the other
        "pkg/hybrid_connector.py": units + "\n\n" + "\n\n".join(
            f"class Hybrid{i}:\n    def __init__(self, size):\n        self.size = size * {i}\n"
            f"        self.slots = [None] * size\n        self.free = list(range(size))\n" for i in range(8)),
    })
    found = [f for f in lint(tmp_path, cache_dir) if "Hybrid" not in f.message]
    assert [(f.path, f.line, f.confidence) for f in found] == [("pkg/hybrid_connector.py", 1, "HIGH")]
    assert "forks pkg/connector.py: 5 copies (send(), recv(), ping() and 2 more)" in found[0].message
    assert "5 identical, 0 drifted" in found[0].message


def test_a_variant_named_after_the_other_module_is_no_fork(tmp_path: Path, cache_dir: Path) -> None:
    units = "\n\n".join(
        f"def {name}(conn, request):\n    if conn.closed:\n        conn.reopen()\n    buffer = conn.buffers['{name}']\n"
        f"    buffer.append(request.{field})\n    conn.{name}_count += 1\n    conn.stats['{name}'] = len(buffer)\n"
        f"    return buffer\n"
        for name, field in (("send", "payload"), ("recv", "reply"), ("ping", "stamp"), ("probe", "route"), ("flush", "batch")))
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/connector.py": units,
        "pkg/connector_a5.py": units + "\n\n" + "\n\n".join(
            f"class Variant{i}:\n    def __init__(self, size):\n        self.size = size * {i}\n"
            f"        self.slots = [None] * size\n        self.free = list(range(size))\n" for i in range(8)),
    })
    found = [f for f in lint(tmp_path, cache_dir) if "Variant" not in f.message]
    assert not any("forks" in f.message for f in found)
    assert sorted(f.line for f in found if f.path == "pkg/connector_a5.py") == [1, 11, 21, 31, 41]  # each copy on its own


def audit(root: Path, cache_dir: Path, *extra: str) -> dict[str, dict]:
    """The omni-json audit of `pkg`: each copy's finding by `path:line`."""
    out = root / "audit.json"
    run_pylint([*enable_args([SYMBOL]), f"--output-format=omni-json:{out}", *extra, "pkg"], cwd=root, cache_dir=cache_dir)
    data = json.loads(out.read_text())
    return {f"{f['path']}:{f['line']}": f for f in [*data["candidates"], *data["rejected"]]}


def test_a_group_of_identical_and_drifted_copies_says_how_many_of_each(tmp_path: Path, cache_dir: Path) -> None:
    drifted = PLACEHOLDERS.replace("max(0,", "max(1,")
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
        "pkg/b.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
        "pkg/c.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]"),
        "pkg/d.py": STEP.format(name="apply", extra=drifted, log="[a]"),
    })
    [found] = lint(tmp_path, cache_dir)  # one change; medium, since one copy passes another value
    assert (found.path, found.confidence) == ("pkg/b.py", "INFERENCE")
    assert found.message == ("apply() and 2 other copies (c.py and d.py) copy apply() (pkg/a.py:7); share one, the "
                             "differences as parameters (4 copies: 3 identical, 1 drifted; drift: `1` (line 12) vs `0`; "
                             "29 lines go).")
    per_copy = {f.path: f for f in lint(tmp_path, cache_dir, "--omni-granularity=member")}
    assert {p: f.confidence for p, f in per_copy.items()} == {"pkg/b.py": "HIGH", "pkg/c.py": "HIGH", "pkg/d.py": "INFERENCE"}
    assert per_copy["pkg/b.py"].message.endswith("(4 copies: 3 identical, 1 drifted: pkg/d.py; 10 lines go).")
    # the drifted line stays, as an argument of the shared function
    assert per_copy["pkg/d.py"].message.endswith("(4 copies: 3 identical, 1 drifted; drift: `1` (line 12) vs `0`; 9 of 10 lines go).")
    report = audit(tmp_path, cache_dir, "--omni-granularity=member")
    assert [report[f"pkg/{name}.py:7"]["benefit_lines"] for name in "bcd"] == [10, 10, 9]
    assert report["pkg/d.py:7"]["benefit"].startswith("9 of this copy's 10 lines go; 29 lines over the group of 4 near "
                                                      "function copies (3 identical, 1 drifted)")
    group = audit(tmp_path, cache_dir)["pkg/b.py:7"]
    assert group["benefit_lines"] == 29 and [m["confidence"] for m in group["members"]] == ["high", "high", "medium"]


BATCH = '''
    def {name}(scheduler, block_size, budget):
        {setup}
        for request in scheduler.{queue}:
            if request.aborted or request.num_computed >= request.num_prompt:
                continue
            from pkg.kernels import options  # lazy: kernels imports torch
            start = request.num_computed
            stop = min(request.num_prompt, start + budget)
            scheduler.token_ids.extend(request.prompt_ids[start:stop])
            scheduler.positions.extend(range(start, stop))
            for position in range(start, stop):
                block = request.block_table[position // block_size]
                scheduler.slots.append(block * block_size + position % block_size)
            request.num_scheduled = stop - start
            request.options = options()
            budget -= stop - start
            if budget <= 0:
                break
            {after}
        return {result}
'''
STATS = '''
    def {name}(batch, {extra}):
        import math
        import statistics

        count = len(batch.requests)
        tokens = sum(r.num_prompt for r in batch.requests)
        longest = max(r.num_prompt for r in batch.requests)
        mean = statistics.fmean(r.num_prompt for r in batch.requests)
        pages = math.ceil(tokens / batch.block_size)
        waste = pages * batch.block_size - tokens
        {use}
'''


def test_a_block_claims_only_the_lines_that_can_move_into_a_helper(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/kernels.py": "def options():\n    return {}\n",
        "pkg/prefill.py": BATCH.format(name="prefill", setup="scheduler.waiting.sort(key=len)", queue="waiting",
                                       after="scheduler.waiting_tokens -= request.num_scheduled", result="scheduler.slots")
        + STATS.format(name="describe", extra="logger", use="\n        ".join((
            "if not batch.verbose:", "    return None", "logger.info('%d requests, %d tokens', count, tokens)",
            "logger.info('longest %d, mean %.1f', longest, mean)", "batch.pages_seen.append(pages)",
            "batch.waste_total += waste", "return waste"))),
        "pkg/decode.py": BATCH.format(name="decode", setup="budget -= len(scheduler.running)", queue="running",
                                      after="request.chunked = stop < request.num_prompt", result="budget")
        + STATS.format(name="stats", extra="history", use="\n        ".join((
            "history.append((count, tokens, longest, mean))", "while len(history) > batch.history_size:",
            "    history.pop(0)", "rate = sum(entry[1] for entry in history) / len(history)",
            "return {'pages': pages, 'waste': waste, 'rate': rate}"))),
    })
    [found] = lint(tmp_path, cache_dir)  # the statistics blocks: imports, and six locals the callers read after
    assert (found.path, found.line, found.confidence) == ("pkg/prefill.py", 5, "HIGH")
    assert found.message.endswith("(identical after renaming locals; 10 of 15 lines go).")
    simplification = audit(tmp_path, cache_dir)["pkg/prefill.py:5"]["simplification"]
    assert "; 1 local import, the `continue` at line 6, the `break` at line 19 stay in prefill()" in simplification


CONNECTOR_UNITS = (("send", "payload"), ("recv", "reply"), ("ping", "stamp"), ("probe", "route"), ("flush", "batch"))


def connector_units(names: tuple[tuple[str, str], ...]) -> str:
    return "\n\n".join(
        f"def {name}(conn, request):\n    if conn.closed:\n        conn.reopen()\n    buffer = conn.buffers['{name}']\n"
        f"    buffer.append(request.{field})\n    conn.{name}_count += 1\n    conn.stats['{name}'] = len(buffer)\n"
        f"    return buffer\n" for name, field in names)


@pytest.mark.parametrize("kept, others, importer", [
    ("pkg/common/step.py", ["pkg/_310p/step.py", "pkg/platforms/npu/step.py"], ""),  # a vendor path sorts first
    ("pkg/layers/step.py", ["pkg/models/llama/step.py"], ""),
    ("pkg/zz/step.py", ["pkg/aa/step.py", "pkg/common/step.py"], "from pkg.zz.step import apply\n"),  # imported: shared already
    ("pkg_npu/worker/step.py", ["pkg_npu/_310p/step.py"], ""),  # a package named after its vendor: its own paths tell
])
def test_the_copy_kept_is_the_shared_then_the_vendor_neutral_one(
    tmp_path: Path, cache_dir: Path, kept: str, others: list[str], importer: str,
) -> None:
    folders = {str(Path(p).parent) for p in [kept, *others]}
    inits = {f"{'/'.join(Path(f).parts[:n])}/__init__.py": "" for f in folders for n in range(1, len(Path(f).parts) + 1)}
    package = kept.split("/")[0]
    write_project(tmp_path, {
        **inits, f"{package}/user.py": importer,
        **{path: STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]") for path in [kept, *others]},
    })
    _, found, stderr = run_pylint([*enable_args([SYMBOL]), "--omni-granularity=member", package], cwd=tmp_path,
                                  cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    assert sorted(f.path for f in found) == sorted(others)
    assert all(f"apply() ({kept.split('/', 1)[1]}:7)" in f.message for f in found)
    _, [group], _ = run_pylint([*enable_args([SYMBOL]), package], cwd=tmp_path, cache_dir=cache_dir)
    assert group.path in others and f"apply() ({kept.split('/', 1)[1]}:7)" in group.message


@pytest.mark.parametrize("specific, fork", [(2, False), (5, True)])
def test_per_model_boilerplate_does_not_count_towards_a_fork(tmp_path: Path, cache_dir: Path, specific: int, fork: bool) -> None:
    more = tuple((f"op{i}", f"field{i}") for i in range(specific))
    boilerplate = CONNECTOR_UNITS[:3]  # also copied into three more modules: five modules hold them
    own = "\n\n".join(f"class Own{i}:\n    def __init__(self, size):\n        self.size = size * {i}\n"
                      f"        self.slots = [None] * size\n        self.free = list(range(size))\n" for i in range(12))
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": connector_units(boilerplate + more),
        "pkg/fork.py": connector_units(boilerplate + more) + "\n\n" + own,
        **{f"pkg/model{i}.py": connector_units(boilerplate) + "\n\n" + own.replace("Own", f"Model{i}x") for i in range(3)},
    })
    found = [f for f in lint(tmp_path, cache_dir) if f.path == "pkg/fork.py" and "Own" not in f.message]
    forks = [f for f in found if "forks" in f.message]
    assert [f.message.split(":")[0] for f in forks] == (["pkg/fork.py forks pkg/base.py"] if fork else [])
    if fork:
        assert f"{specific} copies" in forks[0].message and "send()" not in forks[0].message
    assert sorted(f.line for f in found if "forks" not in f.message) == [1, 11, 21] + ([] if fork else [31, 41])


CHECKS = '''
    def {name}(request, sessions):
        {first}
        if request.top_p is not None and not 0 < request.top_p <= 1:
            return f"top_p {{request.top_p!r}} must be in (0, 1]"
        if request.top_k is not None and request.top_k < 0:
            return f"top_k {{request.top_k!r}} must not be negative"
        if request.temperature is not None and not 0 <= request.temperature <= 2:
            return f"temperature {{request.temperature!r}} must be in [0, 2]"
        if request.max_tokens is not None and request.max_tokens <= 0:
            return f"max_tokens {{request.max_tokens!r}} must be positive"
        if request.stop is not None and len(request.stop) > 4:
            return "at most 4 stop sequences"
        if request.seed is not None and request.seed < 0:
            return "the seed must not be negative"
        {last}
'''


def test_a_chain_of_checks_returning_early_moves_into_one_check_helper(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/completions.py": CHECKS.format(name="check_completion", first="if request.prompt is None:\n"
                                            "            return 'a prompt is required'", last="return ''"),
        "pkg/generate.py": CHECKS.format(name="check_generate", first="if sessions.has(request.session_id):\n"
                                         "            return 'session busy'\n        request.stream = bool(request.stream)",
                                         last="sessions.reserve(request.session_id)\n        return None"),
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "HIGH" and found.message.endswith("(identical after renaming locals; 12 lines go).")


ROTARY = '''
    def _kernel(x):
        return x {op} 2


    def rotary(x, cos, sin):
        y = x * cos
        z = _kernel(y)
        w = z + sin
        v = w * 3
        return v
'''


def test_copies_calling_their_own_differing_helper_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/llama.py": ROTARY.format(op="*"),
        "pkg/cohere.py": ROTARY.format(op="+"),
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "own module's `_kernel`, defined differently" in found.message
    # The same helper in both files: the copies run the same code, high.
    (tmp_path / "pkg/cohere.py").write_text(textwrap.dedent(ROTARY.format(op="*")))
    assert [f.confidence for f in lint(tmp_path, cache_dir)] == ["HIGH"]


def test_a_mirror_with_upstream_sync_markers_is_not_high(tmp_path: Path, cache_dir: Path) -> None:
    mirrored = ROTARY.format(op="*").replace("        z = _kernel(y)", "        #! ---- MODIFIED BELOW ----\n        z = _kernel(y)")
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/llama.py": ROTARY.format(op="*"), "pkg/mirror.py": mirrored})
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "sync marker MODIFIED BELOW" in found.message


def test_the_copy_others_import_by_name_is_kept_unless_it_is_platform_code(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": mlp("renorm"),
        "pkg/kernels/__init__.py": "",
        "pkg/kernels/fused_moe.py": mlp("renorm"),
        "pkg/a.py": "from pkg.kernels.fused_moe import renorm\nprint(renorm)\n",
        "pkg/b.py": "from pkg.kernels.fused_moe import renorm\nprint(renorm)\n",
        "pkg/c.py": "import pkg.base\nprint(pkg.base)\n",
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.path == "pkg/base.py" and "kernels/fused_moe.py" in found.message
    # The imported copy under a platform path (`kernels/cuda/`): the neutral layer must not import it.
    (tmp_path / "pkg/kernels/fused_moe.py").rename(tmp_path / "pkg/kernels/cuda_moe.py")
    for name in ("a", "b"):
        (tmp_path / f"pkg/{name}.py").write_text("from pkg.kernels.cuda_moe import renorm\nprint(renorm)\n")
    [found] = lint(tmp_path, cache_dir)
    assert found.path == "pkg/kernels/cuda_moe.py" and "pkg/base.py" in found.message


ATTEND = '''
    from flash_attn import flash_attn_func, flash_attn_varlen_func


    def {name}(batch, scale, window):
        query = batch.query * scale
        key = batch.key.transpose(1, 2)
        out = {call}(query, key, batch.value, causal={causal}, padding="{padding}"{extra})
        out = out.reshape(batch.size, -1)
        batch.outputs.append(out)
        batch.{field} += {step}
        return out
'''
SAME = dict(call="flash_attn_func", causal="True", padding="same", extra="", field="steps", step="1")


@pytest.mark.parametrize("change, shown", [
    ({"causal": "False"}, ("`False`", "`True`")),  # a flag
    ({"padding": "valid"}, ("`'valid'`", "`'same'`")),  # a mode keyword
    ({"call": "flash_attn_varlen_func"}, ("flash_attn_varlen_func", "flash_attn_func")),  # an outside package's function
    ({"extra": ", window_size=window"}, ("window_size=window",)),  # another signature: a keyword one copy passes
    ({"step": "scale - 1"}, ("`scale - 1`", "`1`")),  # another computation
    ({"field": "steps"}, ()),  # identical: high, "keep one"
    ({"field": "calls"}, ("`batch.calls`", "`batch.steps`")),  # a name: a plain parameter
])
def test_a_drift_that_changes_behaviour_is_never_share_one(tmp_path: Path, cache_dir: Path, change: dict,
                                                            shown: tuple[str, ...]) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "", "pkg/serving/__init__.py": "", "pkg/engine/__init__.py": "",
        "pkg/engine/attend.py": ATTEND.format(name="attend", **SAME),
        "pkg/serving/attend.py": ATTEND.format(name="attend_step", **{**SAME, **change}),
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.path == "pkg/serving/attend.py" and all(text in found.message for text in shown), found.message
    if change == {"field": "steps"}:
        assert found.confidence == "HIGH" and "keep one and call it here" in found.message
    elif change == {"field": "calls"}:
        assert found.confidence == "INFERENCE" and "share one, the differences as parameters" in found.message
    else:
        assert found.confidence == "INFERENCE" and "share one" not in found.message, found.message
        assert "extract only the part they share (they differ in " in found.message


METHOD = '''
    def {name}(self, batch):
        rows = [self.encode(item) for item in batch.items]
        width = max(len(row) for row in rows)
        padded = [row + [self.{pad}] * (width - len(row)) for row in rows]
        self.{name}_calls += 1
        self.stats["{name}"] = width
        return padded
'''


def holder_class(name: str, methods: list[str], pad: str = "pad_id", base: str = "") -> str:
    body = "".join(textwrap.indent(textwrap.dedent(METHOD.format(name=m, pad=pad)), "    ") for m in methods)
    return f"class {name}{f'({base})' if base else ''}:\n    def encode(self, item):\n        return list(item)\n" + body


OWN_METHODS = "".join(f"\n    def {name}(self, item):\n        return self.{name}_table.get(item, {n})\n"
                      for n, name in enumerate(("lookup", "fetch", "resolve", "route", "admit", "evict", "trace")))


def test_a_class_repeating_methods_of_another_is_one_finding_at_the_class(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base_batcher.py": holder_class("Batcher", ["prefill", "decode", "verify"]),
        "pkg/speech.py": holder_class("SpeechBatcher", ["prefill", "decode", "verify"]) + OWN_METHODS,
        # one copied method among the class's own methods: the method, not the class, is the copy
        "pkg/vision.py": holder_class("VisionBatcher", ["decode"]) + OWN_METHODS,
    })
    found = {f.path: f for f in lint(tmp_path, cache_dir)}
    speech = found["pkg/speech.py"]
    assert (speech.line, speech.confidence) == (1, "HIGH")
    assert speech.message.startswith("SpeechBatcher repeats 3 methods (prefill, decode and verify) of Batcher "
                                     "(pkg/base_batcher.py:1); derive it from Batcher or share a base ("), speech.message
    assert found["pkg/vision.py"].message.startswith("VisionBatcher.decode() repeats Batcher.decode()")
    per_copy = lint(tmp_path, cache_dir, "--omni-granularity=member")
    assert sorted(f.line for f in per_copy if f.path == "pkg/speech.py") == [5, 13, 21]
    members = audit(tmp_path, cache_dir)["pkg/speech.py:1"]["members"]
    alone = audit(tmp_path, cache_dir, "--omni-granularity=member")
    assert [m["id"] for m in members] == [alone[f"pkg/speech.py:{line}"]["id"] for line in (5, 13, 21)]


def test_a_class_whose_copies_differ_in_behaviour_shares_only_a_base(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base_batcher.py": holder_class("Batcher", ["prefill", "decode"]),
        "pkg/speech.py": holder_class("SpeechBatcher", ["prefill"]) + textwrap.indent(textwrap.dedent(
            METHOD.format(name="decode", pad="pad_id").replace("width - len(row)", "width - len(row) - 1")), "    ")
        + OWN_METHODS,
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and found.message.startswith("SpeechBatcher repeats 2 methods (prefill and decode) of Batcher")
    assert "share a base holding only the part they share: 1 method differs in behaviour" in found.message
    assert "the differences as parameters" not in found.message


ROPE = '''
    import torch


    def rotate_half(x):
        half = x.shape[-1] // 2
        first = x[..., :half]
        second = x[..., half:]
        joined = torch.cat((-second, first), dim=-1)
        return joined
'''
RESIDUAL = '''
    def residual_step(self, hidden, residual):
        if residual is None:
            residual = hidden
        else:
            hidden = hidden + residual
            residual = hidden
        hidden = self.norm(hidden)
        return hidden, residual
'''
SPLIT = '''
    def split_qkv(qkv, heads, kv_heads, dim):
        q_size = heads * dim
        kv_size = kv_heads * dim
        q, k, v = qkv.split([q_size, kv_size, kv_size], dim=-1)
        q = q.view(-1, heads, dim)
        k = k.view(-1, kv_heads, dim)
        return q, k, v.view(-1, kv_heads, dim)
'''
SCHEDULER = '''
    class MultiStepScheduler:
        def __init__(self, steps):
            self.steps = steps
            self.queue = []

        def plan(self, requests):
            ready = [r for r in requests if r.ready]
            ready.sort(key=lambda r: r.arrival)
            chosen = ready[: self.steps]
            for request in chosen:
                request.scheduled = True
                request.budget -= 1
            self.queue.extend(chosen)
            waiting = len(requests) - len(chosen)
            return chosen, waiting
'''
MODEL = '''
    from pkg.models.{family}_layers import {cls}DecoderLayer


    class {cls}Model:
        def __init__(self, config):
            self.config = config
            self.layers = [{cls}DecoderLayer(config, i) for i in range(config.num_layers)]
            self.norm = config.build_norm()
            self.cache = config.build_cache()
            self.graphs = {{}}
            self.layers_by_id = {{id(layer): layer for layer in self.layers}}
            self.warm = config.warmup > 0
            self.steps = 0
            self.ready = self.warm and bool(self.layers)
'''


MLP_CLASS = '''
class {cls}:
    def __init__(self, config, quant=None):
        self.gate_up = config.build_linear(config.hidden, 2 * config.inner, quant=quant)
        self.act = config.build_activation(config.act)
        self.down = config.build_linear(config.inner, config.hidden, quant=quant)
        self.dropout = config.build_dropout(config.dropout)
        self.scale = config.residual_scale

    def forward(self, x):
        gate_up = self.gate_up(x)
        hidden = self.act(gate_up)
        hidden = self.dropout(hidden)
        out = self.down(hidden)
        return out * self.scale
'''


VISION = '''
class VisionTower:
    def __init__(self, config):
        self.patch = config.build_patch_embed(config.patch_size)
        self.blocks = [config.build_block(i) for i in range(config.depth)]
        self.merger = config.build_merger(config.spatial_merge)

    def forward(self, pixels, grid):
        hidden = self.patch(pixels)
        positions = grid.cumsum(0)
        windows = grid.prod(-1)
        for block in self.blocks:
            hidden = block(hidden, positions, windows)
        merged = self.merger(hidden)
        merged = merged.flatten(0, 1)
        return merged, windows
'''


def test_idioms_of_unrelated_model_families_are_conventions_not_candidates(tmp_path: Path, cache_dir: Path) -> None:
    families = ("llama", "qwen2", "mistral", "gemma")

    def own(family: str) -> str:  # each model file's own code, so no module is a copy of another
        return "".join(f"\n\ndef {family}_{n}(config):\n    return config.{family}_{n}\n" for n in range(6))

    layer = "class {name}Layer:\n    def __init__(self, norm):\n        self.norm = norm\n" + textwrap.indent(
        textwrap.dedent(RESIDUAL), "    ")
    write_project(tmp_path, {
        "pkg/__init__.py": "", "pkg/models/__init__.py": "", "pkg/layers/__init__.py": "",
        # a pre-norm residual step in four families; a rotary helper in two: conventions
        **{f"pkg/models/{f}.py": layer.format(name=f.title()) + (textwrap.dedent(ROPE) if f in ("llama", "qwen2") else "")
           + own(f) for f in families},
        # each family's model builds its own decoder layers: the per-model pattern
        **{f"pkg/models/{f}_layers.py": f"class {f.title()}DecoderLayer:\n    pass\n" for f in ("llama", "qwen2")},
        "pkg/models/llama_model.py": MODEL.format(family="llama", cls="Llama"),
        "pkg/models/qwen2_model.py": MODEL.format(family="qwen2", cls="Qwen2"),
        # a scheduler copied into a second model folder, a layer copied into one model file: candidates
        "pkg/models/talker/__init__.py": "", "pkg/models/vocoder/__init__.py": "",
        "pkg/models/talker/multistep.py": SCHEDULER, "pkg/models/vocoder/multistep.py": SCHEDULER,
        "pkg/layers/qkv.py": SPLIT, "pkg/models/qwen2_vl.py": SPLIT,
        # three families each naming its own MLP class: the per-model pattern; one component copied under one name: a copy
        **{f"pkg/models/{f}.py": MLP_CLASS.format(cls=f"{f.title()}MLP") for f in ("falcon", "phi", "yi")},
        **{f"pkg/models/{f}_vision.py": VISION for f in ("falcon", "phi", "yi")},
    })
    found = lint(tmp_path, cache_dir)
    assert sorted((f.path, f.confidence) for f in found) == [
        ("pkg/models/phi_vision.py", "HIGH"), ("pkg/models/qwen2_vl.py", "HIGH"), ("pkg/models/vocoder/multistep.py", "HIGH")]
    assert [f.message for f in found if f.path == "pkg/models/phi_vision.py"][0].startswith(
        "VisionTower and VisionTower (models/yi_vision.py) repeat VisionTower (models/falcon_vision.py:2)")
    rejected = {f.path: f.message for f in lint(tmp_path, cache_dir, "--omni-include-rejected=y") if f.confidence == "UNDEFINED"}
    assert "rejected: a convention of 2 model families (llama and qwen): a 5-statement idiom" in rejected["pkg/models/qwen2.py"]
    assert "rejected: a convention of 2 model families (llama and qwen): each copy builds its own model's classes" in \
        rejected["pkg/models/qwen2_model.py"]
    assert "rejected: a convention of 4 model families" in rejected["pkg/models/llama.py"]
    assert "(falcon, phi and yi): each model's own class holds its copy" in rejected["pkg/models/phi.py"]
    assert audit(tmp_path, cache_dir, "--omni-include-rejected=y")["pkg/models/llama.py:1"]["reason"] == (
        "a convention of 4 model families (gemma, llama, mistral and 1 more): each family keeps its own copy of the pattern")


UPSTREAM_FRAMES = '''
    import torch.nn.functional as F


    def frame(wave, size, hop):
        pad = size // 2
        padded = F.pad(wave, (pad, pad), mode="{mode}")
        frames = padded.unfold(-1, size, hop)
        count = frames.shape[-2]
        frames = frames.contiguous()
        return frames, count
'''


@pytest.mark.parametrize("mode, fix", [
    ("reflect", "import it from flow"),
    ("constant", "it differs from the flow one in a flag or mode: call that one for the part they share, or keep the copy"),
])
def test_an_upstream_copy_that_differs_in_behaviour_is_not_told_to_reuse_upstream(
    tmp_path: Path, cache_dir: Path, mode: str, fix: str,
) -> None:
    write_project(tmp_path, {
        ".upstream/flow/__init__.py": "", ".upstream/flow/audio.py": UPSTREAM_FRAMES.format(mode="reflect"),
        "pkg/__init__.py": "", "pkg/audio.py": "from flow.audio import frame as _unused\n" + textwrap.dedent(
            UPSTREAM_FRAMES.format(mode=mode)),
    })
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'up'\n\n[tool.pylint.pylint-omni]\nomni-upstream-paths = ['.upstream']\n"
        "omni-reimplementation-upstreams = ['flow']\n")
    _, [found], stderr = run_pylint(["--disable=all", "--enable=upstream-reimplementation", "pkg"], cwd=tmp_path,
                                    cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    assert fix in found.message and (found.confidence == "HIGH") == (mode == "reflect"), found.message


def test_model_families_are_named_where_the_paths_part_below_a_family_folder() -> None:
    from pylint_omni.copies.conventions import Families

    custom = [f"srv/models/custom_modeling/flash_{m}_modeling.py" for m in ("llama", "mistral", "qwen2", "gemma", "phi")]
    paths = [*custom, "srv/models/__init__.py", "srv/models/flash_causal_lm.py", "pkg/models/qwen2.py",
             "pkg/models/qwen2_vl.py", "pkg/models/utils.py", "pkg/models/llama/layer_infer/infer.py",
             "pkg/models/bloom/layer_infer/infer.py", "other/turbomind/models/qwen2.py", "pkg/layers/rope.py",
             "ver/models/transformers/llama.py", "ver/models/transformers/qwen2_vl.py", "ver/models/mcore/util.py"]
    known = Families(paths)
    assert known.of(custom[:2]) == {custom[0]: "llama", custom[1]: "mistral"}  # `flash` and `modeling` name the folder
    assert set(known.of(["pkg/models/qwen2.py", "pkg/models/qwen2_vl.py"]).values()) == {"qwen"}  # one family
    assert set(known.of(["pkg/models/qwen2.py", "other/turbomind/models/qwen2.py"]).values()) == {"qwen"}
    assert set(known.of(["pkg/models/qwen_image/pipeline_edit.py", "pkg/models/qwen_image/pipeline_layered.py"]).values()) == {
        "qwen"}  # a family folder holds one family, however many files
    images = [f"img/models/{m}_image/pipeline.py" for m in ("qwen", "ovis", "longcat", "z")]
    assert list(Families(images).of(images).values()) == ["qwen", "ovis", "longcat", "z_image"]  # `image` names the folder
    assert known.of(["pkg/models/llama/layer_infer/infer.py", "pkg/models/bloom/layer_infer/infer.py"]) == {
        "pkg/models/llama/layer_infer/infer.py": "llama", "pkg/models/bloom/layer_infer/infer.py": "bloom"}
    assert known.of(["ver/models/transformers/llama.py", "ver/models/transformers/qwen2_vl.py"]) == {
        "ver/models/transformers/llama.py": "llama", "ver/models/transformers/qwen2_vl.py": "qwen"}
    # shared code of the family folder, and code outside any family folder, belong to no family
    assert known.of(["ver/models/transformers/transformers_utils.py"]) == {"ver/models/transformers/transformers_utils.py": None}
    assert known.of(["pkg/models/utils.py", "pkg/layers/rope.py"]) == {"pkg/models/utils.py": None, "pkg/layers/rope.py": None}


def test_a_per_copy_baseline_holds_its_copies_and_a_new_copy_is_reported_alone(tmp_path: Path, cache_dir: Path) -> None:
    files = {"pkg/__init__.py": "", **{f"pkg/{name}.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]") for name in "abc"}}
    write_project(tmp_path, files)
    alone = audit(tmp_path, cache_dir, "--omni-granularity=member")
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"format": "pylint-omni-baseline/1", "findings": [
        {key: f.get(key) for key in ("id", "symbol", "subject", "path", "line")} for f in alone.values()]}))
    assert lint(tmp_path, cache_dir, f"--omni-baseline={baseline}") == []  # the group's finding is known through its members
    (tmp_path / "pkg/d.py").write_text(textwrap.dedent(STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]")))
    [new] = lint(tmp_path, cache_dir, f"--omni-baseline={baseline}")
    assert new.path == "pkg/d.py" and new.message.startswith("apply() repeats apply() (pkg/a.py:7); keep one and call it here")


VERIFY = '''
    def verify(self, batch):
        accepted = []
        for draft, target in zip(batch.drafts, batch.targets):
            if draft != target:
                break
            accepted.append(draft)
        self.accepted_total += len(accepted)
        batch.accepted = accepted
        return accepted
'''
DECODE = '''
    def decode(self, batch):
        rows = [self.encode(item) for item in batch.items]
        width = max(len(row) for row in rows)
        {first}
        padded = [row + [self.pad_id] * (width - len(row)) for row in rows]
        self.stats["decode"] = width
        self.history.append(len(rows))
        batch.rows = padded
        {last}
        return padded
'''


def test_two_classes_copying_each_others_methods_are_one_finding(tmp_path: Path, cache_dir: Path) -> None:
    """Each group keeps its preferred copy (the most central one of a near group): the two classes are one change."""
    def method(name: str, first: str = "batch.width = width", last: str = "batch.done = True") -> str:
        text = VERIFY if name == "verify" else DECODE.format(first=first, last=last)
        return textwrap.indent(textwrap.dedent(text), "    ")

    def holder(cls: str, *methods: str) -> str:  # each class has its own code besides: no class copies another whole
        own = "".join(f"\n    def {cls.lower()}_{n}(self, item):\n        return self.{cls.lower()}_table{n}.get(item)\n"
                      for n in range(14))
        return f"class {cls}:\n    def encode(self, item):\n        return list(item)\n" + "".join(methods) + own

    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": holder("Prefill", method("verify"), method("decode", first="batch.width = width + 1")),
        "pkg/b.py": holder("Decode", method("verify"), method("decode")),
        "pkg/c.py": holder("Draft", method("decode", last="batch.done = batch.final")),
    })
    found = {f.path: f for f in lint(tmp_path, cache_dir)}
    assert "pkg/b.py" not in found, found
    # Decode.verify repeats Prefill.verify; Prefill.decode drifted from Decode.decode (the central copy of three)
    assert found["pkg/a.py"].message.startswith("Prefill and Decode (pkg/b.py:1) share 2 methods (decode and verify); "
                                                "share a base holding only the part they share: 1 method differs in "
                                                "behaviour"), found["pkg/a.py"].message
    assert found["pkg/c.py"].message.startswith("Draft.decode() drifted from Decode.decode()")  # its class copies no other


def test_a_copy_of_code_a_dead_change_deletes_goes_with_that_change(tmp_path: Path, cache_dir: Path) -> None:
    """DiffSynth-Studio: a live function repeating one in a module nothing imports. Deleting the dead module leaves
    one copy: the copy finding is listed under the dead module's change, not emitted, also when the copy kept is the
    dead one (`utils.py`, a common place, before the script that runs its own copy)."""
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/utils.py": STEP.format(name="apply_old", extra=PLACEHOLDERS, log="[a]"),
        "pkg/main.py": STEP.format(name="apply", extra=PLACEHOLDERS, log="[a]")
                       + "\n\n    def main():\n        print(apply({}, {}, 0))\n",
    })
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'copies-case'\n[project.scripts]\nrun = 'pkg.main:main'\n")
    per_copy = lint(tmp_path, cache_dir, "--omni-granularity=member")  # an editor's view: every finding
    assert [(f.path, f.confidence) for f in per_copy] == [("pkg/main.py", "HIGH")] and "pkg/utils.py" in per_copy[0].message
    code, findings, stderr = run_pylint([*enable_args([SYMBOL, "unused-surface"]), "pkg"], cwd=tmp_path, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    assert [(f.path, f.symbol, f.confidence) for f in findings] == [("pkg/utils.py", "unused-surface", "HIGH")], findings
    # A third copy, live: deleting the dead one leaves two to share, so the copy finding stays.
    (tmp_path / "pkg" / "other.py").write_text(textwrap.dedent(STEP.format(name="apply_other", extra=PLACEHOLDERS, log="[a]")))
    (tmp_path / "pkg" / "main.py").write_text((tmp_path / "pkg" / "main.py").read_text().replace(
        "def main():\n", "def main():\n    from pkg.other import apply_other\n    print(apply_other({}, {}, 0))\n"))
    _, findings, _ = run_pylint([*enable_args([SYMBOL, "unused-surface"]), "pkg"], cwd=tmp_path, cache_dir=cache_dir)
    assert {f.symbol for f in findings} == {SYMBOL, "unused-surface"}, findings


PORT_BLOCK = '''
    port = args.port or 29500
    if port in args.busy:
        raise ConnectionError(port)
    env["MASTER_PORT"] = str(port)
    env["MASTER_ADDR"] = args.addr or "127.0.0.1"
    env["NNODES"] = str(args.nodes)
    env["NODE_RANK"] = str(args.rank)
    env["WORLD"] = str(args.nodes * args.procs)'''
DEVICE_BLOCK = '''
    if args.gpu_ids != "all":
        env["CUDA_VISIBLE_DEVICES"] = args.gpu_ids
    env["OMP_NUM_THREADS"] = str(args.threads)
    env["DEBUG"] = str(args.debug).lower()
    env["LOG_LEVEL"] = args.log_level
    env["SEED"] = str(args.seed)
    env["PROCS"] = str(args.procs)'''


def test_blocks_of_one_function_copied_from_one_other_are_one_finding(tmp_path: Path, cache_dir: Path) -> None:
    """accelerate's launchers (round 14): `prepare_deepspeed_env()` repeats two blocks of `prepare_multi_gpu_env()`,
    the port check and the device ladder, each a pair of its own: one change (helpers both functions call), so one
    finding with both blocks; `--omni-granularity=member` keeps one message per block."""
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/launch.py": (
            "def prepare_multi_gpu_env(args, env):" + PORT_BLOCK + "\n    mode = 'multi'\n    env['MODE'] = mode\n"
            "    for rank in range(args.procs):\n        args.spawn(rank, mode)\n    args.barrier()\n"
            "    if args.elastic:\n        args.rendezvous(args.addr)\n    args.log(mode)" + DEVICE_BLOCK + "\n    return env\n\n\n"
            "def prepare_deepspeed_env(args, env):" + PORT_BLOCK + "\n    config = args.deepspeed_config\n"
            "    stage = config.get('zero_stage', 2)\n    env['ZERO_STAGE'] = str(stage)\n"
            "    with open(config['path']) as handle:\n        env['DS_CONFIG'] = handle.read()\n"
            "    args.check(stage)" + DEVICE_BLOCK + "\n    return env\n"),
    })
    found = lint(tmp_path, cache_dir)
    assert len(found) == 1, found
    assert found[0].message.startswith("prepare_deepspeed_env() repeats 2 blocks of prepare_multi_gpu_env(): lines "), found
    assert "extract 2 helpers both functions call" in found[0].message
    assert len(lint(tmp_path, cache_dir, "--omni-granularity=member")) == 2
