"""The copy messages' doubts learnt from judged findings on real projects: when a copy is not high.

Each test lints a small temporary project with real pylint runs: a shared utility and
the methods pasted beside it, legacy snapshots, glue blocks, blocks inside overrides
that mirror upstream, portable fallbacks of platform-only upstream modules, methods
of upstream classes the copy cannot inherit, the upstream original among namesakes,
and copies both messages would report.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from conftest import Finding, enable_args, run_pylint
from test_copies import lint, write_project

from pylint_omni.copies.fingerprints import fingerprint_source
from pylint_omni.evidence.wording import MESSAGE_BUDGET, short_message

BOTH = ["duplicated-implementation", "upstream-reimplementation"]

CHUNK = '''
    def {name}({receiver}x, rank, world_size, pad, dim):
        if pad > 0:
            if dim < 0:
                dim = x.ndim + dim
            shape = list(x.shape)
            shape[dim] = pad
            x = torch.cat([x, x.new_zeros(shape)], dim=dim)
        return torch.chunk(x, world_size, dim=dim)[rank]
'''


def chunk(name: str, receiver: str = "", indent: str = "") -> str:
    return textwrap.indent(textwrap.dedent(CHUNK.format(name=name, receiver=receiver)), indent)


def holder(cls: str, receiver: str, decorator: str = "", scale: str = "1") -> str:
    """A class with a pasted `_chunk` method and a method of its own (`scale` makes the classes differ in math)."""
    method = textwrap.indent(decorator + "\n", "    ") if decorator else ""
    return (f"import torch\n\n\nclass {cls}:\n    def shard(self, x):\n        y = x * {scale}\n        y = y + {scale}\n"
            f"        y = y.float()\n        y = y.contiguous()\n        return self._chunk(y, 0, 2, 0, 1)\n\n"
            + method + chunk("_chunk", receiver, "    "))


def test_a_method_not_reading_self_is_the_same_code_as_a_function() -> None:
    function = fingerprint_source(textwrap.dedent("import torch\n" + chunk("chunk")), "pkg.utils")
    method = fingerprint_source(holder("A", "self, "), "pkg.a")
    static = fingerprint_source(holder("B", "", "@staticmethod"), "pkg.b")
    reading = fingerprint_source(holder("C", "self, ").replace("dim = x.ndim + dim", "dim = x.ndim + self.dim"), "pkg.c")
    exact = {fact["units"][-1][1]: fact["units"][-1][6] for fact in (function, method, static, reading)}
    assert exact["chunk"] == exact["A._chunk"] == exact["B._chunk"]
    assert exact["C._chunk"] != exact["chunk"]  # a method reading self is not a function


def test_the_shared_utility_is_kept_over_methods_pasted_beside_it(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sp_utils.py": "import torch\n" + chunk("chunk_and_pad"),
        "pkg/image.py": "from pkg.sp_utils import chunk_and_pad\n\n\ndef shard(x):\n    return chunk_and_pad(x, 0, 2, 0, 1)\n",
        "pkg/models/__init__.py": "",
        "pkg/models/video.py": holder("Video", "self, ", scale="2"),
        "pkg/models/audio.py": holder("Audio", "", "@staticmethod", scale="3"),
    })
    [found] = lint(tmp_path, cache_dir)
    # The two model classes differ in math (rejected as copies); their pasted methods are one change, named there.
    assert (found.path, found.confidence) == ("pkg/models/audio.py", "HIGH")
    assert "Audio._chunk() and Video._chunk() (models/video.py) repeat chunk_and_pad() (pkg/sp_utils.py:3)" in found.message
    assert "keep chunk_and_pad() and call it from the 2 copies" in found.message


STEP = '''
    def {name}(states, sampled, eos_id):
        finished = []
        for request_id, token in sampled.items():
            state = states[request_id]
            state.output_ids.append(token)
            state.num_computed += 1
            if token == eos_id:
                finished.append(request_id)
        return finished
'''


def test_the_copy_kept_is_never_the_one_in_an_experimental_package(tmp_path: Path, cache_dir: Path) -> None:
    """TRL's `trl/experimental/utils.py` holds a copy of `trl/generation/vllm_generation.py`'s helper: stable code must
    not import from a package that may change or go without notice, so the experimental copy is the one reported."""
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/generation/__init__.py": "",
        "pkg/generation/batching.py": STEP.format(name="apply"),
        "pkg/experimental/__init__.py": "",
        "pkg/experimental/utils.py": STEP.format(name="apply"),
    })
    [copy] = lint(tmp_path, cache_dir)
    assert copy.path == "pkg/experimental/utils.py", copy



def test_a_copy_in_a_legacy_snapshot_is_medium_and_says_retire_it(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/step.py": STEP.format(name="apply"),
        "pkg/step_old.py": STEP.format(name="apply_v1"),
        "pkg/async_step.py": STEP.format(name="apply_async"),
    })
    found = {f.path: f for f in lint(tmp_path, cache_dir)}
    assert found["pkg/async_step.py"].confidence == "HIGH"
    legacy = found["pkg/step_old.py"]
    assert legacy.confidence == "INFERENCE"
    assert "retire the legacy file rather than share it" in legacy.message and "legacy snapshot" in legacy.message


def test_a_copy_in_a_standalone_script_is_medium_and_says_merge_the_scripts(tmp_path: Path, cache_dir: Path) -> None:
    """ChatLearn's data-preparation scripts run by path after a bare clone (`python pkg/prep/math.py`) and import
    nothing of the package: telling them to import the package's copy breaks them."""
    script = "import argparse\n\n" + textwrap.dedent(STEP.format(name="apply_v2")) + (
        "\n\nif __name__ == '__main__':\n    print(apply_v2({}, {}, 0), argparse.ArgumentParser())\n")
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/step.py": STEP.format(name="apply"),
        "pkg/prep/__init__.py": "",
        "pkg/prep/math_prep.py": script,
    })
    found = {f.path: f for f in lint(tmp_path, cache_dir)}
    standalone = found["pkg/prep/math_prep.py"]
    assert standalone.confidence == "INFERENCE" and "standalone script" in standalone.message, standalone.message


