"""unused-registry-entry judged by read paths, and `explain` agreeing with the messages."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import SAMPLE_REPO

# Each entry judged on its own: one message per member (the change sets are pinned in test_change_sets.py).
REGISTRY = ["--disable=all", "--enable=unused-registry-entry", "--omni-granularity=member"]


def explain(name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pylint_omni", "explain", name], cwd=SAMPLE_REPO,
                          capture_output=True, text=True, timeout=300)


@dataclass(frozen=True)
class Judged:
    """One registry finding as the JSON report gives it: the message and the full reason behind it."""

    message: str
    confidence: str
    reason: str
    kind: str


CONFIDENCE = {"high": "HIGH", "medium": "INFERENCE", None: "UNDEFINED"}


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> list[Judged]:
    env = {**os.environ, "PYLINT_OMNI_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    proc = subprocess.run([sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--persistent=n", *REGISTRY,
                           "--output-format=omni-json", "tinyomni"], cwd=SAMPLE_REPO, capture_output=True, text=True,
                          env=env, timeout=600)
    assert "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    return [Judged(f["message"], CONFIDENCE[f["confidence"] if f["status"] == "candidate" else None], f["reason"], f["kind"])
            for f in [*data["candidates"], *data["rejected"]]]


def key_of(finding: Judged) -> str:
    return re.match(r"Registry entry '([^']+)'", finding.message).group(1)  # type: ignore[union-attr]


@pytest.mark.parametrize("key,confidence,reason", [
    ("st", "HIGH", "no read of tinyomni.model_executor.load_formats.LOAD_FORMATS can produce it"),
    ("relu_squared", "HIGH", "no read of tinyomni.model_executor.activations.ACTIVATIONS can produce it"),
    ("flush-metrics", "HIGH", "is never read"),
    ("VocoderStage", "HIGH", "nothing imports it from the package"),
    ("rms_norm_legacy", "HIGH", "no torch.ops call uses the op"),
    # The table's other keys name the project's own classes: it is keyed by the classes the project builds, and an
    # upstream class the project never names is not one of them.
    ("UpstreamAudioTransformer", "HIGH", "no project class is named UpstreamAudioTransformer; the table's other keys name the project's own classes"),
    ("thinker_to_vocoder_direct", "HIGH", "no qualname built in code or configuration reaches it"),
    ("fused_add_norm", "UNDEFINED", "tinyupstream/ops.py:11 (upstream torch.ops)"),
])
def test_planted_read_path_cases(findings: list[Judged], key: str, confidence: str, reason: str) -> None:
    found = [f for f in findings if key_of(f) == key]
    assert len(found) == 1, found
    assert found[0].confidence == confidence
    assert reason in found[0].reason


@pytest.mark.parametrize("key", ["safetensors", "gguf", "silu", "ThinkerStage", "TalkerStage", "rotary_fused",
                                 "UpstreamVideoTransformer", "thinker_to_talker", "talker_to_vocoder"])
def test_traps_stay_live(findings: list[Judged], key: str) -> None:
    assert not [f for f in findings if key_of(f) == key]


def test_explain_agrees_with_every_registry_message(findings: list[Judged]) -> None:
    for finding in findings:
        key = key_of(finding)
        if key == "*" or finding.kind == "qualname-function":
            continue
        out = explain(key)
        assert out.returncode == 0, out.stdout
        expected = {"HIGH": "candidate (high)", "INFERENCE": "candidate (medium)", "UNDEFINED": "rejected"}[finding.confidence]
        assert f"unused-registry-entry verdict: {expected}" in out.stdout, (key, out.stdout)


def test_explain_never_counts_the_entry_itself_nor_archived_pages() -> None:
    out = explain("TINYOMNI_USE_LEGACY_SCHEDULER").stdout
    assert "resolved production consumers of the key: 0" in out
    assert "tinyomni/envs.py:9" not in out.partition("verdict")[2]
    retry = explain("RetryPolicy").stdout
    assert "docs/design/archive" not in retry


def test_explain_a_dotted_class_finds_it_and_its_mentions() -> None:
    out = explain("tinyomni.attention.backends.AttentionBackendEnum")
    assert out.returncode == 0
    assert "class tinyomni.attention.backends.AttentionBackendEnum (tinyomni/attention/backends.py:6)" in out.stdout
    assert "tinyomni/attention/selector.py:9 (load)" in out.stdout
    assert "resolved production consumers: 3" in out.stdout


def test_explain_a_field_shows_its_upstream_readers() -> None:
    out = explain("tinyomni.engine.omni_request.OmniRequest.priority_hint").stdout
    assert "upstream readers: 1" in out and "tinyupstream/scheduler.py:11" in out


def test_a_missing_upstream_folder_is_a_usage_error(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", *REGISTRY,
               f"--omni-upstream-paths={tmp_path / 'nowhere'}", "tinyomni"]
    proc = subprocess.run(command, cwd=SAMPLE_REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode & 32 and "omni-upstream-paths entry" in proc.stderr and "no such folder" in proc.stderr


def test_a_function_its_decorator_registers_is_no_entry_of_its_qualname_loaded_module(tmp_path: Path) -> None:
    """verl's `@register_adv_est(Estimator.X)` files a function under a key a config value looks up, and
    Xinference's `@cli.command("stop-cluster")` hands one to its command group and aibrix's `@router.post(...)` to its
    app; that their module is also loaded by qualname elsewhere does not make any an entry nobody builds."""
    from conftest import enable_args, run_pylint

    files = {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/algos.py": (
            "import enum\n\nREGISTRY = {}\n\n\nclass Kind(str, enum.Enum):\n    FAST = 'fast'\n\n\n"
            "def register(kind):\n    def wrap(fn):\n        REGISTRY[kind.value] = fn\n        return fn\n    return wrap\n\n\n"
            "def get_fn(name):\n    return REGISTRY[name]\n\n\n"
            "@register(Kind.FAST)\ndef fast_estimate(x):\n    return x\n\n\n"
            "def vanilla_loss(x):\n    return x\n\n\n"
            "def forgotten_loss(x):\n    return x\n\n\n"
            "cli = object()\n\n\n@cli.command('stop')\ndef stop_all(x):\n    return x\n\n\n"
            "router = object()\n\n\n@router.post('/v1/lora/load')\nasync def load_lora(request):\n    return request\n"
        ),
        "app/main.py": (
            "import importlib\nimport sys\n\nfrom app.algos import get_fn\n\n\n"
            "def main():\n    module, _, name = 'app.algos.vanilla_loss'.rpartition('.')\n"
            "    loss = getattr(importlib.import_module(module), name)\n    return get_fn(sys.argv[1]), loss\n\n\n"
            "if __name__ == '__main__':\n    main()\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    _, found, stderr = run_pylint([*enable_args(["unused-registry-entry"]), "app"], cwd=tmp_path, cache_dir=tmp_path / "c")
    assert "Traceback" not in stderr, stderr
    flagged = {f.line for f in found if f.symbol == "unused-registry-entry" and "[rejected]" not in f.message}
    # forgotten_loss; fast_estimate (23) is registered, stop_all (37) is a command, load_lora (45) a route the app calls
    assert flagged == {30}, found


def test_a_table_carried_whole_inside_a_tuple_or_a_dict_value_is_read_by_whoever_unpacks_it(tmp_path: Path) -> None:
    """A patch table grouped as `[("qwen2", module, QWEN2_PATCHES), ...]` and applied in a loop over the groups, or
    kept as a value of another table, travels whole: any key may be read. A table nothing holds stays a candidate."""
    from conftest import enable_args, run_pylint, write_tree

    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/patches.py": (
            "def norm(x):\n    return x\n\n\ndef mlp(x):\n    return x\n\n\n"
            "QWEN2_PATCHES = {\n    'RMSNorm': norm,\n    'MLP.forward': mlp,\n}\n\n"
            "QWEN3_PATCHES = {\n    'RMSNorm': norm,\n    'MLP.forward': mlp,\n}\n\n"
            "LLAMA_PATCHES = {\n    'RMSNorm': norm,\n    'MLP.forward': mlp,\n}\n\n"
            "BY_FAMILY = {'llama': LLAMA_PATCHES}\n\n\n"
            "def apply(module, family):\n"
            "    groups = [('qwen2', module, QWEN2_PATCHES)]\n"
            "    groups.append(('family', module, BY_FAMILY[family]))\n"
            "    for _name, target, patches in groups:\n"
            "        for path, value in dict(patches).items():\n"
            "            setattr(target, path, value)\n"
        ),
        "app/main.py": "import sys\n\nfrom app.patches import apply\n\n\nif __name__ == '__main__':\n    apply(sys, sys.argv[1])\n",
    })
    _, found, stderr = run_pylint([*enable_args(["unused-registry-entry"]), "--omni-granularity=member", "app"],
                                  cwd=tmp_path, cache_dir=tmp_path / "c")
    assert "Traceback" not in stderr, stderr
    flagged = {f.line for f in found if f.symbol == "unused-registry-entry" and "[rejected]" not in f.message}
    assert flagged == {15, 16}, found  # QWEN3_PATCHES' entries; QWEN2 rides in a tuple, LLAMA in BY_FAMILY's value


def test_a_registry_read_by_a_data_field_is_fed_only_by_that_fields_values(tmp_path: Path) -> None:
    """`TOOL_PARSERS[family.tool_parser]` with specs shipped as JSON: `"tool_parser": "qwen"` selects the qwen
    parser (live); "deepseek-v3" is only ever a `model_name` in the data (and docs naming the model) — the parser
    written for it is never selected: a candidate, medium because a user's spec may still type the key."""
    from conftest import enable_args, run_pylint, write_tree

    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/parsers.py": (
            "TOOL_PARSERS = {}\n\n\ndef register(name):\n    def wrap(cls):\n        TOOL_PARSERS[name] = cls\n"
            "        return cls\n    return wrap\n\n\n"
            "@register('qwen')\nclass QwenParser:\n    pass\n\n\n"
            "@register('deepseek-v3')\nclass DeepseekParser:\n    pass\n"
        ),
        "app/families.json": (
            '[{"model_name": "qwen2", "tool_parser": "qwen"},\n'
            ' {"model_name": "deepseek-v3", "tool_parser": "deepseek_v3"}]\n'
        ),
        "app/core.py": (
            "import json\nimport pathlib\n\nfrom app.parsers import TOOL_PARSERS\n\n\n"
            "class Family:\n    def __init__(self, spec):\n        self.tool_parser = spec.get('tool_parser')\n\n\n"
            "def parser_for(family):\n    if family.tool_parser not in TOOL_PARSERS:\n        return None\n"
            "    return TOOL_PARSERS[family.tool_parser]()\n\n\n"
            "def main():\n    specs = json.loads((pathlib.Path(__file__).parent / 'families.json').read_text())\n"
            "    return [parser_for(Family(s)) for s in specs]\n\n\nif __name__ == '__main__':\n    main()\n"
        ),
        "docs/models.md": "# Models\n\n- deepseek-v3: a large model\n- qwen2\n",
    })
    _, found, stderr = run_pylint([*enable_args(["unused-registry-entry"]), "--omni-granularity=member",
                                   "--omni-include-rejected=y", "app"], cwd=tmp_path, cache_dir=tmp_path / "c")
    assert "Traceback" not in stderr, stderr
    by_line = {f.line: f for f in found if f.symbol == "unused-registry-entry"}
    assert by_line[16].confidence == "INFERENCE", found  # deepseek-v3
    assert "model_name, not tool_parser" in by_line[16].message or "another field" in by_line[16].message, by_line[16]
    assert 11 not in by_line or by_line[11].confidence == "UNDEFINED", found  # qwen is selected by the data


