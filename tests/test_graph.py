"""The reference graph and the upstream index: resolution, caching, incremental re-resolution."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import SAMPLE_REPO
from pylint_omni.compat.runtime import RuntimeMetadata
from pylint_omni.index.graph import graph_of
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.settings import UPSTREAM_INSTALLED_ENV
from pylint_omni.index.upstream import upstream_of
from pylint_omni.index.run_options import settings_for_root, settings_of
from pylint_omni.plugin import register_scanners

FILES = {
    "pyproject.toml": "[project]\nname = 'pkg'\n",
    "pkg/__init__.py": "from pkg.core.models import Engine as Engine\n__all__ = ['Engine']\n",
    "pkg/core/__init__.py": "",
    "pkg/core/models.py": (
        "import importlib\n\n\nclass Engine:\n    def __init__(self, size: int) -> None:\n        self.size = size\n\n"
        "    def step(self) -> int:\n        return self.size\n\n\n"
        "def plugin():\n    return importlib.import_module('.helpers', package='pkg.core')\n"
    ),
    "pkg/core/helpers.py": "def helper():\n    return 1\n",
    "pkg/lazy/__init__.py": (
        "import importlib\n\n_EXPORTS = {'Fast': '.fast', 'Slow': '.slow'}\n\n\n"
        "def __getattr__(name):\n    return getattr(importlib.import_module(_EXPORTS[name], __name__), name)\n"
    ),
    "pkg/lazy/fast.py": "class Fast:\n    pass\n",
    "pkg/lazy/slow.py": "class Slow:\n    pass\n",
    "pkg/use.py": (
        "import pkg\nfrom pkg.lazy import Fast\nfrom pkg.core import models as m\n\n\n"
        "def run(engine: m.Engine) -> int:\n    made = pkg.Engine(3)\n    made.step()\n    return engine.size + Fast is None\n"
    ),
    "conf/deploy.yaml": "engine: pkg.core.models.Engine\nworker_cls: pkg.lazy.slow.Slow\n",
}


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, ProjectIndex]:
    register_scanners()
    root = tmp_path / "proj"
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    settings = replace(settings_for_root(root), cache_dir=tmp_path / "cache")
    index = ProjectIndex(root, settings)
    index.refresh()
    return root, index


def vias(index: ProjectIndex, target: str) -> set[tuple[str, str]]:
    return {(r.path, r.via) for r in graph_of(index).refs_to(target)}


def test_chains_reexports_and_module_aliases_resolve_to_the_definition(project: tuple[Path, ProjectIndex]) -> None:
    _, index = project
    engine = "pkg.core.models.Engine"
    found = vias(index, engine)
    assert ("pkg/use.py", "call") in found  # pkg.Engine(3), through the package re-export
    assert ("pkg/use.py", "annot") in found  # m.Engine through a module alias
    assert ("conf/deploy.yaml", "yaml-value") in found  # a qualname in configuration
    assert ("pkg/use.py", "hop") in vias(index, "pkg.Engine")  # the re-export itself is recorded


def test_receivers_of_a_known_class_resolve_attributes_to_the_owner(project: tuple[Path, ProjectIndex]) -> None:
    _, index = project
    assert ("pkg/use.py", "attr-load") in vias(index, "pkg.core.models.Engine.size")  # annotated parameter
    assert ("pkg/use.py", "attr-call") in vias(index, "pkg.core.models.Engine.step")  # constructor result
    assert ("pkg/core/models.py", "attr-store") in vias(index, "pkg.core.models.Engine.size")  # self


def test_lazy_exports_and_relative_import_module(project: tuple[Path, ProjectIndex]) -> None:
    _, index = project
    assert ("pkg/use.py", "import") in vias(index, "pkg.lazy.fast.Fast")
    assert ("pkg/use.py", "hop") in vias(index, "pkg.lazy.Fast")
    assert vias(index, "pkg.lazy.Slow") == set()  # only the submodule's class is named (in YAML)
    assert ("pkg/core/models.py", "import_module") in vias(index, "pkg.core.helpers")


def test_class_flows_into_cls_slots(project: tuple[Path, ProjectIndex]) -> None:
    _, index = project
    flows = graph_of(index).flows("worker_cls")
    assert [(f.path, f.value) for f in flows] == [("conf/deploy.yaml", "c:pkg.lazy.slow.Slow")]


def test_graph_is_cached_and_a_change_reresolves_only_its_dependents(project: tuple[Path, ProjectIndex], tmp_path: Path) -> None:
    root, index = project
    first = graph_of(index).stats
    assert first.resolved == len(index.entries) and first.reused == 0
    fresh = ProjectIndex(root, index.settings)
    fresh.refresh()
    warm = graph_of(fresh).stats
    assert warm.resolved == 0 and warm.reused == len(index.entries)  # from the disk store
    # A body-only edit changes no export table: only the file itself is resolved again.
    helpers = root / "pkg/core/helpers.py"
    helpers.write_text("def helper():\n    return 2\n")
    os.utime(helpers, ns=(1, 1))
    fresh.refresh()
    assert graph_of(fresh).stats.resolved == 1
    # An export change re-resolves the files that went through that table, not the others.
    models = root / "pkg/core/models.py"
    models.write_text(models.read_text() + "\n\nclass Extra:\n    pass\n")
    fresh.refresh()
    again = graph_of(fresh).stats
    assert 2 <= again.resolved < len(index.entries) - 2


def test_an_editor_buffer_replaces_its_file(project: tuple[Path, ProjectIndex]) -> None:
    _, index = project
    assert ("pkg/use.py", "call") in vias(index, "pkg.core.models.Engine")
    index.override("pkg/use.py", "def run():\n    return None\n")
    assert ("pkg/use.py", "call") not in vias(index, "pkg.core.models.Engine")
    assert graph_of(index).stats.resolved >= 1


def test_attribute_reads_name_their_owners_and_keep_unknown_receivers(tmp_path: Path) -> None:
    register_scanners()
    root = tmp_path / "proj"
    files = {
        "pyproject.toml": "[project]\nname = 'pkg'\n",
        "pkg/__init__.py": "",
        "pkg/cfg.py": "class Cfg:\n    size: int = 1\n",
        "pkg/holder.py": (
            "import torch\nfrom pkg.cfg import Cfg\n\n\nclass Holder:\n"
            "    def __init__(self, cfg: Cfg) -> None:\n        self.cfg = cfg\n        self.spare = None\n\n"
            "    def use(self, thing):\n        local = self.cfg\n"
            "        a = self.cfg.size + local.size\n"  # line 12: both resolved to Cfg
            "        b = self.cfg.size + thing.size\n"  # line 13: one receiver of unknown class
            "        return torch.backends.cudnn.enabled, self.spare.size\n"  # line 14: a module's; `spare` has no class
        ),
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    index = ProjectIndex(root, replace(settings_for_root(root), cache_dir=tmp_path / "cache"))
    index.refresh()
    graph = graph_of(index)
    kinds = lambda line, attr: sorted((r.kind, r.owner) for r in graph.attribute_reads("pkg/holder.py", line, attr))  # noqa: E731
    assert kinds(12, "size") == [("class", "pkg.cfg.Cfg")]
    assert kinds(13, "size") == [("class", "pkg.cfg.Cfg"), ("unknown", "")]
    assert kinds(14, "enabled") == [("module", "torch.backends.cudnn")]
    assert kinds(14, "size") == [("unknown", "")]


def test_upstream_index_reads_the_fake_package_without_importing_it() -> None:
    register_scanners()
    index = ProjectIndex(SAMPLE_REPO, settings_for_root(SAMPLE_REPO))
    index.refresh()
    upstream = upstream_of(index)
    assert list(upstream.found) == ["tinyupstream", "tinyvllm"]  # both in the sample's `.upstream` folder
    assert "tinyupstream" not in __import__("sys").modules
    package = upstream.package("tinyupstream")
    assert package is not None
    reads = [(r.path, r.via) for r in package.attribute_uses("tinyupstream.scheduler.Request", "priority_hint")]
    assert ("tinyupstream/scheduler.py", "attr-load") in reads
    assert [r.path for r in package.op_uses("tinyomni", "fused_add_norm")] == ["tinyupstream/ops.py"]
    facts = package.facts_of("tinyupstream/models.py")
    assert {c["name"] for c in facts["classes"]} == {"UpstreamVideoTransformer", "UpstreamAudioTransformer", "Qwen9MoeDecoderLayer",
                                                    "Qwen9DecoderLayer", "ThinkerForConditionalGeneration"}


def test_upstream_names_read_accepted_and_defined_and_the_dist_info(tmp_path: Path) -> None:
    register_scanners()
    index = ProjectIndex(SAMPLE_REPO, replace(settings_for_root(SAMPLE_REPO), cache_dir=tmp_path))
    index.refresh()
    package = upstream_of(index).package("tinyvllm")
    assert package is not None and package.version == "0.4.0"  # from tinyvllm-0.4.0.dist-info beside the source
    assert package.located.metadata is not None and package.located.metadata.name == "tinyvllm-0.4.0.dist-info"
    read = package.reads("enforce_eager")
    assert read is not None and (read.path, read.via) == ("tinyvllm/engine_args.py", "attr")
    assert package.reads("extra_compile_passes") is None
    accepted = package.accepts("model")
    assert accepted is not None and accepted.via == "field"  # `EngineArgs.model`, a dataclass field
    assert package.accepts("args") is not None and package.accepts("self") is None  # `create_engine(args)`; never `self`
    defined = package.defines("tinyvllm.engine_args", "create_engine")
    assert defined is not None and defined.describe() == "tinyvllm 0.4.0 tinyvllm/engine_args.py:12"
    assert package.defines("tinyvllm.engine_args", "create_fused_engine") is None
    assert package.defines("tinyvllm", "engine_args") is not None  # a submodule
    assert len(list(tmp_path.glob("upstream-tinyvllm-*-names-*.json"))) == 1  # built once, cached beside the summary


def test_upstream_summary_is_built_once_per_version(tmp_path: Path) -> None:
    register_scanners()
    settings = replace(settings_for_root(SAMPLE_REPO), cache_dir=tmp_path)
    index = ProjectIndex(SAMPLE_REPO, settings)
    index.refresh()
    package = upstream_of(index).package("tinyupstream")
    assert package is not None
    package.summary()
    assert package.build_seconds is not None
    cached = [p.name for p in tmp_path.glob("upstream-tinyupstream-*.json")]
    assert len(cached) == 3  # summary, names and the files' modules and imports: no per-file facts
    again = type(package)(package.located, tmp_path, package.seeds)
    again.summary()
    assert again.build_seconds is None  # loaded, not rebuilt


def test_a_listed_upstream_that_is_not_installed_is_an_unknown(tmp_path: Path) -> None:
    register_scanners()
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname='pkg'\n")
    (root / "pkg/__init__.py").write_text("import notinstalledupstream\n")
    settings = replace(settings_for_root(root), upstream_packages=("notinstalledupstream",), cache_dir=tmp_path / "c")
    index = ProjectIndex(root, settings)
    index.refresh()
    upstream = upstream_of(index)
    assert upstream.missing == ["notinstalledupstream"]
    assert "notinstalledupstream is imported but not installed" in upstream.unknowns()[0]


def test_an_installed_upstream_is_read_only_where_the_settings_allow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests run with `PYLINT_OMNI_UPSTREAM_INSTALLED=n` (conftest): an installed distribution is then no upstream,
    and the compat family does not see its version either; with it allowed, the same distribution is indexed."""
    register_scanners()
    site = tmp_path / "site"
    (site / "fakeup").mkdir(parents=True)
    (site / "fakeup/__init__.py").write_text("def hook(config):\n    return config.fake_option\n")
    info = site / "fakeup-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeup\nVersion: 1.2\n")
    (info / "RECORD").write_text("fakeup/__init__.py,,\nfakeup-1.2.dist-info/METADATA,,\n")
    monkeypatch.syspath_prepend(str(site))
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname='pkg'\n")
    (root / "pkg/__init__.py").write_text("import fakeup\n")

    def upstream(cache: str) -> tuple[list[str], list[str], bool]:
        settings = replace(settings_for_root(root), upstream_packages=("fakeup",), cache_dir=tmp_path / cache)
        index = ProjectIndex(root, settings)
        index.refresh()
        found = upstream_of(index)
        return [f"{p.name} {p.version}" for p in found.packages()], found.missing, RuntimeMetadata(index).of("fakeup") is not None

    assert os.environ[UPSTREAM_INSTALLED_ENV] == "n"
    assert upstream("hermetic") == ([], ["fakeup"], False)
    monkeypatch.setenv(UPSTREAM_INSTALLED_ENV, "y")
    assert upstream("installed") == (["fakeup 1.2"], [], True)
    assert settings_of({}).upstream_installed and not settings_of({"omni-upstream-installed": False}).upstream_installed


