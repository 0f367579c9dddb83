"""Candidates are change sets: one message per change a maintainer would make, its members in the details.

The planted cases of sample_repo/ (PLANTED.md, "Change sets") pin the four rules the
audit asks for; small projects written here pin the rest: findings inside deleted code
taken in, one id per member at either granularity, a baseline written per member, and
the commit that last changed a lost feature's calls.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from conftest import SAMPLE_REPO, enable_args, run_pylint

SERVING = "tinyomni/serving"


def omni_json(args: list[str], cwd: Path, cache: Path) -> dict[str, Any]:
    env = dict(os.environ, PYLINT_OMNI_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--persistent=n",
                           "--output-format=omni-json", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return omni_json([*enable_args(), "tinyomni"], SAMPLE_REPO, tmp_path_factory.mktemp("cache"))


def at(report: dict[str, Any], path: str, line: int | None = None) -> list[dict[str, Any]]:
    return [c for c in report["candidates"] if c["path"] == path and (line is None or c["line"] == line)]


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text).lstrip("\n"))
    return root


def test_a_sibling_mixins_call_keeps_the_method_live(sample: dict[str, Any]) -> None:
    """`self._append_runtime_input()` in IntakeMixin runs BufferMixin's method in IntakeQueue, which combines both."""
    assert at(sample, f"{SERVING}/intake.py") == []


def test_a_dead_classs_init_state_goes_with_its_methods(sample: dict[str, Any]) -> None:
    found = at(sample, f"{SERVING}/pipeline_link.py")
    assert len(found) == 1, found
    cluster = found[0]
    assert cluster["symbol"] == "unused-surface" and cluster["confidence"] == "high" and cluster["line"] == 6
    assert "2 methods nothing calls (send_tensor and recv_tensor) and 2 fields only they read" in cluster["message"]
    assert {m["subject"].rpartition(".")[2] for m in cluster["members"]} == {"send_tensor", "recv_tensor"}
    # The lines that build the state go too: the process group's and the buffer's, and nothing of the live rank.
    assert "send_group: line 10" in cluster["simplification"] and "recv_buffer: line 11" in cluster["simplification"]
    assert "rank" not in cluster["simplification"].replace("next_rank", "")
    assert "resource built for them alone" in cluster["simplification"]
    assert cluster["heat"] == "never" and cluster["benefit_lines"] == 7


def test_a_lazy_export_table_nobody_reads_through_is_one_candidate_that_keeps_its_targets(sample: dict[str, Any]) -> None:
    found = at(sample, f"{SERVING}/backends/__init__.py")
    assert len(found) == 1, found
    table = found[0]
    assert table["symbol"] == "unused-registry-entry" and table["confidence"] == "high" and table["line"] == 5
    assert "any of the 2 entries of _LAZY_BACKENDS" in table["message"] and "__getattr__ and __dir__" in table["message"]
    assert "never the definitions it names" in table["message"]
    # The live classes it points to are never named for deletion, in the message or the details.
    for text in (table["message"], table["simplification"]):
        assert "delete class" not in text.lower() and "then delete" not in text
    assert "tests/test_backends.py" in table["simplification"]  # the test that imports through it changes
    assert sorted(m["subject"] for m in table["members"]) == [
        "tinyomni.serving.backends._LAZY_BACKENDS['FirstBackend']", "tinyomni.serving.backends._LAZY_BACKENDS['RoundRobinBackend']"]
    assert at(sample, f"{SERVING}/backends/round_robin.py") == [] and at(sample, f"{SERVING}/backends/first.py") == []


def test_a_config_key_shipped_in_yaml_whose_only_reader_is_dead_is_a_lost_feature(sample: dict[str, Any]) -> None:
    found = at(sample, f"{SERVING}/runtime_env.py")
    assert len(found) == 1, found
    lost = found[0]
    assert lost["kind"] == "lost-feature" and lost["confidence"] == "high" and lost["benefit_kind"] == "feature"
    assert lost["message"].startswith("Orphaned: config key `stages[].runtime.env_vars` is still set "
                                      "(deploy/runtime/tiny_omni_runtime.yaml:8), but its only reader apply_runtime_env")
    assert "wire it back, or remove the feature" in lost["message"]
    # The live function of the same module that reads another key stays out of it.
    assert [m["subject"] for m in lost["members"]] == ["tinyomni.serving.runtime_env.apply_runtime_env"]


