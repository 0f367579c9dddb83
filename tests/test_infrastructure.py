"""replaceable-infrastructure: the SiLU shape and its traps, through real pylint runs on small projects."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import enable_args, run_pylint, write_tree

SYMBOL = "replaceable-infrastructure"


def write(root: Path, files: dict[str, str]) -> Path:
    return write_tree(root, {"pyproject.toml": "[project]\nname = 'x'\ndependencies = ['torch>=2.4']\n", **files})


CONFIDENCE = {"high": "HIGH", "medium": "INFERENCE"}


def lint(root: Path, cache_dir: Path) -> list[tuple[str, int, str, str]]:
    """(path, line, pylint confidence, text) per finding: the message, then what the report adds in full (what stays
    in glue or differs, and why the shape matches), which the message may cut to keep its budget."""
    report = cache_dir / "findings.json"
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), f"--output-format=omni-json:{report}", "pkg"],
                                     cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    assert all(len(f.message) <= 320 for f in findings), [f.message for f in findings]  # "[high] " and the budget
    candidates = json.loads(report.read_text())["candidates"]
    return [(c["path"], c["line"], CONFIDENCE[c["confidence"]], " ".join([c["message"], c.get("risk") or "", c.get("proof") or ""]))
            for c in candidates if c["symbol"] == SYMBOL]


def test_silu_shapes_fire_and_traps_stay_silent(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/act.py": """
            import torch


            def silu_a(x):
                return x * torch.sigmoid(x)


            def silu_b(self, x):
                return self.x.sigmoid() * self.x


            def quick_gelu(x):
                return x * torch.sigmoid(1.702 * x)


            def gated(x, gate):
                return x * torch.sigmoid(gate)


            def clamped(x):
                return x * torch.sigmoid(x.clamp(-10, 10))
        """,
    })
    found = lint(tmp_path, cache_dir)
    assert [(path, line, confidence) for path, line, confidence, _ in found] == [
        ("pkg/act.py", 5, "INFERENCE"), ("pkg/act.py", 9, "INFERENCE")]  # one line each: medium at most
    assert "torch.nn.functional.silu" in found[0][3] and "torch 1.7" in found[0][3]


def test_an_expression_wrapped_over_lines_is_one_line_however_often_the_module_repeats_it(
        tmp_path: Path, cache_dir: Path) -> None:
    """`x - torch.logsumexp(x, ...)` becomes `torch.log_softmax(x, ...)` where it stands, and `sum(lists, [])` a chain
    call: formatted over three lines and written twice in the module, each still deletes no line, so all stay medium
    (a one-line shape); the flatten says the call gives an iterator."""
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/loss.py": """
            import torch


            def normalised(student_logprobs, teacher_logprobs):
                student = student_logprobs - torch.logsumexp(
                    student_logprobs, dim=-1, keepdim=True
                )
                teacher = teacher_logprobs - torch.logsumexp(
                    teacher_logprobs, dim=-1, keepdim=True
                )
                return student, teacher


            def tied(groups, name):
                first = sum(
                    [[p for p in group if p != name] for group in groups], []
                )
                second = sum(
                    [[p for p in group if p == name] for group in groups], []
                )
                return len(first), second
        """,
    })
    found = lint(tmp_path, cache_dir)
    assert [(line, confidence) for _, line, confidence, _ in found] == [
        (5, "INFERENCE"), (8, "INFERENCE"), (15, "INFERENCE"), (18, "INFERENCE")], found
    assert "a one-line shape" in found[0][3] and "a one-line shape" in found[2][3]
    assert "wrap it in `list(...)` where the result is measured, indexed or read twice" in found[2][3]  # an iterator


def test_tests_and_benchmarks_are_not_audited(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/tests/test_act.py": "import torch\n\n\ndef test_silu(x):\n    assert (x * torch.sigmoid(x)).sum()\n",
        "pkg/benchmarks/bench_act.py": "import torch\n\n\ndef run(x):\n    return x * torch.sigmoid(x)\n",
    })
    assert lint(tmp_path, cache_dir) == []


def test_torch_shapes_fire_with_what_stays_and_variants_stay_silent(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/layers.py": """
            import math

            import torch


            def gelu_tanh(x):
                return x * 0.5 * (1 + torch.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


            def gelu_erf(x):
                return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


            def rms(self, x):
                variance = x.pow(2).mean(-1, keepdim=True)
                x = x * torch.rsqrt(variance + self.eps)
                return self.weight * x


            def rms_fp32_statistic(x, eps):
                return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)


            def probabilities(x):
                e = torch.exp(x - x.max(dim=-1, keepdim=True).values)
                return e / e.sum(dim=-1, keepdim=True)


            def attend(q, k, v, scale, mask):
                scores = q @ k.transpose(-2, -1) * scale
                scores = scores + mask
                probs = scores.softmax(dim=-1)
                return probs @ v


            def gate(x, g):
                return 0.5 * x * (1.0 + torch.tanh(g))


            def rms_eps_outside(x, eps):
                return x / (torch.sqrt(x.pow(2).mean(-1, keepdim=True)) + eps)


            def rms_other_dim(x, eps):
                return x * torch.rsqrt(x.pow(2).mean(1, keepdim=True) + eps)


            def unshifted(x):
                e = torch.exp(x)
                return e / e.sum(dim=-1, keepdim=True)


            def attend_fp32(q, k, v):
                return torch.softmax(q @ k.transpose(-2, -1), dim=-1, dtype=torch.float32) @ v


            def attend_dropout(q, k, v, drop):
                return drop(torch.softmax(q @ k.transpose(-2, -1), dim=-1)) @ v


            def test_reference(x):
                return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


            def fast_gelu(x):
                return 0.5 * x * (1.0 + torch.tanh(x * 0.7978845608 * (1.0 + 0.044715 * x * x)))


            def log_probabilities(logits):
                return logits - torch.logsumexp(logits, dim=-1, keepdim=True)


            def log_other(logits, other):
                return logits - torch.logsumexp(other, dim=-1, keepdim=True)


            def attend_qualified(q, k, v):
                return torch.nn.functional.softmax(torch.matmul(q, k.mT), dim=-1) @ v
        """,
    })
    found = {line: (confidence, message) for _, line, confidence, message in lint(tmp_path, cache_dir)}
    assert {line: confidence for line, (confidence, _) in found.items()} == {
        # one-line shapes are medium at most; a norm (16) and attention (33) are medium however long: fused kernels
        # are not bit-identical
        7: "INFERENCE", 11: "INFERENCE", 16: "INFERENCE", 21: "INFERENCE", 26: "INFERENCE", 33: "INFERENCE", 66: "INFERENCE",
        70: "INFERENCE", 78: "INFERENCE"}
    assert "approximate='tanh'" in found[7][1] and "torch 1.12" in found[7][1]
    assert "torch.nn.functional.rms_norm" in found[16][1] and "torch 2.4" in found[16][1] and "lines 15-16" in found[16][1]
    assert "float32 upcast" in found[16][1] and "only the statistic is float32" in found[21][1]
    assert "not bit-identical" in found[16][1] and "not bit-identical" in found[21][1]
    assert "torch.softmax" in found[26][1] and "dim=-1" in found[26][1]
    assert "scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)" in found[33][1]
    assert "approximate='tanh'" in found[66][1] and "rounds differently" in found[66][1]
    assert "torch.log_softmax" in found[70][1] and "dim=-1" in found[70][1]
    assert "lines 30-33" in found[33][1] and "dropout" in found[33][1] and "boolean mask" in found[33][1]


def test_stdlib_shapes_fire_and_traps_stay_silent(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/tables.py": """
            from dataclasses import dataclass, fields

            _TABLES = {}
            _SHARED = {}
            _NAMES = {}


            def table(size, dtype):
                key = (size, dtype)
                if key in _TABLES:
                    return _TABLES[key]
                value = [size] * 3
                _TABLES[key] = value
                return value


            def partial_key(size, dtype):
                if size in _SHARED:
                    return _SHARED[size]
                value = [size, dtype]
                _SHARED[size] = value
                return value


            def filled_on_miss(name):
                if name not in _NAMES:
                    _NAMES[name] = name.upper()
                return _NAMES[name]


            def early_exit(size):
                if size in _SHARED:
                    return _SHARED[size]
                if size < 0:
                    return None
                _SHARED[size] = size
                return size


            class PerInstance:
                def __init__(self):
                    self._cache = {}

                def get(self, size):
                    if size in self._cache:
                        return self._cache[size]
                    self._cache[size] = size
                    return size


            @dataclass
            class Inputs:
                a: int = 0

                def clone(self, **changes):
                    out = {f.name: getattr(self, f.name) for f in fields(self)}
                    out.update(changes)
                    return type(self)(**out)

                def clone_named(self, **changes):
                    out = {f.name: getattr(self, f.name) for f in fields(self)}
                    out.update(changes)
                    return Inputs(**out)

                def to_dict(self):
                    return {f.name: getattr(self, f.name) for f in fields(self)}


            class Derived(Inputs):
                pass


            @dataclass
            class Leaf:
                b: int = 0

                def clone(self, **changes):
                    out = {f.name: getattr(self, f.name) for f in fields(self)}
                    out.update(changes)
                    return Leaf(**out)
        """,
    })
    found = {line: (confidence, message) for _, line, confidence, message in lint(tmp_path, cache_dir)}
    assert {line: confidence for line, (confidence, _) in found.items()} == {8: "HIGH", 25: "HIGH", 55: "HIGH", 60: "INFERENCE", 66: "INFERENCE",
                                                                  77: "HIGH"}  # 66: `to_dict` is asdict, one line
    assert "functools.cache" in found[8][1] and "Python 3.9" in found[8][1] and "unbounded" in found[8][1]
    assert "`_TABLES` (line 3), the lookup (line 10) and the store (line 13)" in found[8][1]
    assert "the lookup (line 26) and the store (line 27)" in found[25][1]
    assert "dataclasses.replace(self, **changes)" in found[55][1] and "even for a subclass" in found[60][1]
    assert "no class of the project subclasses it" in found[77][1]


def test_layer_norm_and_lazy_property(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/mixed.py": """
            import torch


            def ln(x, eps):
                u = x.mean(-1, keepdim=True)
                s = (x - u).pow(2).mean(-1, keepdim=True)
                return (x - u) / torch.sqrt(s + eps)


            def ln_var(x, eps):
                return (x - x.mean(-1, keepdim=True)) * torch.rsqrt(x.var(-1, keepdim=True, unbiased=False) + eps)


            def ln_unbiased(x, eps):
                return (x - x.mean(-1, keepdim=True)) * torch.rsqrt(x.var(-1, keepdim=True) + eps)


            def ln_channels_first(x, eps):
                u = x.mean(1, keepdim=True)
                s = (x - u).pow(2).mean(1, keepdim=True)
                return (x - u) / torch.sqrt(s + eps)


            class Tokenizer:
                def __init__(self, model):
                    self.model = model
                    self._vocab = None
                    self._reset = None
                    self._peeked = None

                @property
                def vocab(self):
                    if self._vocab is None:
                        self._vocab = set(self.model.tokens())
                    return self._vocab

                @property
                def reset(self):
                    if self._reset is None:
                        self._reset = 1
                    return self._reset

                def clear(self):
                    self._reset = None

                @property
                def peeked(self):
                    if self._peeked is None:
                        self._peeked = 2
                    return self._peeked

                def has_peeked(self):
                    return self._peeked is not None


            class Defaulted:
                _table = None

                @property
                def table(self):
                    if self._table is None:
                        self._table = {}
                    return self._table


            class Derived(Defaulted):
                pass


            class Slotted:
                __slots__ = ("_rows",)

                def __init__(self):
                    self._rows = None

                @property
                def rows(self):
                    if self._rows is None:
                        self._rows = {}
                    return self._rows


            class Reset:
                _names = None

                @property
                def names(self):
                    if self._names is None:
                        self._names = []
                    return self._names


            class Built:
                def __init__(self, parts):
                    self.parts = parts
                    self._lens = None

                @property
                def lens(self):
                    if self._lens is None:
                        self._lens = []
                        for part in self.parts:
                            self._lens.extend(part)
                    return self._lens
        """,
        "pkg/other.py": "def reset(obj):\n    obj._names = None\n",
    })
    found = {line: (confidence, message) for _, line, confidence, message in lint(tmp_path, cache_dir)}
    assert {line: confidence for line, (confidence, _) in found.items()} == {
        # 7: a norm, never high; 11: one line; `Built.lens` builds its value in the attribute: no finding
        7: "INFERENCE", 11: "INFERENCE", 32: "HIGH", 47: "INFERENCE", 60: "HIGH", 87: "INFERENCE"}
    assert "torch.nn.functional.layer_norm" in found[7][1] and "lines 5-7" in found[7][1]
    assert "decorate it with `@functools.cached_property`" in found[32][1] and "Python 3.8" in found[32][1]
    assert "`self._vocab = None` (line 27)" in found[32][1] and "also read directly (line 53)" in found[47][1]
    assert "`_table = None` (line 57)" in found[60][1]
    assert "`_names` is also named outside the class (pkg/other.py:2)" in found[87][1]


def test_lazy_global_fires_only_for_a_compute_once_value(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/singletons.py": """
            _ENCODING = None
            _GROUP = None
            _CAPABILITY = None
            _TOKENIZER = None


            def get_encoding():
                global _ENCODING
                if _ENCODING is None:
                    _ENCODING = object()
                return _ENCODING


            def get_group():
                global _GROUP
                if _GROUP is None:
                    _GROUP = object()
                return _GROUP


            def destroy_group():
                global _GROUP
                _GROUP = None


            async def get_tokenizer():
                global _TOKENIZER
                if _TOKENIZER is None:
                    _TOKENIZER = object()
                return _TOKENIZER


            def capability():
                global _CAPABILITY
                if _CAPABILITY is None:
                    _CAPABILITY = (8, 0)
                return _CAPABILITY


            def is_hopper():
                return _CAPABILITY is not None and _CAPABILITY[0] == 9
        """,
    })
    found = {line: (confidence, message) for _, line, confidence, message in lint(tmp_path, cache_dir)}
    assert {line: confidence for line, (confidence, _) in found.items()} == {7: "HIGH", 33: "INFERENCE"}
    assert "decorate it with `@functools.cache`" in found[7][1] and "`_ENCODING = None` (line 1)" in found[7][1]
    assert "read it through `capability()`" in found[33][1]


def test_a_name_rebound_between_its_value_and_the_use_breaks_the_shape(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/norm.py": """
            import torch


            def statistic_before_cast(x, eps):
                variance = x.pow(2).mean(-1, keepdim=True)
                x = x.float()
                return x * torch.rsqrt(variance + eps)


            def cast_before_statistic(x, eps):
                x = x.float()
                variance = x.pow(2).mean(-1, keepdim=True)
                return x * torch.rsqrt(variance + eps)
        """,
    })
    assert [(line, confidence) for _, line, confidence, _ in lint(tmp_path, cache_dir)] == [(13, "INFERENCE")]  # 2 lines


def test_the_declared_floor_confirms_or_lowers_the_finding(tmp_path: Path, cache_dir: Path) -> None:
    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'x'\nrequires-python = '>=3.8'\ndependencies = ['torch>=2.0']\n",
        "pkg/__init__.py": "",
        "pkg/mod.py": """
            import torch

            _ENCODING = None


            def rms(x, eps):
                return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)


            def activate(x):
                return x * torch.sigmoid(x)


            def get_encoding():
                global _ENCODING
                if _ENCODING is None:
                    _ENCODING = object()
                return _ENCODING
        """,
    })
    found = {line: (confidence, message) for _, line, confidence, message in lint(tmp_path, cache_dir)}
    assert {line: confidence for line, (confidence, _) in found.items()} == {7: "INFERENCE", 11: "INFERENCE", 14: "INFERENCE"}
    assert "the project still supports torch 2.0 (`torch>=2.0` (pyproject.toml" in found[7][1]
    assert "needs torch 1.7, declared" in found[11][1] and "the project requires `torch>=2.0` (pyproject.toml" in found[11][1]
    assert "the project still supports python 3.8" in found[14][1]


def test_a_mean_centred_norm_is_no_rms_norm(tmp_path: Path, cache_dir: Path) -> None:
    """`(h - h.mean()) * rsqrt(var + eps)` subtracts the mean first: a LayerNorm without bias (F.layer_norm), never
    F.rms_norm."""
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/norm.py": """
            import torch


            def centred(hidden_states, eps):
                mean = hidden_states.mean(-1, keepdim=True)
                centred_states = hidden_states - mean
                variance = centred_states.pow(2).mean(-1, keepdim=True)
                return centred_states * torch.rsqrt(variance + eps)


            def rms(hidden_states, eps):
                variance = hidden_states.pow(2).mean(-1, keepdim=True)
                return hidden_states * torch.rsqrt(variance + eps)
        """,
    })
    found = {line: text for _, line, _, text in lint(tmp_path, cache_dir)}
    assert sorted(found) == [8, 13], found
    assert "hand-written LayerNorm" in found[8] and "hand-written RMSNorm" in found[13], found
