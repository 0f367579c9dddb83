"""unread-config-option: the scanner's facts, and real pylint runs on small projects."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from conftest import enable_args, run_pylint, write_tree
from pylint_omni.configuration.scan import scan_options
from pylint_omni.index.scan.data_scan import scan_yaml
from pylint_omni.index.scanners import ModuleContext

SYMBOL = "unread-config-option"


def write(root: Path, files: dict[str, str]) -> Path:
    return write_tree(root, {"pyproject.toml": "[project]\nname = 'pkg'\n", **files})


def lint(root: Path, cache_dir: Path, *extra: str) -> list[tuple[str, int, str]]:
    """Each option's own verdict: one message per member (the change sets are pinned in test_change_sets.py)."""
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), "--omni-granularity=member", *extra, "pkg"], cwd=root,
                                     cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return [(f.path, f.line, f.confidence) for f in findings if f.symbol == SYMBOL]


def test_scanner_finds_options_and_how_objects_are_read() -> None:
    source = textwrap.dedent("""
        import os
        from dataclasses import dataclass, field
        TOKEN = os.environ.get("APP_TOKEN")
        @dataclass
        class AppConfig:
            name: str
            size: int = 1
            derived: int = field(init=False, default=0)
            def __post_init__(self):
                self.size = 2
        class Payload:  # not a config class
            x: int = 0
        def build(parser, cfg: AppConfig):
            parser.add_argument("--max-size", dest="size_limit", help="...")
            parser.add_argument("--verbose", action="store_true")
            table = {"name": cfg.name}
            run(**cfg.extra)
            return Other(size=cfg.size)
        def serve(args):
            kwargs = vars(args).copy()
            return Engine(**kwargs)
        class Engine:
            def __init__(self, size, **rest):
                self.mode = rest.get("mode")
                log(rest.items())
    """)
    facts = scan_options(ast.parse(source), ModuleContext("pkg.m", "pkg/m.py", False, {}, source))
    assert [c["name"] for c in facts["classes"]] == ["AppConfig"]
    assert [f[0] for f in facts["classes"][0]["fields"]] == ["name", "size"]  # init=False is derived state
    assert facts["classes"][0]["writes"][0][:4] == ["size", 11, "__post_init__", True]
    assert [o[0] for o in facts["cli"]] == ["size_limit", "verbose"]
    assert facts["env"] == [["TOKEN", "APP_TOKEN", 4, 0]]
    assert ["name", 17] in facts["writer_keys"]
    assert ["extra", 18, "**"] in facts["whole"]
    assert facts["copies"]["size"] == "19:Other:size"
    assert ["serve", "kwargs", "ns:args", 21, "", [[22, "pkg.m.Engine", "**"]], 0] in facts["dicts"]  # a namespace handed out whole
    assert ["Engine.__init__", "rest", "**", 24, "mode", [], 26] in facts["dicts"]  # read by key, then escapes


def test_yaml_key_paths_are_recorded() -> None:
    facts = scan_yaml("stages:\n  - name: a\n    runtime:\n      devices: '0'\ntop: 1\n")
    assert facts["key_paths"] == [["stages", 1], ["stages[].name", 2], ["stages[].runtime", 3], ["stages[].runtime.devices", 4], ["top", 5]]