def test_a_list_a_registering_decorator_appends_to_is_its_storage(tmp_path: Path) -> None:
    """`@register_non_default_model("OPTForCausalLM")` appends each name to a module list that a matcher receives
    whole: the list is the registry's storage, handed out (rejected). A list no code reads after the appends keeps
    its entries candidates (the registry is never read)."""
    from conftest import enable_args, run_pylint, write_tree

    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/core.py": (
            "NON_DEFAULT = []\nRETIRED = []\n\n\n"
            "def register_non_default(*names):\n    def wrap(cls):\n        for name in names:\n"
            "            NON_DEFAULT.append(name)\n        return cls\n    return wrap\n\n\n"
            "def register_retired(*names):\n    def wrap(cls):\n        for name in names:\n"
            "            RETIRED.append(name)\n        return cls\n    return wrap\n\n\n"
            "def matches(architectures, supported):\n    return any(a in supported for a in architectures)\n\n\n"
            "def supported(architectures):\n    return matches(architectures, NON_DEFAULT)\n"
        ),
        "app/models.py": (
            "from app.core import register_non_default, register_retired\n\n\n"
            "@register_non_default('OPTForCausalLM')\nclass Opt:\n    pass\n\n\n"
            "@register_non_default('GPT2LMHeadModel')\nclass Gpt2:\n    pass\n\n\n"
            "@register_retired('BloomForCausalLM')\nclass Bloom:\n    pass\n\n\n"
            "@register_retired('FalconForCausalLM')\nclass Falcon:\n    pass\n"
        ),
        "app/main.py": (
            "import sys\n\nimport app.models\nfrom app.core import supported\n\n\n"
            "if __name__ == '__main__':\n    print(app.models, supported(sys.argv[1:]))\n"
        ),
    })
    _, found, stderr = run_pylint([*enable_args(["unused-registry-entry"]), "--omni-granularity=member",
                                   "--omni-include-rejected=y", "app"], cwd=tmp_path, cache_dir=tmp_path / "c")
    assert "Traceback" not in stderr, stderr
    by_line = {f.line: f for f in found if f.symbol == "unused-registry-entry" and f.path == "app/models.py"}
    assert by_line[4].confidence == "UNDEFINED" and "handed out" in by_line[4].message, by_line
    assert by_line[14].confidence == "HIGH" and "never read" in by_line[14].message, by_line