def test_a_documented_metric_produced_only_by_dead_code_is_a_lost_feature(sample: dict[str, Any]) -> None:
    lost = at(sample, f"{SERVING}/metrics.py")
    assert len(lost) == 1 and lost[0]["kind"] == "lost-feature"
    assert "`tinyomni_queue_depth_seconds` is still documented (docs/serving.md:" in lost[0]["message"]
    assert "only producer export_queue_depth is never called" in lost[0]["message"]


def test_lost_features_lead_the_top_candidates(sample: dict[str, Any]) -> None:
    first = [e["findings"][0]["path"] for e in sample["top_candidates"][:2]]
    assert sorted(first) == [f"{SERVING}/metrics.py", f"{SERVING}/runtime_env.py"]


def test_the_unread_fields_of_one_config_class_are_one_finding_at_the_class(sample: dict[str, Any]) -> None:
    found = [c for c in at(sample, "tinyomni/config.py") if c["kind"] == "unread-fields"]
    assert len(found) == 1
    fields = found[0]
    assert fields["line"] == 15 and fields["confidence"] == "high"
    assert fields["message"].startswith("3 fields of EngineConfig reach no reader (legacy_swap_space_gb, warmup_steps and poll_timeout_s)")
    assert len(fields["members"]) == 3 and fields["benefit_lines"] == sum(m["lines"] for m in fields["members"])


def test_the_unread_keys_of_one_shipped_config_file_are_one_finding(sample: dict[str, Any]) -> None:
    found = [c for c in at(sample, "tinyomni/__init__.py") if c["kind"] == "unread-keys"]
    assert len(found) == 1 and found[0]["confidence"] == "high"
    assert found[0]["message"].startswith("2 keys of deploy/runtime/tiny_omni_runtime.yaml reach no reader "
                                          "(stages[].runtime.process and telemetry.sample_rate)")


DEAD_WITH_COPY = {
    "app/__init__.py": "",
    "app/main.py": """
        from app.live import run


        def main():
            return run([1.0, 2.0])


        if __name__ == "__main__":
            main()
    """,
    "app/live.py": """
        def run(values):
            total = 0.0
            for value in values:
                total += value * 2.0
                total -= value / 3.0
                total += abs(value)
                total *= 1.5
            return total
    """,
    "app/legacy.py": """
        def old_run(values):
            total = 0.0
            for value in values:
                total += value * 2.0
                total -= value / 3.0
                total += abs(value)
                total *= 1.5
            return total


        def old_report(values):
            return [old_run(values)]
    """,
}


def test_a_finding_inside_code_a_dead_change_deletes_is_taken_in_not_emitted(tmp_path: Path) -> None:
    root = write(tmp_path / "proj", DEAD_WITH_COPY)
    report = omni_json([*enable_args(), "app"], root, tmp_path / "cache")
    legacy = at(report, "app/legacy.py")
    assert len(legacy) == 1, legacy
    change = legacy[0]
    assert change["symbol"] == "unused-surface" and change["confidence"] == "high"
    taken = [m for m in change["members"] if m.get("taken_in")]
    assert [m["symbol"] for m in taken] == ["duplicated-implementation"]  # the copy of run() goes with old_run
    # Per member, as an editor may want: the copy is its own message again, nothing is taken in.
    _, findings, _ = run_pylint([*enable_args(), "--omni-granularity=member", "app"], cwd=root, cache_dir=tmp_path / "cache")
    assert "duplicated-implementation" in {f.symbol for f in findings if f.path == "app/legacy.py"}