def test_copies_a_guide_declares_deliberate_are_medium_and_ask_for_alignment(tmp_path: Path, cache_dir: Path) -> None:
    """TRL's AGENTS.md: "Shared logic ... is deliberately duplicated across trainers": a copy is kept on purpose, and
    the project's own rule asks for copies that stay aligned, not for a helper. A guide that argues against
    duplication changes nothing."""
    files = {
        "pkg/__init__.py": "",
        "pkg/step.py": STEP.format(name="apply"),
        "pkg/async_step.py": STEP.format(name="apply_async"),
    }
    write_project(tmp_path, {**files, "AGENTS.md": "# Guide\n\nShared logic is deliberately duplicated across trainers.\n"})
    [copy] = lint(tmp_path, cache_dir)
    assert copy.confidence == "INFERENCE", copy
    assert "AGENTS.md:3" in copy.message or "on purpose" in copy.message, copy.message
    other = tmp_path / "other"
    other.mkdir()
    write_project(other, {**files, "CONTRIBUTING.md": "Avoid code that is duplicated on purpose or not.\n"})
    [copy] = lint(other, cache_dir)
    assert copy.confidence == "HIGH", copy


GLUE = '''
    def {name}(layer, query, cache, meta{extra_param}):
        layer.notify_written(meta.step)
        layer.record_start(meta.step)
        op = layer.sparse_op(meta.block_size)
        kwargs = {{"query": query,
                  "cache": cache,
                  "scale": layer.scale}}
        if meta.has_prefill:
            kwargs["prefill"] = meta.prefill_lens{more}
        {tail}
'''


ONE_TAIL = "\n        ".join(["kwargs['topk'] = meta.topk", "kwargs['compressed'] = layer.compress(cache)", "out = op(**kwargs)",
                          "out = layer.norm(out)", "out = out.view(meta.shape)", "return layer.proj(out)"])
OTHER_TAIL = "\n        ".join(["kwargs.update(cp.extra(meta))", "kwargs['topk'] = cp.gather(meta.topk)",
                            "scattered = cp.scatter(query)", "kwargs['query'] = scattered", "merged = cp.merge(op(**kwargs))",
                            "return cp.reduce(layer.proj(merged))"])