def test_a_class_name_key_lives_when_an_indexed_upstream_package_defines_the_class(tmp_path: Path) -> None:
    """llm-compressor keys its AWQ mappings by `model.__class__.__name__`; the models come from transformers'
    `from_pretrained`, which builds classes the project never names (judged wrong as "no read can produce it").
    A key no class of the project or of an indexed package is named stays a candidate, at high confidence when
    every package the project imports is indexed. (The stand-in sits in a dot-folder, which the project's index skips.)"""
    from conftest import enable_args, run_pylint, write_tree

    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\n",
        ".up/hfstub/__init__.py": """
            class StubEncoder:
                pass


            def from_pretrained(name):
                return StubEncoder()
        """,
        "app/__init__.py": "",
        "app/mappings.py": """
            def build_stub(model):
                return [model]


            def build_ghost(model):
                return [model, model]


            def mappings_for(model):
                model_name = model.__class__.__name__
                if model_name in MAPPINGS:
                    return MAPPINGS[model_name](model)
                return []


            MAPPINGS = {
                "StubEncoder": build_stub,
                "GhostEncoder": build_ghost,
            }
        """,
        "app/main.py": """
            import sys

            import hfstub

            from app.mappings import mappings_for


            def main():
                return mappings_for(hfstub.from_pretrained(sys.argv[1]))


            if __name__ == "__main__":
                main()
        """,
    })
    args = [*enable_args(["unused-registry-entry"]), "--omni-granularity=member", f"--omni-upstream-paths={tmp_path / '.up'}", "app"]
    _, found, stderr = run_pylint(args, cwd=tmp_path, cache_dir=tmp_path / "c")
    assert "Traceback" not in stderr, stderr
    flagged = [(f.line, f.confidence) for f in found if f.symbol == "unused-registry-entry" and "[rejected]" not in f.message]
    assert flagged == [(18, "HIGH")], found  # GhostEncoder; StubEncoder (17) is a class hfstub defines