def test_the_dead_modules_of_one_package_are_one_change(tmp_path: Path) -> None:
    """A retired per-model patch leaves its modules behind together: one change at the package, its modules the
    members, weighed as whole modules; a dead module of another package stays a change of its own."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/main.py": """
            from app.patches.live import patch


            if __name__ == "__main__":
                patch()
        """,
        "app/patches/__init__.py": "",
        "app/patches/live.py": "def patch():\n    return 1\n",
        "app/patches/llama.py": "def llama_forward(x):\n    y = x + 1\n    return y * 2\n",
        "app/patches/qwen2.py": "def qwen2_forward(x):\n    y = x - 1\n    return y * 3\n",
        "app/other/__init__.py": "",
        "app/other/stale.py": "def helper():\n    return 0\n",
    })
    report = omni_json([*enable_args(["unused-surface"]), "app"], root, tmp_path / "cache")
    package = at(report, "app/patches/__init__.py")
    assert len(package) == 1, report["candidates"]
    change = package[0]
    assert change["confidence"] == "high" and change["message"].startswith("Package app.patches has 2 modules nothing imports (llama.py and qwen2.py)")
    assert {m["path"] for m in change["members"]} == {"app/patches/llama.py", "app/patches/qwen2.py"}
    lines = sum(m["lines"] for m in change["members"])
    assert change["benefit_lines"] == lines and change["score"] == 2 * lines  # whole modules weigh twice
    assert not at(report, "app/patches/llama.py")
    assert any(c["path"].startswith("app/other/") for c in report["candidates"])  # another package: its own change


def test_a_table_nothing_reads_is_one_change_that_takes_only_the_classes_only_it_names(tmp_path: Path) -> None:
    """LoRAX's `ATTN_CLASS_REGISTRY`: a table no code reads at all. Its two entries are one change at the table,
    high even though a string names one key elsewhere (nothing can reach the entry through an unread table); the
    class only the table names goes with it, the class the model builds directly stays and the message says where."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/attention.py": """
            class MultiheadAttention:
                def run(self, x):
                    return x + 1


            class MultiQueryAttention:
                def run(self, x):
                    return x - 1


            ATTN_CLASS_REGISTRY = {
                "multihead_attention": MultiheadAttention,
                "multiquery_attention": MultiQueryAttention,
            }


            class Block:
                def __init__(self, attn_type: str) -> None:
                    if attn_type != "multihead_attention":
                        raise NotImplementedError(attn_type)
                    self.attn = MultiheadAttention()
        """,
        "app/main.py": """
            from app.attention import Block


            if __name__ == "__main__":
                Block("multihead_attention").attn.run(1)
        """,
    })
    report = omni_json([*enable_args(["unused-registry-entry"]), "app"], root, tmp_path / "cache")
    [change] = report["candidates"]
    assert change["confidence"] == "high" and change["line"] == 11, change
    assert "delete the table, and MultiQueryAttention, which only it names" in change["message"]
    assert "delete MultiQueryAttention (only ATTN_CLASS_REGISTRY names it)" in change["simplification"]
    live = next(m for m in change["members"] if "multihead" in m["subject"])
    assert live["what"].startswith("Registry entry 'multihead_attention' of ATTN_CLASS_REGISTRY has no production consumer; remove the entry (")
    assert "MultiheadAttention," not in change["message"] and len(change["members"]) == 2