def glue(name: str, more: str, tail: str, extra_param: str = "") -> str:
    return GLUE.format(name=name, more=more, tail=tail, extra_param=extra_param)


def test_a_block_whose_helper_saves_few_lines_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    one = glue("attend", "", ONE_TAIL)
    other = glue("attend_cp", "", OTHER_TAIL, ", cp")
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/sparse.py": one, "pkg/sparse_cp.py": other})
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "a helper would save 5 lines net" in found.message
    # Three more shared lines: the helper is worth it.
    longer = "\n        kwargs['a'] = meta.a\n        kwargs['b'] = meta.b\n        kwargs['c'] = meta.c"
    one = glue("attend", longer, ONE_TAIL)
    other = glue("attend_cp", longer, OTHER_TAIL, ", cp")
    write_project(tmp_path, {"pkg/sparse.py": one, "pkg/sparse_cp.py": other})
    assert [f.confidence for f in lint(tmp_path, cache_dir)] == ["HIGH"]


UPSTREAM_RUNNER = '''
class ModelRunner:
    def execute_model(self, out):
        self.update_states(out)
        if not out.total_tokens:
            return None
        num_reqs = self.batch.num_reqs
        tokens = [out.scheduled[i] for i in self.batch.req_ids]
        longest = max(tokens)
        self.metadata = self.prepare_inputs(out, tokens)
        self.positions.copy_(self.batch.positions[:num_reqs])
        self.seq_lens.copy_(self.batch.seq_lens[:num_reqs])
        if self.uses_mrope:
            self.mrope.copy_(self.batch.mrope[:num_reqs])
        padded = self.dispatcher.pad(num_reqs, longest)
        hidden = self.model(self.input_ids[:padded], self.positions[:padded])
        logits = self.model.compute_logits(hidden[:num_reqs])
        return self.sampler(logits, self.sampling)
'''


def runner(cls: str, tail: str, base: str = "ModelRunner") -> str:
    body = UPSTREAM_RUNNER.split("def execute_model(self, out):")[1].split("        hidden = ")[0]
    return (f"from flow.runner import ModelRunner\n\n\nclass {cls}({base}):\n    def execute_model(self, out):"
            + body + textwrap.indent(textwrap.dedent(tail), "        "))


AR_TAIL = """\
hidden, media = self.model(self.input_ids[:padded], self.positions[:padded], media=True)
self.store_media(media, num_reqs)
logits = self.model.compute_logits(hidden[:num_reqs])
return self.with_media(self.sampler(logits, self.sampling))
"""
GEN_TAIL = """\
audio = self.model.generate_audio(self.input_ids[:padded], self.positions[:padded])
chunks = self.split_audio(audio, num_reqs)
self.emit(chunks)
return chunks
"""


def upstream_project(root: Path, upstream: dict[str, str], files: dict[str, str]) -> None:
    write_project(root, {".upstream/flow/__init__.py": "", **{f".upstream/flow/{k}": v for k, v in upstream.items()},
                         "pkg/__init__.py": "", **files})
    (root / "pyproject.toml").write_text(
        "[project]\nname = 'up'\n\n[tool.pylint.pylint-omni]\nomni-upstream-paths = ['.upstream']\n"
        "omni-reimplementation-upstreams = ['flow']\n")