def test_a_registry_of_sections_is_read_by_its_last_key(tmp_path: Path) -> None:
    """AutoRound's GGUF converters: `@ModelBase.register("T5ForConditionalGeneration")` stores
    `cls._model_classes[model_type][name] = modelcls`, read as `ModelBase._model_classes[model_type][name]` with the
    architecture a model's config names. The nested subscripts hid both sides: 72 entries were "never read" (high)."""
    from conftest import enable_args, run_pylint, write_tree

    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/base.py": (
            "class ModelBase:\n    _model_classes: dict = {'text': {}, 'mmproj': {}}\n\n"
            "    @classmethod\n    def register(cls, *names):\n        def wrap(modelcls):\n"
            "            for name in names:\n                cls._model_classes['text'][name] = modelcls\n"
            "            return modelcls\n\n        return wrap\n\n\n"
            "def get_model_class(name, kind='text'):\n    return ModelBase._model_classes[kind][name]\n"
        ),
        "app/t5.py": (
            "from app.base import ModelBase\n\n\n@ModelBase.register('T5ForConditionalGeneration')\n"
            "@ModelBase.register('UMT5Model')\nclass T5Model(ModelBase):\n    pass\n"
        ),
        "app/main.py": (
            "import json\nimport sys\n\nimport app.t5\nfrom app.base import get_model_class\n\n\n"
            "if __name__ == '__main__':\n    arch = json.load(open(sys.argv[1]))['architectures'][0]\n"
            "    print(app.t5, get_model_class(arch))\n"
        ),
    })
    _, found, stderr = run_pylint([*enable_args(["unused-registry-entry"]), "app"], cwd=tmp_path, cache_dir=tmp_path / "c")
    assert "Traceback" not in stderr, stderr
    assert not [f for f in found if f.symbol == "unused-registry-entry" and f.confidence == "HIGH"], found