def test_a_dead_class_and_its_test_only_twin_in_one_module_are_one_change(tmp_path: Path) -> None:
    """ChatLearn's `sampler.py`: `SingleDataSampler` lost its last caller, its twin `EpisodeDataSampler` is built only
    by a test; production uses a third sampler. One change retires both, with the test that exists for the twin; the
    message says which one only tests use. Each keeps its own id as a member."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/sampler.py": """
            class SingleDataSampler:
                def __iter__(self):
                    return iter([1])


            class EpisodeDataSampler:
                def __iter__(self):
                    return iter([2])


            class MultiDatasetSampler:
                def __iter__(self):
                    return iter([3])
        """,
        "app/main.py": """
            from app.sampler import MultiDatasetSampler


            if __name__ == "__main__":
                print(list(MultiDatasetSampler()))
        """,
        "tests/test_sampler.py": """
            from app.sampler import EpisodeDataSampler


            def test_episode():
                assert list(EpisodeDataSampler()) == [2]
        """,
    })
    args = [*enable_args(["unused-surface", "test-only-surface"]), "app"]
    report = omni_json(args, root, tmp_path / "cache")
    [change] = at(report, "app/sampler.py")
    assert change["confidence"] == "high" and change["symbol"] == "unused-surface", change
    assert change["message"].startswith("Module app.sampler has 2 definitions production never runs "
                                        "(SingleDataSampler and EpisodeDataSampler; only tests use EpisodeDataSampler)")
    assert "with the tests that exist for them (tests/test_sampler.py)" in change["message"]
    single = omni_json(["--omni-granularity=member", *args], root, tmp_path / "cache")["candidates"]
    assert sorted(m["id"] for m in change["members"]) == sorted(c["id"] for c in single if c["path"] == "app/sampler.py")


def test_a_lazy_table_of_bare_submodule_names_serves_what_importers_import(tmp_path: Path) -> None:
    """SpecForge's data plane: `_EXPORT_MODULE = {"FeatureStore": "feature_store", ...}` read by
    `import_module(f"{__name__}.{module_name}")`: the bare values are submodules of the package, so
    `from pkg.plane import (FeatureStore, drain_removals)` uses those entries. The one nothing imports is reported,
    and its fix takes it out of `__all__` too."""
    root = write(tmp_path / "proj", {
        "pkg/__init__.py": "",
        "pkg/plane/__init__.py": """
            from importlib import import_module

            __all__ = ["FeatureStore", "drain_removals", "load_file"]

            _EXPORT_MODULE = {
                "FeatureStore": "store",
                "drain_removals": "store",
                "load_file": "store",
            }


            def __getattr__(name):
                module_name = _EXPORT_MODULE.get(name)
                if module_name is None:
                    raise AttributeError(name)
                return getattr(import_module(f"{__name__}.{module_name}"), name)
        """,
        "pkg/plane/store.py": """
            class FeatureStore:
                pass


            def drain_removals(store):
                return store


            def load_file(path):
                return path
        """,
        "pkg/launch.py": """
            from pkg.plane import (
                FeatureStore,
                drain_removals,
            )


            if __name__ == "__main__":
                drain_removals(FeatureStore())
        """,
    })
    report = omni_json(["--disable=all", "--enable=unused-registry-entry", "pkg"], root, tmp_path / "cache")
    [change] = report["candidates"]
    assert change["subject"] == "pkg.plane._EXPORT_MODULE['load_file']", change["subject"]
    assert "and from __all__" in change["simplification"]


def test_an_entry_registered_into_a_library_registry_is_the_librarys_to_read(tmp_path: Path) -> None:
    """speculators: `ALL_ATTENTION_FUNCTIONS = AttentionInterface()` (transformers), then
    `.register("simple_flex_attention", fn)`: the library keeps the mapping and reads it by the configured name. A
    table of the project's own class that nothing reads is still reported."""
    root = write(tmp_path / "proj", {
        "pkg/__init__.py": "",
        "pkg/attention.py": """
            from transformers.modeling_utils import AttentionInterface

            from pkg.registry import Registry


            def flex_attention_forward(q, k, v):
                return q


            def eager_forward(q, k, v):
                return k


            ALL_ATTENTION_FUNCTIONS = AttentionInterface()
            ALL_ATTENTION_FUNCTIONS.register("simple_flex_attention", flex_attention_forward)
            OWN_FUNCTIONS = Registry()
            OWN_FUNCTIONS.register("eager", eager_forward)
        """,
        "pkg/registry.py": """
            class Registry:
                def __init__(self):
                    self.table = {}

                def register(self, name, fn):
                    self.table[name] = fn
        """,
        "pkg/main.py": "import pkg.attention\n\n\nif __name__ == '__main__':\n    print(pkg.attention)\n",
    })
    report = omni_json(["--disable=all", "--enable=unused-registry-entry", "--omni-include-rejected=y", "pkg"], root,
                       tmp_path / "cache")
    library = [r for r in report["rejected"] if "simple_flex_attention" in r["subject"]]
    assert library and "AttentionInterface of transformers.modeling_utils" in library[0]["reason"], report["rejected"]
    assert any("eager" in c["subject"] for c in report["candidates"]), report["candidates"]


def test_one_dead_function_repeated_in_sibling_packages_is_one_change(tmp_path: Path) -> None:
    """`load_downloaded_models` in `model/<kind>/__init__.py` of three kinds, none called: one change naming the
    kinds; the same function dead in only two places is one change only as a word-for-word copy."""
    kinds = {f"app/model/{kind}/__init__.py": "def load_downloaded_models():\n    found = []\n    return found\n\n\n"
             "def live():\n    return 1\n" for kind in ("audio", "image", "video")}
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/model/__init__.py": "",
        **kinds,
        "app/util/__init__.py": "",
        "app/util/a/__init__.py": "def stale():\n    return 0\n\n\ndef live():\n    return 1\n",
        "app/util/b/__init__.py": "def stale():\n    return 0\n\n\ndef live():\n    return 1\n",
        "app/main.py": """
            from app.model.audio import live as a
            from app.model.image import live as b
            from app.model.video import live as c
            from app.util.a import live as d
            from app.util.b import live as e


            if __name__ == "__main__":
                print(a(), b(), c(), d(), e())
        """,
    })
    report = omni_json([*enable_args(["unused-surface"]), "app"], root, tmp_path / "cache")
    repeated = [c for c in report["candidates"] if c["kind"] == "repeated-dead-function"]
    assert len(repeated) == 1, report["candidates"]
    assert repeated[0]["message"].startswith("load_downloaded_models() is dead in 3 sibling packages (audio, image and video;")
    assert {m["path"] for m in repeated[0]["members"]} == set(kinds)
    [stale] = [c for c in report["candidates"] if "stale" in c["message"]]
    assert stale["kind"] == "copied-dead-function" and len(stale["members"]) == 2