def test_fields_readers_and_traps(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/config.py": """
            from dataclasses import dataclass, fields

            @dataclass
            class ServeConfig:
                model: str
                by_key: int = 1
                by_getattr: int = 2
                unread: int = 3
                collides: float = 1.0
                only_written_as_key: int = 4

            @dataclass
            class ReflectedConfig:
                a: int = 1

                def dump(self):
                    return {f.name: getattr(self, f.name) for f in fields(self)}

            class Poller:
                def __init__(self, collides: float) -> None:
                    self.collides = collides

                def wait(self) -> float:
                    return self.collides

            def use(cfg: ServeConfig, raw: dict) -> tuple:
                payload = {"only_written_as_key": 4}
                return cfg.model, raw["by_key"], getattr(cfg, "by_getattr"), payload
        """,
    })
    assert lint(root, cache_dir) == [("pkg/config.py", 8, "HIGH"), ("pkg/config.py", 9, "HIGH"), ("pkg/config.py", 10, "HIGH")]


def test_a_known_receiver_does_not_hide_an_unknown_one_on_the_same_line(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/layout.py": """
            from dataclasses import dataclass

            @dataclass
            class LayoutConfig:
                device_num: int

            class Engine:
                def __init__(self) -> None:
                    self.device_num = 0

            def apply(engine: Engine, layout_factory) -> None:
                layout = layout_factory()
                engine.device_num = layout.device_num
        """,
    })
    assert lint(root, cache_dir) == []  # `layout.device_num` (receiver unknown) reads the field


def test_cli_options_are_never_high_and_whole_namespaces_reach_receivers(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/cli.py": """
            import argparse
            from dataclasses import dataclass

            @dataclass
            class EngineConfig:
                block_size: int = 16

                def blocks(self) -> int:
                    return self.block_size

            def main() -> None:
                parser = argparse.ArgumentParser()
                parser.add_argument("--block-size", type=int)
                parser.add_argument("--old-flag", action="store_true")
                args = parser.parse_args()
                EngineConfig(**vars(args)).blocks()
        """,
    })
    assert lint(root, cache_dir) == [("pkg/cli.py", 14, "INFERENCE")]


def test_shipped_yaml_keys(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/stage_configs/__init__.py": "",
        "pkg/stage_configs/model.yaml": """
            stages:
              - runtime:
                  devices: "0"
                  process: true
                engine_args:
                  max_model_len: 10
        """,
        "pkg/other/monitoring.yaml": "scrape:\n  interval: 5\n",
        "pkg/loader.py": """
            import yaml
            FOLDER = "pkg/stage_configs/"

            def start(path, engine):
                for stage in yaml.safe_load(open(path))["stages"]:
                    engine(stage["runtime"].get("devices"), **stage["engine_args"])
        """,
    })
    found = lint(root, cache_dir)
    assert found == [("pkg/stage_configs/__init__.py", 1, "HIGH")]  # runtime.process; engine_args is expanded; monitoring.yaml is not loaded
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=root, cache_dir=cache_dir)
    assert "stages[].runtime.process" in findings[0].message


def test_files_shipped_for_another_program_are_not_the_packages_config(tmp_path: Path, cache_dir: Path) -> None:
    """The code names the folder, but Grafana reads the provisioning file, Prometheus its scrape config and Helm the
    chart's values: their keys have readers outside Python. The package's own stage file is still judged, but not
    the entries of a table keyed by data (`'*'`: any version), which code reads by computed keys, nor template keys
    (`.stable: &stable`) that YAML reads through their aliases."""
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/deploy/__init__.py": "",
        "pkg/deploy/stage.yaml": ".stable: &stable '0.2'\nstages:\n  - runtime:\n      process: true\n    .base: &base\n"
                                 "      mode: fast\n    version: *stable\nmapping:\n  vllm:\n    '*':\n      queue_len: waiting\n",
        "pkg/deploy/grafana/datasource.yaml": "apiVersion: 1\ndatasources:\n  - name: p\n    isDefault: true\n",
        "pkg/deploy/prometheus.yml": "global:\n  scrape_interval: 5s\nscrape_configs:\n  - job_name: x\n",
        "pkg/deploy/catalog.yaml": "model_sets:\n  - name: qwen\n    licenses: [apache-2.0]\n",
        "pkg/schemas.py": "from pydantic import BaseModel\n\n\nclass ModelSetBase(BaseModel):\n    name: str\n    licenses: list\n",
        "pkg/deploy/chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 1\n",
        "pkg/deploy/chart/values.yaml": "server:\n  replicas: 2\n",
        "pkg/loader.py": """
            import yaml
            FOLDER = "pkg/deploy/"

            def start(path):
                return [stage["runtime"] for stage in yaml.safe_load(open(path))["stages"]]

            def renamed(path, metric):
                return yaml.safe_load(open(path))["mapping"]["vllm"].get("*", {}).get(metric)
        """,
    })
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=root, cache_dir=cache_dir)
    assert [(f.path, f.line) for f in findings] == [("pkg/deploy/__init__.py", 1)], [f.message for f in findings]
    assert "stages[].runtime.process" in findings[0].message and "queue_len" not in findings[0].message
    assert ".stable" not in findings[0].message and "base" not in findings[0].message  # YAML's own template keys
    assert "licenses" not in findings[0].message  # a field of the data model the catalog is loaded into


def test_an_anchored_section_is_read_wherever_its_aliases_stand(tmp_path: Path, cache_dir: Path) -> None:
    """vllm-spyre's model registry: `_templates` holds anchored sections (`tp4: &tp4`) that the models reuse through
    aliases (`device_config: *tp4`, `<<: *base`); the loader reads only `models`. Deleting an anchor breaks the file
    (an undefined alias), so no key of a section an alias reuses is unread. A key of a plain section still is."""
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/config/__init__.py": "",
        "pkg/config/model_configs.yaml": """
            _templates:
              tp4: &tp4
                tensor_parallel: 4
                chunk: 1024
              base: &base
                dtype: fp16
            models:
              granite:
                <<: *base
                device_config: *tp4
                legacy_switch: true
        """,
        "pkg/registry.py": """
            import yaml
            FOLDER = "pkg/config/"

            def models(path):
                data = yaml.safe_load(open(path))
                return {name: (m.get("dtype"), m["device_config"]) for name, m in data["models"].items()}
        """,
    })
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "--omni-granularity=member", "pkg"], cwd=root, cache_dir=cache_dir)
    messages = [f.message for f in findings]
    assert not [m for m in messages if "_templates" in m or "tensor_parallel" in m or "chunk" in m], messages


def test_upstream_readers_reject_fields_of_upstream_subclasses(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path, {
        "upstream/eng/__init__.py": "def run(args):\n    return args.enforce_eager\n",
        "pkg/__init__.py": "",
        "pkg/args.py": """
            from dataclasses import dataclass
            from eng import EngineArgs

            @dataclass
            class OmniArgs(EngineArgs):
                enforce_eager: bool = True
                stage_count: int = 1
        """,
    })
    args = ["--omni-upstream-paths=upstream", "--omni-exclude-globs=upstream/**", "--omni-include-rejected=y"]
    assert lint(root, cache_dir, *args) == [("pkg/args.py", 6, "UNDEFINED"), ("pkg/args.py", 7, "INFERENCE")]


def test_a_key_copied_under_its_own_name_is_read(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/stage_configs/__init__.py": "",
        "pkg/stage_configs/model.yaml": """
            stages:
              - runner: pkg.loader.start
                retired: 1
        """,
        "pkg/loader.py": """
            import yaml
            FOLDER = "pkg/stage_configs/"

            def start(path):
                return [{"runner": stage.get("runner")} for stage in yaml.safe_load(open(path))["stages"]]
        """,
    })
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=root, cache_dir=cache_dir)
    assert [f.message.split("`")[1] for f in findings] == ["stages[].retired"]  # `runner` is written and read on one line


def test_reads_the_graph_places_on_other_classes_or_modules_do_not_count(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/config.py": """
            from dataclasses import dataclass

            @dataclass
            class ServeConfig:
                timeout: float = 1.0
                enabled: bool = True
                retries: int = 3

            def run(cfg: ServeConfig) -> int:
                return cfg.retries
        """,
        "pkg/poller.py": """
            class Poller:
                def __init__(self) -> None:
                    self.timeout = 5.0
        """,
        "pkg/worker.py": """
            import torch
            from pkg.poller import Poller

            class Worker:
                def __init__(self, poller: Poller) -> None:
                    self.poller = poller

                def wait(self) -> float:
                    return self.poller.timeout  # the receiver is a Poller: another class that holds `timeout`

                def fast(self) -> bool:
                    return torch.backends.xnnpack.enabled  # a module's attribute
        """,
    })
    assert lint(root, cache_dir) == [("pkg/config.py", 5, "HIGH"), ("pkg/config.py", 6, "HIGH")]
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=root, cache_dir=cache_dir)
    write(root, {"pkg/probe.py": "def probe(thing):\n    return thing.timeout, thing.enabled\n"})
    assert lint(root, cache_dir) == []  # a receiver of unknown class may be a ServeConfig: it reads both


def test_a_namespace_handed_to_a_callee_that_drops_the_key_does_not_read_it(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/cli.py": """
            import argparse
            from pkg.engine import Engine

            def main() -> None:
                parser = argparse.ArgumentParser()
                parser.add_argument("--workers", type=int)
                parser.add_argument("--threads", type=int)
                args = parser.parse_args()
                kwargs = vars(args).copy()
                Engine(**kwargs)
        """,
        "pkg/engine.py": """
            class Engine:
                def __init__(self, **kwargs) -> None:
                    self._setup(kwargs)

                def _setup(self, options: dict) -> None:
                    self.workers = options.get("workers", 1)
        """,
        "pkg/pool.py": """
            class Pool:
                def __init__(self, threads: int) -> None:
                    self.threads = threads

                def size(self) -> int:
                    return self.threads
        """,
    })
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "--omni-include-rejected=y", "pkg"], cwd=root, cache_dir=cache_dir)
    assert [(f.line, f.confidence) for f in findings] == [(7, "INFERENCE")]  # --threads; Engine reads `workers`
    assert "_setup reads only `workers`" in findings[0].message, findings[0].message
    # When the dict escapes, a name that takes the keyword elsewhere counts again (conservative, as before).
    write(root, {"pkg/engine.py": """
        class Engine:
            def __init__(self, **kwargs) -> None:
                self.options = kwargs
    """})
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "--omni-include-rejected=y", "pkg"], cwd=root, cache_dir=cache_dir)
    assert [(f.line, f.confidence) for f in findings] == [(6, "INFERENCE"), (7, "UNDEFINED")]  # `Pool` takes `threads`
    assert "`threads` is used by name at pkg/pool.py" in findings[1].message, findings[1].message


def test_a_field_handed_on_by_a_list_of_names_is_judged_where_it_lands(tmp_path: Path, cache_dir: Path) -> None:
    """A tuple of field names forwarding one config into another is no reader: the field is read only if where it
    lands is (the string in the tuple named a reader before)."""
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/config.py": """
            from dataclasses import dataclass

            @dataclass
            class StageArgs:
                max_tokens: int = 16
                legacy_flag: bool = False

            @dataclass
            class RuntimeConfig:
                max_tokens: int = 16
                legacy_flag: bool = False

            _FORWARDED = ("max_tokens", "legacy_flag")

            def to_runtime(args: StageArgs) -> RuntimeConfig:
                return RuntimeConfig(**{name: getattr(args, name) for name in _FORWARDED})

            def run(config: RuntimeConfig) -> int:
                return config.max_tokens
        """,
    })
    assert lint(root, cache_dir) == [("pkg/config.py", 6, "HIGH"), ("pkg/config.py", 11, "HIGH")]  # legacy_flag twice


def test_fields_enumerated_by_name_are_not_read_by_reflection(tmp_path: Path, cache_dir: Path) -> None:
    """`from_kwargs` filtering keywords on `fields(cls)` reads no value: the unread field stays a candidate; a
    `getattr(self, f.name)` beside it reads every field."""
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/config.py": """
            from dataclasses import dataclass, fields

            @dataclass
            class ServeConfig:
                port: int = 8000
                legacy_timeout: int = 0

                @classmethod
                def from_kwargs(cls, **kwargs):
                    names = {f.name for f in fields(cls)}
                    return cls(**{k: v for k, v in kwargs.items() if k in names})

            @dataclass
            class DumpedConfig:
                port: int = 8000
                legacy_timeout: int = 0

                def dump(self):
                    return {f.name: getattr(self, f.name) for f in fields(self)}

            def serve(config: ServeConfig) -> int:
                return config.port + DumpedConfig().dump()["port"]
        """,
    })
    assert lint(root, cache_dir) == [("pkg/config.py", 6, "HIGH")]


def test_documented_dataclass_fields_and_command_line_function_parameters_are_options(tmp_path: Path, cache_dir: Path) -> None:
    """LitGPT (labels LG-config-01, 06, 07, blind 0/9 before): a data module whose fields carry their own docstrings
    (`seed: int = 42` then its help text, set as `--data.seed`) is a set of options whatever it is called, built on
    the package's own re-exported `DataModule`; and `jsonargparse.CLI({"generate_tp": main})` makes each parameter of
    `main` a flag, so `--top_p`, which `main` never reads, is accepted and does nothing. A parameter the body uses and
    a class whose fields have no docstrings are no options."""
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/data/__init__.py": "from pkg.data.base import DataModule\n",
        "pkg/data/base.py": "class DataModule:\n    def setup(self):\n        return None\n",
        "pkg/data/text_files.py": (
            "from dataclasses import dataclass\n\nfrom pkg.data import DataModule\n\n\n@dataclass\nclass TextFiles(DataModule):\n"
            "    path: str = 'data'\n    \"\"\"Where the text files are.\"\"\"\n    seed: int = 42\n"
            "    \"\"\"The seed to use for shuffling.\"\"\"\n\n    def files(self):\n        return [self.path]\n\n\n"
            "@dataclass\nclass Batch:\n    size: int = 1\n    unused: int = 0\n\n    def total(self):\n        return self.size\n"
        ),
        "pkg/generate.py": (
            "def main(prompt: str = 'hi', top_k: int = 5, top_p: float = 1.0) -> None:\n"
            "    \"\"\"Generate.\n\n    Args:\n        top_p: nucleus sampling.\n    \"\"\"\n    print(prompt * top_k)\n"
        ),
        "pkg/__main__.py": (
            "from jsonargparse import CLI\n\nfrom pkg.data.text_files import Batch, TextFiles\nfrom pkg.generate import main as generate_fn\n\n\n"
            "def run():\n    commands = {'generate': generate_fn}\n    print(TextFiles().files(), Batch().total())\n    CLI(commands)\n\n\n"
            "if __name__ == '__main__':\n    run()\n"
        ),
    })
    found = lint(root, cache_dir)
    assert ("pkg/data/text_files.py", 10, "INFERENCE") in found or ("pkg/data/text_files.py", 10, "HIGH") in found, found
    assert ("pkg/generate.py", 1, "HIGH") in found, found  # --top_p, shown at its function
    assert not [f for f in found if f[0] == "pkg/data/text_files.py" and f[1] in (8, 19, 20)], found  # read, or no option class


def test_fields_of_configs_a_library_builds_from_files_by_name_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    """nanotron: every saved `config.yaml` is loaded back with `dacite.from_dict(..., strict=True)` into a tree of
    dataclasses (and lighteval reads some fields from outside). An unread field may still be set in a saved file, so
    removing it breaks loading: medium, naming the loader. Without such a loader the same field is high."""
    files = {
        "pkg/__init__.py": "",
        "pkg/config.py": (
            "from dataclasses import dataclass\n\n\n@dataclass\nclass LoggingArgs:\n    level: str = 'info'\n"
            "    push_to_hub: bool = False\n\n\n@dataclass\nclass Config:\n    logging: LoggingArgs\n"
        ),
        "pkg/main.py": "from pkg.config import Config, LoggingArgs\n\n\ndef main():\n    print(Config(LoggingArgs()).logging.level)\n",
        "pkg/load.py": (
            "import dacite\nfrom pkg.config import Config\n\n\ndef load(data):\n"
            "    return dacite.from_dict(data_class=Config, data=data, config=dacite.Config(strict=True))\n"
        ),
    }
    loaded = [(p, line, c) for p, line, c in lint(write(tmp_path / "a", files), cache_dir) if p == "pkg/config.py"]
    assert loaded and all(c != "HIGH" for _, _, c in loaded), loaded
    del files["pkg/load.py"]
    plain = [(p, line, c) for p, line, c in lint(write(tmp_path / "b", files), cache_dir) if p == "pkg/config.py"]
    assert plain and all(c == "HIGH" for _, _, c in plain), plain


def test_a_config_whose_base_is_copied_field_by_field_by_reflection_is_read(tmp_path: Path, cache_dir: Path) -> None:
    """ChatLearn's `set_megatron_cfg(cfg: BaseConfig)`: every field of whatever config subclass it is handed is
    copied onto the backend's namespace (`fields(cfg)` with `getattr(cfg, key)`): no field of a subclass is unread.
    A config class of another base is still judged."""
    root = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base/__init__.py": "from pkg.base.base_config import BaseConfig\n",  # re-exported, as ChatLearn does
        "pkg/base/base_config.py": """
            from dataclasses import asdict, dataclass


            @dataclass
            class BaseConfig:
                def get(self, key):
                    return getattr(self, key)

                def items(self):
                    return asdict(self).items()
        """,
        "pkg/configs.py": """
            from dataclasses import dataclass

            from pkg.base import BaseConfig


            @dataclass
            class ArchitectureConfig(BaseConfig):
                ffn_hidden_size: int = 0
                norm_epsilon: float = 1e-5


            @dataclass
            class ServeConfig:
                port: int = 8000
                legacy_flag: bool = False
        """,
        "pkg/mapping.py": """
            from dataclasses import dataclass, fields


            @dataclass
            class MappingConfig:
                def __iter__(self):
                    for field in fields(self):
                        yield getattr(self, field.name)
        """,
        "pkg/options.py": """
            from dataclasses import dataclass

            from pkg.mapping import MappingConfig


            @dataclass
            class ServeOptions(MappingConfig):
                stale_knob: int = 0
                port: int = 8000
        """,
        "pkg/backend.py": """
            from dataclasses import fields

            from pkg.base import BaseConfig
            from pkg.options import ServeOptions
            from pkg.configs import ArchitectureConfig, ServeConfig


            def set_backend_cfg(args, cfg: BaseConfig) -> None:
                for field in fields(cfg):
                    value = getattr(cfg, field.name)
                    if isinstance(value, BaseConfig):
                        set_backend_cfg(args, value)
                    elif hasattr(args, field.name):
                        setattr(args, field.name, value)


            def main(args) -> int:
                set_backend_cfg(args, ArchitectureConfig())
                return ServeConfig().port + ServeOptions().port
        """,
    })
    found = lint(root, cache_dir)
    assert not [f for f in found if f[0] == "pkg/configs.py" and f[1] in (8, 9)], found
    assert ("pkg/configs.py", 15, "HIGH") in found, found
    assert ("pkg/options.py", 8, "HIGH") in found, found  # its base only walks itself (a Mapping), in its own module
    rejected = lint(root, cache_dir, "--omni-include-rejected=y")
    assert ("pkg/configs.py", 8, "UNDEFINED") in rejected, rejected