def test_a_registry_read_by_a_blocks_class_name_keeps_entries_naming_upstream_classes(tmp_path: Path) -> None:
    """AutoRound's `_BLOCK_OUTPUT_REGISTRY.get(block_cls_name)` with `block_cls_name = block.__class__.__name__ if
    block is not None else None`: the key is a class's name, so an entry naming a class the project does not define
    (transformers' `GlmMoeDsaDecoderLayer`, of a release newer than any indexed one) is not "never produced" (high). (Output-key lists registered the same way
    are data, no registry: a list of names is no code target.)"""
    from conftest import enable_args, run_pylint, write_tree

    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\ndependencies = ['transformers>=99.0']\n",
        "app/__init__.py": "",
        "app/runner.py": (
            "import transformers\n\n_BLOCK_OUTPUT_REGISTRY = {}\n\n\ndef register_block_output(name, handler):\n    _BLOCK_OUTPUT_REGISTRY[name] = handler\n\n\n"
            "class TopKForwarder:\n    keys = ['prev_topk_indices']\n\n\n"
            "register_block_output('GlmMoeDsaDecoderLayer', TopKForwarder)\n\n\n"
            "def output_keys(block=None):\n    block_cls_name = block.__class__.__name__ if block is not None else None\n"
            "    return _BLOCK_OUTPUT_REGISTRY.get(block_cls_name)\n"
        ),
        "app/main.py": "import sys\n\nfrom app.runner import output_keys\n\n\nif __name__ == '__main__':\n    print(output_keys(sys))\n",
    })
    _, found, stderr = run_pylint([*enable_args(["unused-registry-entry"]), "app"], cwd=tmp_path, cache_dir=tmp_path / "c")
    assert "Traceback" not in stderr, stderr
    assert not [f for f in found if f.symbol == "unused-registry-entry" and f.confidence == "HIGH"], found