def test_one_dead_function_copied_into_another_module_is_one_change(tmp_path: Path) -> None:
    """speculators' `block_mask_to_dense_attention_mask`: the same dead debug helper, word for word, in
    `models/attention.py` and `models/eagle3/attention.py`: one change deleting both copies. A dead function of that
    name with another body stays its own finding."""
    helper = "def to_dense(mask, n):\n    dense = [[0] * n for _ in range(n)]\n    for i, j in mask:\n        dense[i][j] = 1\n    return dense\n"
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/models/__init__.py": "",
        "app/models/attention.py": "def attend(q):\n    return q\n\n\n" + helper,
        "app/models/eagle/__init__.py": "",
        "app/models/eagle/attention.py": "def eagle(q):\n    return q\n\n\n" + helper,
        "app/other.py": "def to_dense(mask, n):\n    return [mask] * n\n\n\ndef live():\n    return 1\n",
        "app/main.py": (
            "from app.models.attention import attend\nfrom app.models.eagle.attention import eagle\nfrom app.other import live\n\n\n"
            "if __name__ == '__main__':\n    print(attend(1), eagle(2), live())\n"
        ),
    })
    report = omni_json([*enable_args(["unused-surface"]), "app"], root, tmp_path / "cache")
    copied = [c for c in report["candidates"] if c["kind"] == "copied-dead-function"]
    assert len(copied) == 1 and copied[0]["message"].startswith("to_dense() is dead in 2 modules, each a copy of the same code")
    assert {m["path"] for m in copied[0]["members"]} == {"app/models/attention.py", "app/models/eagle/attention.py"}
    assert at(report, "app/other.py"), report["candidates"]


def test_lone_unread_config_fields_of_one_package_are_one_cleanup(tmp_path: Path) -> None:
    """One unread field in each of three config classes of one package: one cleanup at the package listing them (the
    fields stay members); a lone unread field in another package stays a change of its own."""
    config = """
        from dataclasses import dataclass


        @dataclass
        class {name}:
            used: int = 1
            {field}: int = 0
    """
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/configs/__init__.py": "",
        "app/configs/vae.py": config.format(name="VaeConfig", field="data_dim"),
        "app/configs/dit.py": config.format(name="DitConfig", field="x_format"),
        "app/configs/audio.py": config.format(name="AudioConfig", field="hop"),
        "app/other/__init__.py": "",
        "app/other/cache.py": config.format(name="CacheConfig", field="ttl"),
        "app/main.py": """
            from app.configs.audio import AudioConfig
            from app.configs.dit import DitConfig
            from app.configs.vae import VaeConfig
            from app.other.cache import CacheConfig


            if __name__ == "__main__":
                print(AudioConfig().used, DitConfig().used, VaeConfig().used, CacheConfig().used)
        """,
    })
    report = omni_json([*enable_args(["unread-config-option"]), "app"], root, tmp_path / "cache")
    package = at(report, "app/configs/__init__.py")
    assert len(package) == 1, report["candidates"]
    assert package[0]["message"].startswith("Package app/configs has 3 config fields nothing reads (AudioConfig.hop, DitConfig.x_format and VaeConfig.data_dim)")
    assert {m["subject"].rpartition(".")[2] for m in package[0]["members"]} == {"hop", "x_format", "data_dim"}
    assert not [c for c in report["candidates"] if c["path"].startswith("app/configs/") and c is not package[0]]
    assert len(at(report, "app/other/cache.py")) == 1