def lint_both(root: Path, cache_dir: Path) -> list[Finding]:
    _, found, stderr = run_pylint([*enable_args(BOTH), "pkg"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return found


def test_a_block_inside_overrides_mirroring_upstream_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    upstream_project(tmp_path, {"runner.py": UPSTREAM_RUNNER},
                     {"pkg/ar.py": runner("ARRunner", AR_TAIL), "pkg/gen.py": runner("GenRunner", GEN_TAIL)})
    [block] = [f for f in lint_both(tmp_path, cache_dir) if f.symbol == "duplicated-implementation"]
    assert block.confidence == "INFERENCE" and "repeat lines" in block.message
    assert "the block repeats flow" in block.message and "ModelRunner.execute_model" in block.message
    # The same overrides of a project base class's abstract method (nothing to mirror): the block is high.
    files = {"pkg/base.py": "class LocalRunner:\n    def execute_model(self, out):\n        raise NotImplementedError\n"}
    for name, cls, tail in (("ar", "ARRunner", AR_TAIL), ("gen", "GenRunner", GEN_TAIL)):
        files[f"pkg/{name}.py"] = runner(cls, tail, "LocalRunner").replace("flow.runner import ModelRunner",
                                                                           "pkg.base import LocalRunner")
    write_project(tmp_path, files)
    blocks = [f for f in lint_both(tmp_path, cache_dir) if "repeat lines" in f.message]
    assert [f.confidence for f in blocks] == ["HIGH"]


ROTATE = '''
def rotate_half(x, interleaved=False):
    if not interleaved:
        first, second = x.chunk(2, dim=-1)
        return torch.cat((-second, first), dim=-1)
    first, second = x[..., ::2], x[..., 1::2]
    return torch.stack((-second, first), dim=-1).flatten(-2)
'''


def test_a_copy_of_a_module_imported_only_inside_functions_is_a_portable_fallback(tmp_path: Path, cache_dir: Path) -> None:
    lazy = ("import torch\n" + ROTATE + "\n\ndef rope(x, cos, sin, cuda):\n    if cuda:\n"
            "        from flow.fused.rotary import apply_rotary\n        return apply_rotary(x, cos, sin)\n"
            "    return x * cos + rotate_half(x) * sin\n")
    upstream_project(tmp_path, {"fused/__init__.py": "", "fused/rotary.py": "import torch\n" + ROTATE},
                     {"pkg/rope.py": lazy})
    [found] = lint_both(tmp_path, cache_dir)
    assert found.symbol == "upstream-reimplementation" and found.confidence == "INFERENCE"
    line = lazy.splitlines().index("        from flow.fused.rotary import apply_rotary") + 1
    assert f"only inside functions (line {line})" in found.message and "keep it as the fallback" in found.message
    # Imported at module level: the upstream function is there to use.
    eager = "from flow.fused.rotary import apply_rotary\n" + lazy.replace("        from flow.fused.rotary import apply_rotary\n", "")
    (tmp_path / "pkg/rope.py").write_text(eager)
    [found] = lint_both(tmp_path, cache_dir)
    assert found.confidence == "HIGH" and "import it from flow" in found.message


PARSE = '''
    def _parse_audio(self, **kwargs):
        features = kwargs.pop("features", None)
        lengths = kwargs.pop("lengths", None)
        if features is None:
            return None
        if lengths is None:
            lengths = [f.shape[-1] for f in features]
        return {"features": features, "lengths": lengths, "kind": "audio"}
'''
LAYER_FORWARD = '''
    def forward(self, positions, hidden, residual):
        if residual is None:
            residual = hidden
            hidden = self.norm(hidden)
        else:
            hidden, residual = self.norm(hidden, residual)
        hidden = self.attn(positions=positions, hidden=hidden)
        hidden, residual = self.post_norm(hidden, residual)
        hidden = self.mlp(hidden)
        return hidden, residual
'''


def test_a_method_of_an_upstream_class_the_copy_cannot_inherit_wants_a_mixin(tmp_path: Path, cache_dir: Path) -> None:
    upstream = {"models.py": f"class ThinkerForConditionalGeneration:{PARSE}\n\nclass AudioMixin:{PARSE}"}
    talker = "from flow import models\n\n\nclass Talker:\n    def __init__(self, config):\n        self.config = config\n{}"
    upstream_project(tmp_path, {"models.py": f"class ThinkerForConditionalGeneration:{PARSE}"},
                     {"pkg/talker.py": talker.format(PARSE)})
    [found] = lint_both(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "move it into a mixin both classes share" in found.message
    assert "flow defines it on `ThinkerForConditionalGeneration" in found.message
    # A mixin upstream: the copy's class can add it, the finding stays high.
    upstream_project(tmp_path, {"models.py": upstream["models.py"].replace("class ThinkerForConditionalGeneration:" + PARSE, "")},
                     {"pkg/talker.py": talker.format(PARSE)})
    [found] = lint_both(tmp_path, cache_dir)
    assert found.confidence == "HIGH" and "AudioMixin._parse_audio()" in found.message


LOAD = '''
    def load_weights(self, weights):
        loaded = set()
        for name, tensor in weights:
            if name.endswith(".bias"):
                continue
            self.params[name].copy_(tensor)
            loaded.add(name)
        return loaded
'''


def test_the_upstream_original_is_the_namesake_and_a_legacy_copy_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    upstream = f"class Qwen9MoeDecoderLayer:{LAYER_FORWARD}\n\nclass Qwen9DecoderLayer:{LAYER_FORWARD}"
    copy = "from flow import models\n\n\nclass Qwen9DecoderLayer:{}" + LOAD
    upstream_project(tmp_path, {"models.py": upstream}, {"pkg/qwen9_old.py": copy.format(LAYER_FORWARD)})
    [found] = lint_both(tmp_path, cache_dir)
    assert "reimplements Qwen9DecoderLayer.forward() of flow" in found.message
    assert found.confidence == "INFERENCE" and "retire the legacy file rather than share it" in found.message


SPLIT = '''
def split_into_ranges(values, size):
    if size <= 0:
        raise ValueError("size must be positive")
    ranges = []
    current = []
    for value in values:
        current.append(value)
        if len(current) == size:
            ranges.append(current)
            current = []
    if current:
        ranges.append(current)
    return ranges
'''


def test_copies_of_upstream_are_reported_once_as_upstream_copies(tmp_path: Path, cache_dir: Path) -> None:
    upstream_project(tmp_path, {"utils.py": SPLIT}, {
        "pkg/engine.py": "from flow import utils\n" + SPLIT,
        "pkg/worker.py": "from flow import utils\n" + SPLIT,
        "pkg/stage_chunks.py": "from flow import utils\n" + SPLIT.replace("split_into_ranges", "chunked").replace(
            "size must be positive", "chunks need a positive size"),
    })
    found = lint_both(tmp_path, cache_dir)
    upstream = sorted(f.path for f in found if f.symbol == "upstream-reimplementation" and f.confidence == "HIGH")
    assert upstream == ["pkg/engine.py", "pkg/worker.py"]
    # A renamed copy (its error text differs) of a project copy that is itself upstream's: medium, naming upstream.
    [copy] = [f for f in found if f.symbol == "duplicated-implementation"]
    assert copy.path == "pkg/stage_chunks.py" and copy.confidence == "INFERENCE"
    assert "the kept copy repeats flow" in copy.message and "use that one" in copy.message


FLASH = '''
def decode_attention(q, k, v, lengths, out):
    from .stage1 import decode_stage1
    from .stage2 import decode_stage2

    partial = q.new_empty(q.shape[0], 8, q.shape[-1])
    decode_stage1(q, k, v, lengths, partial)
    decode_stage2(partial, lengths, out)
    out = out.contiguous()
    return out
'''


def test_copies_importing_their_own_package_kernel_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    files = {"pkg/__init__.py": "", "pkg/llama/__init__.py": "", "pkg/phi3/__init__.py": "",
             "pkg/llama/flash.py": FLASH, "pkg/phi3/flash.py": FLASH, "pkg/llama/stage2.py": "def decode_stage2(*a):\n    return a\n",
             "pkg/phi3/stage2.py": "def decode_stage2(*a):\n    return a\n",
             "pkg/llama/stage1.py": "def decode_stage1(*a):\n    assert a[0].shape[-1] in (64, 128)\n",
             "pkg/phi3/stage1.py": "def decode_stage1(*a):\n    return a\n"}
    write_project(tmp_path, files)
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "each copy imports its own `decode_stage1`" in found.message
    assert "share one, the code each copy runs as a parameter" in found.message


FORWARD = '''
    def forward(self, input_, **kwargs):
        if self.custom_op is not None:
            out = self.custom_op.apply(input_)
            out = out.contiguous()
            return out
        out = super().forward(input_, **kwargs)
        return out
'''


COLUMN_INIT = '''
    def __init__(self, sizes, bias, tp_size):
        super().__init__(sum(sizes), sizes[0], bias=bias)
        self.sizes = list(sizes)
        self.shards = [size // tp_size for size in sizes]
        self.offsets = [sum(self.shards[:i]) for i in range(len(self.shards))]
        self.custom_op = None
'''


def test_a_method_calling_super_in_unrelated_classes_wants_a_mixin(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/column.py": "from torch import nn\n\n\nclass ColumnLinear(nn.Linear):" + COLUMN_INIT + FORWARD,
        "pkg/row.py": "from torch import nn\n\n\nclass RowLinear(nn.Module):" + FORWARD,
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "move it into a mixin each class lists before its base" in found.message


ORACLE = '''
def torch_att(xq, xk, bs, seqlen, num_head, head_dim):
    xq = xq.view(bs, 1, num_head, head_dim)
    xk = xk.view(bs, seqlen, num_head, head_dim)
    keys = xk.transpose(1, 2)
    scores = (xq.transpose(1, 2) @ keys.transpose(2, 3)).squeeze()
    return scores.view(num_head, -1)
'''


def test_copies_nobody_calls_are_dead_code_not_copies_to_share(tmp_path: Path, cache_dir: Path) -> None:
    kernel = "\n\ndef token_att_fwd(q, k):\n    return q @ k\n"
    files = {"pkg/__init__.py": "", **{f"pkg/{name}.py": ORACLE + kernel for name in ("bloom", "llama", "mistral")},
             "pkg/use.py": "".join(f"from pkg.{name} import token_att_fwd as {name}\n" for name in ("bloom", "llama", "mistral"))}
    write_project(tmp_path, files)
    [found] = lint(tmp_path, cache_dir)  # the two copies after the kept one: one change
    assert found.confidence == "INFERENCE" and "delete the copies nobody calls" in found.message
    (tmp_path / "pkg/check.py").write_text("from pkg.llama import torch_att\n\nprint(torch_att)\n")
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "HIGH" and "keep torch_att() and call it from the 2 copies" in found.message


MLP_FORWARD = '''
    def forward(self, hidden_states):
        hidden_states = self.fc1(hidden_states)
        hidden_states = self.activation_fn(hidden_states)
        hidden_states = self.fc2(hidden_states)
        return hidden_states
'''


def test_a_small_body_copied_three_times_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    files = {"pkg/__init__.py": "", **{f"pkg/{name}.py": f"class {name.title()}MLP:{MLP_FORWARD}\n\nused = {name.title()}MLP\n"
                                       for name in ("clip", "siglip", "llama4")}}
    write_project(tmp_path, files)
    found = lint(tmp_path, cache_dir)
    assert found and all(f.confidence == "INFERENCE" and "a small body (4 statements)" in f.message for f in found)


PARSE_INPUTS = PARSE.replace("_parse_audio", "_parse_inputs").replace('"kind": "audio"', '"scale": self.scale')


OWN = '''
    def {0}(self, hidden):
        hidden = self.{0}_proj(hidden)
        hidden = hidden.softmax(-1)
        tokens = hidden.argmax(-1)
        self.history.append(tokens)
        return self.{0}_head(tokens)
'''


def test_a_method_pasted_into_sibling_classes_belongs_in_their_shared_base(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": "class OmniMixin:\n    scale = 1\n",
        "pkg/thinker.py": "from pkg.base import OmniMixin\n\n\nclass Thinker(OmniMixin):" + PARSE_INPUTS + OWN.format("think"),
        "pkg/talker.py": "from pkg.base import OmniMixin\n\n\nclass Talker(OmniMixin):" + PARSE_INPUTS + OWN.format("speak"),
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "HIGH", found.message
    assert "move it into OmniMixin, which both classes derive from" in found.message


INIT_SETUP = '''
    def __init__(self):
        config = get_config()
        self.use_graph = config.compile_level > 0 and not config.eager
        self.dynamic_eplb = config.eplb.dynamic or config.eplb.expert_map_record
        self.group = get_ep_group()
        self.experts = build_expert_map(config.num_experts, self.group.world_size)
        self.buffers = [torch.empty(size) for size in config.buffer_sizes]
'''
LOAD_EXPERTS = '''
    def _load_experts(self, name, weight, params, mapping):
        for param_name, weight_name, expert_id, shard_id in mapping:
            if weight_name not in name:
                continue
            name = name.replace(weight_name, param_name)
            param = params[name]
            load_weight(param, weight, expert_id=expert_id, shard_id=shard_id)
            break
        else:
            load_weight(params[name], weight)
'''


def test_overrides_inherited_or_skipped_and_borrowed_constructors(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/schemes.py": ("class W4A16Scheme:" + INIT_SETUP + OWN.format("quantize") + "\n\nclass W4A8Scheme:" + INIT_SETUP
                           + OWN.format("dequantize")),
        "pkg/models.py": ("class DeepseekV2:" + LOAD_EXPERTS + "\n\nclass DeepseekMTP:" + LOAD_EXPERTS
                          + OWN.format("draft") + "\n\nclass Glm4MoeMTP(DeepseekMTP):" + LOAD_EXPERTS + OWN.format("glm")),
    })
    found = {f.line: f for f in lint(tmp_path, cache_dir)}
    borrowed = next(f for f in found.values() if "__init__" in f.message)
    assert borrowed.confidence == "INFERENCE" and "move it into a mixin each class lists before its base" in borrowed.message
    override = next(f for f in found.values() if f.message.startswith("Glm4MoeMTP._load_experts()"))
    assert override.confidence == "HIGH" and "delete the override: the inherited DeepseekMTP._load_experts()" in override.message


LAYERS = '''
class BaseModel:
    def init_config(self):
        self.config = load(self.path)
        self.config["layers"] = int(self.config["layers"])
        self.heads = self.config["heads"]
        self.kv_heads = self.config.get("kv_heads", self.heads)
        self.head_dim = self.config["hidden"] // self.heads
        return self.config


class LlamaModel(BaseModel):
    def init_config(self):
        super().init_config()
        self.kv_heads = self.config["num_key_value_heads"]


class VisionModel(LlamaModel):
    def init_config(self):
        self.config = load(self.path)
        self.config["layers"] = int(self.config["layers"])
        self.heads = self.config["heads"]
        self.kv_heads = self.config.get("kv_heads", self.heads)
        self.head_dim = self.config["hidden"] // self.heads
        return self.config
'''


def test_an_override_skipping_a_nearer_version_is_not_deleted(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/models.py": LAYERS})
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "it overrides LlamaModel's version" in found.message
    assert "call BaseModel.init_config() explicitly" in found.message


def test_keeping_a_copy_whose_module_imports_this_one_would_be_a_cycle(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/qwen3_vl.py": "from pkg.common import helper\n" + textwrap.dedent(STEP.format(name="apply")),
        "pkg/common.py": "def helper():\n    return 1\n" + textwrap.dedent(STEP.format(name="apply")),
        "pkg/run.py": "from pkg.qwen3_vl import apply\nfrom pkg.common import apply as apply_common\n",
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.path == "pkg/qwen3_vl.py" and found.confidence == "HIGH"  # common.py does not import qwen3_vl
    (tmp_path / "pkg/common.py").write_text("from pkg import qwen3_vl\n" + textwrap.dedent(STEP.format(name="apply")))
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE" and "already imports this module" in found.message


def test_methods_of_unrelated_classes_share_through_a_base_and_a_super_block_stays(tmp_path: Path, cache_dir: Path) -> None:
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/audio.py": "class AudioItem:" + PARSE_INPUTS + OWN.format("read"),
        "pkg/image.py": "class ImageItem:" + PARSE_INPUTS + OWN.format("load"),
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "HIGH" and "share it via a base class or mixin" in found.message


def test_a_cut_message_keeps_the_lines_that_go() -> None:
    evidence = "6 copies: 3 identical, 3 drifted: " + ", ".join(f"models/model_{i}.py" for i in range(30)) + "; 17 lines go"
    text = short_message("Qwen2Model.attn() repeats LlamaModel.attn() (models/llama.py:65)", "keep one and call it here",
                         evidence, keep_last=True)
    assert text.endswith("…; 17 lines go).") and len(text) <= MESSAGE_BUDGET


def test_a_method_repeated_in_its_own_class_is_called_not_moved(tmp_path: Path, cache_dir: Path) -> None:
    source = "class Embed:" + PARSE_INPUTS + OWN.format("embed") + PARSE_INPUTS.replace("_parse_inputs", "_parse_audio_inputs")
    write_project(tmp_path, {"pkg/__init__.py": "", "pkg/embed.py": source})
    [found] = lint(tmp_path, cache_dir)
    assert "keep one and call it here" in found.message and "base class or mixin" not in found.message


def test_a_block_of_wrappers_repeating_the_wrapped_upstream_method_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    wrapper = "from flow.runner import ModelRunner\n\n\nclass {cls}:\n    wrapped = ModelRunner\n\n    def execute_model(self, out):"
    body = UPSTREAM_RUNNER.split("def execute_model(self, out):")[1].split("        hidden = ")[0]
    files = {f"pkg/{name}.py": wrapper.format(cls=cls) + body + textwrap.indent(textwrap.dedent(tail), "        ")
             for name, cls, tail in (("ar", "ARWrapper", AR_TAIL), ("gen", "GenWrapper", GEN_TAIL))}
    upstream_project(tmp_path, {"runner.py": UPSTREAM_RUNNER}, files)
    [block] = [f for f in lint_both(tmp_path, cache_dir) if f.symbol == "duplicated-implementation"]
    assert block.confidence == "INFERENCE" and "the block repeats flow" in block.message


ACTIONS = '''
def {name}(parser, helper):
    {acts}
    group = parser.add_argument_group("engine arguments")
    group.actions.append({a})
    group.actions.append({b})
    group.actions.append({c})
    group.actions.append({d})
    group.actions.append({e})
    group.actions.append({f})
    group.actions.append({g})
    helper.finish(group)
    return group
'''


def test_a_block_that_only_passes_many_variables_on_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """The same calls on other variables (two lists of command-line actions): a helper would only re-list them."""
    names = ["dtype", "tp", "session_len", "batch", "cache", "prefix", "quant", "window"]
    chat = [f"{n}_act" for n in names[:7]]
    serve = [f"{n}_act" for n in names[1:]]
    def acts(used: list[str], how: str) -> str:
        return "\n    ".join(how.format(n, n.removesuffix("_act")) for n in used)
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/chat.py": ACTIONS.format(name="add_chat", acts=acts(chat, "{} = helper.{}(parser)"), **dict(zip("abcdefg", chat))),
        "pkg/serve.py": ACTIONS.format(name="add_serve", acts=acts(serve, "{} = parser.add_argument('--{}', default=None)"),
                                       **dict(zip("abcdefg", serve))),
    })
    [found] = lint(tmp_path, cache_dir)
    assert found.confidence == "INFERENCE", found.message
    assert "a helper would only pass 7 of the caller's variables on (tp_act, session_len_act, batch_act, …)" in found.message


def test_a_copy_between_two_vendored_trees_is_rejected(tmp_path: Path, cache_dir: Path) -> None:
    """Two vendored projects (`thirdparty/a/`, `thirdparty/b/`) repeating one helper: their duplication, resynced as a
    whole, is not the project's to share (rejected at any confidence); a vendored copy of the project's own code stays."""
    write_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/thirdparty/__init__.py": "",
        "pkg/thirdparty/tts_a/__init__.py": "",
        "pkg/thirdparty/tts_a/steps.py": STEP.format(name="apply"),
        "pkg/thirdparty/tts_b/__init__.py": "",
        "pkg/thirdparty/tts_b/steps.py": STEP.format(name="apply_b"),
    })
    found = lint(tmp_path, cache_dir, "--omni-include-rejected=y")
    assert [(f.path, f.confidence) for f in found] == [("pkg/thirdparty/tts_b/steps.py", "UNDEFINED")]
    assert "both copies are vendored (pkg/thirdparty/)" in found[0].message