def test_function_level_imports_bind_in_their_function_from_the_statement_on(tmp_path: Path) -> None:
    register_scanners()
    root = tmp_path / "proj"
    files = {
        "pyproject.toml": "[project]\nname = 'pkg'\n",
        "pkg/__init__.py": "",
        "pkg/norm.py": "class Builder:\n    pass\n",
        "pkg/quant.py": "class Builder:\n    pass\n",
        "pkg/pick.py": (
            "def pick(kind):\n    if kind:\n        from pkg.norm import Builder\n        return Builder\n"
            "    from .quant import Builder\n    return Builder\n"
        ),
        "docs/use.md": "```python\nfrom pkg.norm import Builder\n```\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    index = ProjectIndex(root, replace(settings_for_root(root), cache_dir=tmp_path / "cache"))
    index.refresh()
    assert ("pkg/pick.py", "load") in vias(index, "pkg.norm.Builder")
    assert {(r.path, r.line) for r in graph_of(index).refs_to("pkg.quant.Builder") if r.via == "load"} == {("pkg/pick.py", 6)}
    assert ("docs/use.md", "doc") in vias(index, "pkg.norm.Builder")  # a docs code block importing it names its qualname


def test_a_package_name_rebound_over_its_submodule_is_the_rebound_object(tmp_path: Path) -> None:
    register_scanners()
    root = tmp_path / "proj"
    files = {
        "pyproject.toml": "[project]\nname = 'pkg'\n",
        "pkg/__init__.py": "",
        "pkg/kernels/__init__.py": "from .rope import rope\nfrom . import norm\n",
        "pkg/kernels/rope.py": "def rope(x):\n    return x\n",
        "pkg/kernels/norm.py": "def norm(x):\n    return x\n",
        "pkg/use.py": "from pkg.kernels import norm, rope\n\n\ndef run(x):\n    return rope(norm.norm(x))\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    index = ProjectIndex(root, replace(settings_for_root(root), cache_dir=tmp_path / "cache"))
    index.refresh()
    graph = graph_of(index)
    assert graph.resolve("pkg.kernels.rope").dotted == "pkg.kernels.rope.rope"  # the function, as Python binds it
    assert graph.resolve("pkg.kernels.norm").kind == "module"  # `from . import norm` keeps the module
    assert ("pkg/use.py", "call") in vias(index, "pkg.kernels.rope.rope")