def test_member_ids_are_the_ids_a_per_member_run_emits_and_a_per_member_baseline_holds(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/config.py": """
            from dataclasses import dataclass


            @dataclass
            class ServeConfig:
                port: int = 8000
                legacy_a: int = 0
                legacy_b: int = 0


            def serve(cfg: ServeConfig) -> int:
                return cfg.port
        """,
    }
    root = write(tmp_path / "proj", files)
    args = ["--disable=all", "--enable=unread-config-option", "pkg"]
    folded = omni_json(args, root, tmp_path / "cache")["candidates"]
    assert len(folded) == 1 and len(folded[0]["members"]) == 2
    single = omni_json(["--omni-granularity=member", *args], root, tmp_path / "cache")["candidates"]
    assert sorted(m["id"] for m in folded[0]["members"]) == sorted(c["id"] for c in single)
    # A baseline written one message per member still holds the change those members make.
    baseline = root / "baseline.json"
    baseline.write_text(json.dumps({"format": "pylint-omni-baseline/1", "findings": [
        {key: c.get(key) for key in ("id", "symbol", "subject", "path", "line")} for c in single]}))
    held = omni_json([f"--omni-baseline={baseline}", *args], root, tmp_path / "cache")
    assert held["candidates"] == [] and held["adoption"]["baseline"]["known"] == 2


def commit_all(root: Path, message: str) -> None:
    """Commit every file of `root` (a git checkout made on the first call)."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    if not (root / ".git").exists():
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-q", "-m", message], cwd=root, check=True)


# A stage deploy config and the package that reads it: `apply_env` is the only reader of `stage_environment`.
STAGE_FILES = {
    "pkg/__init__.py": "",
    "pkg/main.py": """
        import json

        from pkg.env import apply_env, env_names


        def main(path):
            with open(path) as handle:
                config = json.load(handle)
            apply_env(config)
            return env_names(config)


        if __name__ == "__main__":
            main("deploy/stage.yaml")
    """,
    "pkg/env.py": """
        import os


        def env_names(config):
            return sorted(config.get("stage_devices", {}))


        def apply_env(config):
            stage_environment = config.get("stage_environment", {})
            for name, value in stage_environment.items():
                os.environ[name] = str(value)
    """,
    "deploy/stage.yaml": "stage_devices:\n  gpu: 0\nstage_environment:\n  LOG: debug\n",
}


def test_a_lost_feature_names_the_commit_that_last_changed_its_calls(tmp_path: Path) -> None:
    root = write(tmp_path / "proj", STAGE_FILES)
    commit_all(root, "first")
    main = root / "pkg" / "main.py"
    main.write_text(main.read_text().replace("    apply_env(config)\n", ""))
    commit_all(root, "drop the env step")
    report = omni_json(["--disable=all", "--enable=unused-surface,unread-config-option", "pkg"], root, tmp_path / "cache")
    lost = [c for c in report["candidates"] if c["kind"] == "lost-feature"]
    assert len(lost) == 1, report["candidates"]
    assert "stage_environment" in lost[0]["message"] and "drop the env step" in lost[0]["proof"]


def explain(name: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "pylint_omni", "explain", name], cwd=SAMPLE_REPO, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_explain_agrees_with_the_finding_for_a_sibling_mixins_method() -> None:
    """No finding, and explain says why: the call through the sibling mixin, and the path from the root."""
    out = explain("_append_runtime_input")
    assert "resolved production consumers: 1" in out and "tinyomni/serving/intake.py:6 (attr-call, through IntakeMixin)" in out
    assert "reachability: reached from production roots" in out and "tinyomni.serving.intake.IntakeMixin.admit" in out


def test_explain_names_the_change_a_member_belongs_to() -> None:
    out = explain("send_tensor")
    assert "unused-surface verdict: candidate (high)" in out
    assert ("change: unused-surface (high, class-cluster, 2 member(s)) at tinyomni/serving/pipeline_link.py:6: "
            "Class PipelineLink has 2 methods nothing calls") in out


def test_a_lost_feature_of_dead_module_helpers_names_them_and_a_probed_dependency_is_no_feature(tmp_path: Path) -> None:
    """verl's `is_megatron_core_available` probes `find_spec("megatron.core")`, a package the project imports: the
    docs naming it document a dependency, not a feature the dead helpers produce. A documented metric the dead
    helpers of one module alone produce is a lost feature, and the message names those helpers."""
    files = {
        "pkg/__init__.py": "",
        "pkg/main.py": """
            from megatron.core import parallel_state


            from pkg.metrics import render


            def main():
                return render, parallel_state


            if __name__ == "__main__":
                main()
        """,
        "pkg/probes.py": """
            import importlib.util


            def is_megatron_core_available():
                return importlib.util.find_spec("megatron.core") is not None


            def megatron_version():
                return "megatron.core" if is_megatron_core_available() else None
        """,
        "pkg/metrics.py": """
            def render(sink):
                sink.emit("pkg_render_total", 1)


            def export_depth(sink):
                sink.emit("pkg_queue_depth_seconds", 3)


            def queue_size():
                return 3
        """,
        "docs/usage.md": "Install `megatron.core` first. The server exports `pkg_queue_depth_seconds`.\n",
    }
    root = write(tmp_path / "proj", files)
    report = omni_json(["--disable=all", "--enable=unused-surface", "pkg"], root, tmp_path / "cache")
    lost = [c for c in report["candidates"] if c["kind"] == "lost-feature"]
    assert [c["path"] for c in lost] == ["pkg/metrics.py"], report["candidates"]
    message = lost[0]["message"]
    assert "`pkg_queue_depth_seconds`" in message and "only producers export_depth and queue_size are never called" in message, message
    assert "<" not in message, message
    probes = [c for c in report["candidates"] if c["path"] == "pkg/probes.py"]
    assert probes and all(c["kind"] != "lost-feature" for c in probes), probes


def test_a_value_config_files_set_is_no_feature_dead_code_produces(tmp_path: Path) -> None:
    """axolotl's dead validator compares the optimizer with `paged_adamw_8bit`, which the docs mention and example
    configs set (`optimizer: paged_adamw_8bit`): a library reads that value, so the dead check is dead code, not a
    lost feature."""
    files = {
        "pkg/__init__.py": "",
        "pkg/main.py": "from pkg.metrics import render\n\n\ndef main():\n    return render\n\n\nif __name__ == '__main__':\n    main()\n",
        "pkg/metrics.py": "def render(sink):\n    sink.emit('x', 1)\n",
        "pkg/hints.py": "def _hint_paged_optimizer(cfg):\n    return cfg.optimizer == 'paged_adamw_8bit'\n",
        "examples/train.yml": "optimizer: paged_adamw_8bit\n",
        "docs/usage.md": "Set `paged_adamw_8bit` to page the optimizer state.\n",
    }
    root = write(tmp_path / "proj", files)
    report = omni_json(["--disable=all", "--enable=unused-surface", "pkg"], root, tmp_path / "cache")
    assert [(c["path"], c["kind"]) for c in report["candidates"]] == [("pkg/hints.py", "unused")], report["candidates"]


def test_an_option_copied_to_a_holder_only_dead_code_reads_is_a_lost_feature_examples_still_set(tmp_path: Path) -> None:
    """nanotron: the trainer copies `tokens.limit_val_batches` into `self.limit_val_batches` in `__init__`, and only
    `validation_step`, which nothing calls, reads the copy; 19 example configs still set the key. The copy is where
    the option is applied, so deleting the dead loop drops the feature the example configs promise: a lost feature.
    An option a live holder copies and reads is none. Nor is one read only by a function only tests run, which is
    worded so ("runs only in tests")."""
    files = {
        "pyproject.toml": "[project]\nname = 'pkg'\n[project.scripts]\ntrain = 'pkg.trainer:main'\n",
        "pkg/__init__.py": "",
        "pkg/config.py": """
            from dataclasses import dataclass


            @dataclass
            class TokensArgs:
                limit_val_batches: int = 0
                shared_expert: bool = False
                eval_every: int = 0
        """,
        "pkg/trainer.py": """
            from pkg.config import TokensArgs


            class Layer:
                def __init__(self, tokens):
                    self.shared = tokens.shared_expert

                def run(self):
                    return 2 if self.shared else 1


            class Trainer:
                def __init__(self, tokens: TokensArgs):
                    self.limit_val_batches = tokens.limit_val_batches
                    self.layer = Layer(tokens)

                def train_step(self):
                    return self.layer.run()

                def validation_step(self):
                    return list(range(self.limit_val_batches))


            def evaluate(tokens: TokensArgs):
                return tokens.eval_every * 2


            def main():
                Trainer(TokensArgs()).train_step()
        """,
        "tests/test_trainer.py": """
            from pkg.config import TokensArgs
            from pkg.trainer import evaluate


            def test_evaluate():
                assert evaluate(TokensArgs(eval_every=2)) == 4
        """,
        "examples/config.yaml": "tokens:\n  limit_val_batches: 4\n  shared_expert: true\n  eval_every: 10\n",
    }
    root = write(tmp_path / "proj", files)
    report = omni_json(["--disable=all", "--enable=test-only-surface,unused-surface,unread-config-option", "pkg"], root,
                       tmp_path / "cache")
    lost = {c["line"]: c["message"] for c in report["candidates"] if c["kind"] == "lost-feature"}
    assert len(lost) == 2, report["candidates"]
    dead = next(m for m in lost.values() if "limit_val_batches" in m)
    assert "`TokensArgs.limit_val_batches` is still set (examples/config.yaml:2" in dead and "validation_step is never called" in dead, dead
    tested = next(m for m in lost.values() if "eval_every" in m)
    assert "its only reader evaluate runs only in tests" in tested, tested
    assert "shared_expert" not in json.dumps(lost), lost


def test_a_switch_only_dead_code_sets_while_live_code_reads_it_is_a_lost_feature(tmp_path: Path) -> None:
    """xtuner's trace module (round 14): `init_writer()` is the only code that sets the module global `_writer`, and
    nothing calls it, while the live `span()` writes through `_writer` when it is set: the tracing never turns on.
    That is a lost feature (wire `init_writer` back, or remove the feature), not plain dead code; a global a live
    function sets as well is no switch."""
    files = {
        "pkg/__init__.py": "",
        "pkg/main.py": """
            from pkg.trace import span
            from pkg.cache import lookup


            def main():
                span("step")
                return lookup("a")


            if __name__ == "__main__":
                main()
        """,
        "pkg/trace.py": """
            _writer = None


            def init_writer(path):
                global _writer
                if _writer is None:
                    _writer = open(path, "a")


            def span(name):
                if _writer is not None:
                    _writer.write(name)
        """,
        "pkg/cache.py": """
            _table = None


            def warm(values):
                global _table
                _table = dict(values)


            def lookup(key):
                global _table
                if _table is None:
                    _table = {}
                return _table.get(key)
        """,
    }
    root = write(tmp_path / "proj", files)
    report = omni_json(["--disable=all", "--enable=unused-surface", "pkg"], root, tmp_path / "cache")
    by_path = {c["path"]: c for c in report["candidates"]}
    trace = by_path["pkg/trace.py"]
    assert trace["kind"] == "lost-feature", trace
    assert trace["message"].startswith("Orphaned: `_writer` is still read (pkg/trace.py:"), trace["message"]
    assert "but its only setter init_writer is never called" in trace["message"], trace["message"]
    assert by_path["pkg/cache.py"]["kind"] != "lost-feature", by_path["pkg/cache.py"]


def test_a_feature_added_uncalled_is_half_landed_not_orphaned(tmp_path: Path) -> None:
    """Megatron-LM (round 15): the varlen dataset helpers came in one commit days before the checkout, uncalled, while
    the README already named the feature: no refactor dropped a caller, the feature is still landing. When one commit
    alone ever changed the calls of the dead reader, the finding says "Half-landed" and "finish wiring it"."""
    main_text, env_text = (textwrap.dedent(STAGE_FILES[name]).lstrip("\n") for name in ("pkg/main.py", "pkg/env.py"))
    first = {**STAGE_FILES, "pkg/env.py": env_text[env_text.index("def env_names"):env_text.index("def apply_env")],
             "pkg/main.py": main_text.replace("apply_env, ", "").replace("    apply_env(config)\n", "")}
    root = write(tmp_path / "proj", first)
    commit_all(root, "first")
    write(root, {"pkg/env.py": env_text})
    commit_all(root, "add the env step")
    report = omni_json(["--disable=all", "--enable=unused-surface,unread-config-option", "pkg"], root, tmp_path / "cache")
    [lost] = [c for c in report["candidates"] if c["kind"] == "lost-feature"]
    assert lost["message"].startswith("Half-landed: "), lost["message"]
    assert "finish wiring it" in lost["message"] and "added uncalled in" in lost["message"], lost["message"]
