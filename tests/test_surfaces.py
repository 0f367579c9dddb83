"""unused-surface and test-only-surface: reachability, chains, conventions and evidence, on real pylint runs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from conftest import Finding, enable_args, run_pylint, write_tree
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.run_options import settings_for_root
from pylint_omni.plugin import register_scanners
from pylint_omni.surfaces.analysis import DEAD, TEST_ONLY, analysis_of
from pylint_omni.surfaces.explain import reachability_lines
from pylint_omni.surfaces.table import SURFACE_FACTS

SYMBOLS = ["unused-surface", "test-only-surface"]


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"pyproject.toml": "[project]\nname = 'app'\n", **files}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


EACH = ("--omni-granularity=member",)  # each member's own verdict (the changes they fold into: test_change_sets.py)


def lint(root: Path, cache_dir: Path, *extra: str) -> list[Finding]:
    code, findings, stderr = run_pylint([*enable_args(SYMBOLS), *extra, "app"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr and code & 33 == 0, stderr
    return findings


def by_subject(findings: list[Finding]) -> dict[str, Finding]:
    """Findings by what their message is about (`Function init_loop`, `Method Timer.start`), the confidence tag off."""
    return {f.message.split(" is used only")[0].split(" has no consumer")[0].partition("] ")[2]: f for f in findings}


def statuses(root: Path, tmp_path: Path, **settings: object) -> dict[str, str]:
    """Surface shown at -> status, from the analysis itself."""
    register_scanners()
    index = ProjectIndex(root, replace(settings_for_root(root), cache_dir=tmp_path / "c", **settings))
    index.refresh()
    analysis = analysis_of(index)
    return {dotted: status for dotted, (status, _) in analysis.chains.items()}


APP = {
    "app/__init__.py": "",
    "app/main.py": (
        "from app.core import Engine\n\n\n"
        "def main():\n    engine = Engine()\n    engine.close()\n    return engine.run()\n\n\n"
        "if __name__ == '__main__':\n    main()\n"
    ),
    "app/core.py": (
        "class EngineError(Exception):\n    pass\n\n\n"
        "class Engine:\n"
        "    def run(self):\n        return self._step()\n\n"
        "    def _step(self):\n        return 1\n\n"
        "    def rebuild(self):\n        return self._rebuild_cache()\n\n"
        "    def _rebuild_cache(self):\n        return 2\n\n"
        "    def close(self):\n        return 0\n\n"
        "    def close(self):\n        return 1\n\n\n"
        "def _ping(n):\n    return _pong(n - 1) if n else 0\n\n\n"
        "def _pong(n):\n    return _ping(n - 1) if n else 0\n"
    ),
}


def test_dead_chains_cycles_and_shadowed_definitions(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path / "proj", APP)
    found = {(f.path, f.line): f for f in lint(root, cache_dir, "--omni-granularity=member")}  # each chain's own words
    rebuild = found[("app/core.py", 12)]
    assert rebuild.symbol == "unused-surface" and rebuild.confidence == "HIGH"
    assert "Engine.rebuild has no consumer, nor Engine._rebuild_cache that only it uses" in rebuild.message
    assert ("app/core.py", 15) not in found  # a member of the chain: named, not reported apart
    assert "Exception class EngineError is never raised or caught" in found[("app/core.py", 1)].message
    assert "replaced by a later definition" in found[("app/core.py", 18)].message
    cycle = [f for f in found.values() if "only use each other" in f.message]
    assert len(cycle) == 1 and "_ping" in cycle[0].message and "_pong" in cycle[0].message
    assert ("app/core.py", 6) not in found and ("app/core.py", 9) not in found  # run, _step: reached from main()
    assert all(len(f.message) <= 300 for f in found.values())


def test_a_chain_member_in_another_module_is_named_with_its_module(tmp_path: Path, cache_dir: Path) -> None:
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/main.py": ("from app.report import total\nfrom app.util import clean\n\n\ndef main():\n    return total(clean([1]))\n\n\n"
                        "if __name__ == '__main__':\n    main()\n"),
        "app/report.py": ("from app.util import render_rows\n\n\ndef total(rows):\n    return sum(rows)\n\n\n"
                          "def export(rows):\n    return render_rows(rows)\n"),
        "app/util.py": "def clean(rows):\n    return rows\n\n\ndef render_rows(rows):\n    return [str(r) for r in rows]\n",
    })
    [export] = [f for f in lint(root, cache_dir, "--omni-granularity=member") if f.path == "app/report.py"]
    assert "Function export has no consumer, nor render_rows (in app.util) that only it uses" in export.message


def test_dead_methods_of_a_live_class_are_one_finding_at_the_class(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/main.py": "from app.core import Engine\n\n\ndef main():\n    return Engine().run()\n\n\nif __name__ == '__main__':\n    main()\n",
        "app/core.py": (
            "class Engine:\n"
            "    def run(self):\n        return 1\n\n"
            "    def pause(self):\n        return 2\n\n"
            "    def resume(self):\n        return 3\n\n"
            "    def drain(self):\n        return self._flush()\n\n"
            "    def _flush(self):\n        return 4\n"
        ),
    }
    found = [f for f in lint(write(tmp_path / "proj", files), cache_dir) if f.path == "app/core.py"]
    assert [(f.line, f.symbol, f.confidence) for f in found] == [(1, "unused-surface", "HIGH")]
    # Every method that goes is counted, and the names shown with "and N more" add up to the count.
    assert "Class Engine has 4 methods nothing calls (pause, resume, drain and 1 more)" in found[0].message


def test_roots_and_dynamic_consumers_keep_surfaces_alive(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "import app.dispatch\n",
        "setup.py": "from setuptools import setup\nsetup(entry_points={'app.plugins': ['x = app.plugin:load']})\n",
        "deploy/stage.yaml": "worker_cls: app.workers.GpuWorker\n",
        "app/plugin.py": "def load():\n    return 1\n\n\ndef unused_helper():\n    return 2\n",
        "app/workers.py": "class GpuWorker:\n    def __call__(self):\n        return 1\n\n\nclass CpuWorker:\n    pass\n",
        "app/policies.py": (
            "class Policy:\n    known = []\n\n    def __init_subclass__(cls):\n        Policy.known.append(cls)\n\n\n"
            "class Open(Policy):\n    pass\n"
        ),
        "app/handlers/__init__.py": (
            "import importlib\nimport pkgutil\n\nfor _, name, _ in pkgutil.iter_modules(__path__):\n"
            "    importlib.import_module(f'{__name__}.{name}')\n"
        ),
        "app/handlers/audio.py": "from app.policies import Policy\n\n\nclass AudioPolicy(Policy):\n    pass\n",
        "app/dispatch.py": (
            "import app.policies\nimport app.handlers\n\n\nclass Dispatcher:\n"
            "    def handle(self, kind):\n        return getattr(self, f'_on_{kind}')()\n\n"
            "    def _on_text(self):\n        return 1\n\n\nDISPATCHER = Dispatcher()\nDISPATCHER.handle('text')\n"
        ),
    }
    root = write(tmp_path / "proj", files)
    found = statuses(root, tmp_path)
    assert found == {"app.plugin.unused_helper": DEAD, "app.workers.CpuWorker": DEAD}


def test_extra_roots_by_path_and_by_dotted_name(tmp_path: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/__main__.py": "print('app')\n",
        "app/legacy/__init__.py": "",
        "app/legacy/old.py": "def old():\n    return 1\n",
        "app/plugins.py": "def hook_a():\n    return 1\n\n\ndef other():\n    return 2\n",
    }
    root = write(tmp_path / "proj", files)
    assert set(statuses(root, tmp_path)) == {"app.legacy", "app.plugins"}
    kept = statuses(root, tmp_path, extra_roots=("app/**", "!app/plugins.py", "app.plugins.hook_*"))
    assert kept == {"app.plugins.other": DEAD}


def test_test_only_surfaces_examples_and_documented_helpers(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "from app.serve import serve\n",
        "app/serve.py": "def serve():\n    return 1\n",
        "app/debug.py": (
            "def snapshot(queue):\n    return list(queue)\n\n\n"
            "def table(queue):\n    return str(queue)\n\n\n"
            "class Replay:\n    pass\n"
        ),
        "tests/test_debug.py": (
            "from app.debug import snapshot, table\n\n\n"
            "def test_snapshot():\n    assert snapshot([1]) == [1]\n\n\n"
            "def test_table():\n    assert table([1])\n"
        ),
        "examples/replay.py": "from app.debug import Replay\n\nReplay()\n",
        "docs/guide.md": "# Guide\n\n```python\nfrom app.debug import table\n```\n",
    }
    root = write(tmp_path / "proj", files)
    found = {(f.path, f.line): f for f in lint(root, cache_dir, "--omni-include-rejected=y")}
    snapshot = found[("app/debug.py", 1)]
    assert snapshot.symbol == "test-only-surface" and snapshot.confidence == "HIGH"
    assert "and the test that exists only for it" in snapshot.message
    assert found[("app/debug.py", 9)].confidence == "INFERENCE" and "examples" in found[("app/debug.py", 9)].message
    assert "rejected: documented as supported API in docs/guide.md" in found[("app/debug.py", 5)].message


def test_events_and_routes(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "from app.server import app, Server\n",
        "app/server.py": (
            "import threading\n\nfrom fastapi import FastAPI\n\napp = FastAPI()\n\n\n"
            "class Server:\n    def __init__(self):\n        self._ready = threading.Event()\n"
            "        self._stop = threading.Event()\n        self._shared = threading.Event()\n"
            "        self._done = threading.Event()\n\n"
            "    def start(self):\n        self._ready.set()\n        self._done.set()\n        start_worker(self._shared)\n\n"
            "    def join(self):\n        self._stop.wait(5)\n        self._done.wait()\n\n\n"
            "def start_worker(event):\n    return event\n\n\n"
            "@app.get('/v1/health')\ndef health():\n    return {}\n\n\n"
            "@app.post('/v1/generate')\ndef generate():\n    return {}\n\n\n"
            "@app.get('/v1/debug/{name}')\ndef debug(name):\n    return {}\n"
        ),
        "tests/test_server.py": "import requests\n\n\ndef test_debug():\n    requests.get('http://localhost:8000/v1/debug/x')\n",
        "docs/api.md": "Post to `/v1/generate`.\n",
    }
    root = write(tmp_path / "proj", files)
    found = {(f.path, f.line): f for f in lint(root, cache_dir)}
    assert "Event Server._ready is set (line 16) but nothing waits on it" in found[("app/server.py", 10)].message
    assert "Event Server._stop is waited on (line 21) but nothing sets it" in found[("app/server.py", 11)].message
    assert ("app/server.py", 12) not in found and ("app/server.py", 13) not in found  # escapes; fired and waited
    health = found[("app/server.py", 30)]
    assert health.symbol == "unused-surface" and health.confidence == "INFERENCE" and "GET /v1/health" in health.message
    assert found[("app/server.py", 40)].symbol == "test-only-surface"  # /v1/debug/{name}: only tests call it
    assert ("app/server.py", 35) not in found  # /v1/generate: the docs name it


def test_routes_whose_clients_live_elsewhere_are_not_reported(tmp_path: Path, cache_dir: Path) -> None:
    """A server whose repository calls one of its six routes serves a UI or SDK kept elsewhere: an uncalled route
    says nothing there. Once the repository calls most of them, the one it does not call is reported (medium)."""
    routes = "".join(f"@app.get('/v1/r{i}')\ndef r{i}():\n    return {{}}\n\n\n" for i in range(6))
    server = "from fastapi import FastAPI\n\napp = FastAPI()\n\n\n" + routes
    files = {"app/__init__.py": "from app.server import app\n", "app/server.py": server,
             "docs/api.md": "Call `/v1/r0`.\n"}
    assert not [f for f in lint(write(tmp_path / "few", files), cache_dir) if f.path == "app/server.py"]
    files["docs/api.md"] = "".join(f"Call `/v1/r{i}`.\n" for i in range(5))
    found = [(f.path, f.symbol, f.confidence) for f in lint(write(tmp_path / "most", files), cache_dir)]
    assert found == [("app/server.py", "unused-surface", "INFERENCE")], found


def test_upstream_hooks_structural_protocols_and_unknown_bases(tmp_path: Path, cache_dir: Path) -> None:
    upstream = tmp_path / "up"
    write(upstream, {
        "ups/__init__.py": "",
        # A placeholder of the same name met first (diffusers' `utils/dummy_*_objects.py`) hides nothing.
        "ups/a_dummies.py": "class Client:\n    def generate(self): ...\n    def from_config(self): ...\n",
        "ups/engine.py": (
            "class Client:\n    def generate(self): ...\n    def abort(self): ...\n    def is_running(self): ...\n"
            "    def check_health(self): ...\n\n\n"
            "class Base:\n    def step(self):\n        return self.hook()\n\n    def hook(self):\n        raise NotImplementedError\n\n\n"
            "def serve(client):\n    return client.describe()\n"
        ),
    })
    files = {
        "app/__init__.py": "",
        "app/main.py": (
            "from ups.engine import serve\nfrom app.impl import Omni, Runner, Local\n\n"
            "if __name__ == '__main__':\n    serve(Omni())\n    Runner().step()\n    Local()\n"
        ),
        "app/impl.py": (
            "from ups.engine import Base, Client  # noqa: F401\nfrom other_pkg import Foreign\n\n\n"
            "class Omni:\n    def generate(self): ...\n    def abort(self): ...\n    def is_running(self): ...\n"
            "    def _secret(self): ...\n\n\n"
            "class Runner(Base):\n    def hook(self):\n        return 1\n\n    def describe(self):\n        return 2\n\n"
            "    def unused(self):\n        return 3\n\n\n"
            "class Local(Foreign):\n    def maybe_override(self):\n        return 4\n"
        ),
    }
    root = write(tmp_path / "proj", files)
    found = {(f.path, f.line): f for f in lint(root, cache_dir, f"--omni-upstream-paths={upstream}", "--omni-granularity=member")}
    assert set(found) == {("app/impl.py", 9), ("app/impl.py", 19), ("app/impl.py", 24)}
    assert found[("app/impl.py", 19)].confidence == "HIGH"  # Runner.unused: neither the project nor upstream
    assert found[("app/impl.py", 24)].confidence == "INFERENCE"  # may override other_pkg.Foreign, unread
    assert found[("app/impl.py", 9)].message.startswith("[high] Method Omni._secret")


@pytest.mark.parametrize("kind", ["module", "lazy"])
def test_lazy_exports_and_function_level_imports(tmp_path: Path, kind: str) -> None:
    files = {
        "app/__init__.py": "",
        "app/kernels/__init__.py": "",
        "app/kernels/norm.py": "class NormBuilder:\n    pass\n",
        "app/kernels/quant.py": "class NormBuilder:\n    pass\n",
        "app/backend.py": (
            "def builder(kind):\n    if kind == 'norm':\n        from app.kernels.norm import NormBuilder\n        return NormBuilder\n"
            "    from app.kernels.quant import NormBuilder\n    return NormBuilder\n"
        ),
        "app/lazy/__init__.py": (
            "import importlib\n\n_EXPORTS = {'Fast': '.fast'}\n\n\n"
            "def __getattr__(name):\n    return getattr(importlib.import_module(_EXPORTS[name], __name__), name)\n"
        ),
        "app/lazy/fast.py": "class Fast:\n    pass\n",
        "app/main.py": (
            "from app.backend import builder\nfrom app.lazy import Fast\n\n\n"
            "if __name__ == '__main__':\n    print(builder('norm'), Fast)\n"
        ),
    }
    root = write(tmp_path / kind, files)
    assert statuses(root, tmp_path / kind) == {}


def test_every_branch_of_a_conditional_re_export_is_live(tmp_path: Path) -> None:
    """`if nvtx: from .nvtx import mark` / `elif npu: from .mstx import mark` / `else: from .base import mark`:
    which branch runs depends on the machine, so a use of `profiler.mark` uses all three, and a `try`/`except
    ImportError` fallback likewise; a name only the unused branch binds stays dead."""
    files = {
        "app/__init__.py": "",
        "app/flags.py": "NVTX = True\nNPU = False\n",
        "app/profiler/__init__.py": (
            "from app.flags import NPU, NVTX\n\n"
            "if NVTX:\n    from .nvtx import mark, only_nvtx\n"
            "elif NPU:\n    from .mstx import mark\n"
            "else:\n    from .base import mark\n\n"
            "try:\n    from .fast import parse\nexcept ImportError:\n    from .base import parse\n"
        ),
        "app/profiler/nvtx.py": "def mark(name):\n    return name\n\n\ndef only_nvtx():\n    return 0\n",
        "app/profiler/mstx.py": "def mark(name):\n    return name\n",
        "app/profiler/fast.py": "def parse(text):\n    return text\n",
        "app/profiler/base.py": "def mark(name):\n    return name\n\n\ndef parse(text):\n    return text\n",
        "app/main.py": (
            "from app.profiler import mark, parse\n\n\n"
            "if __name__ == '__main__':\n    print(mark('step'), parse('x'))\n"
        ),
    }
    root = write(tmp_path / "tree", files)
    assert statuses(root, tmp_path / "tree") == {"app.profiler.nvtx.only_nvtx": DEAD}


def test_a_method_a_framework_base_may_call_by_name_is_medium_on_duck_typed_classes(tmp_path: Path, cache_dir: Path) -> None:
    """One class extends a base no index reads and defines `set_input_tensor`; the pipeline schedule behind that base
    calls it by name on whatever model it is given, so the same method of another torch module is medium, not high;
    a method no such class defines, and the same method of a plain object, stay high."""
    files = {
        "app/__init__.py": "",
        "app/models.py": (
            "from megatron.core import MegatronModule\nfrom torch import nn\n\n\n"
            "class VisionModel(MegatronModule):\n"
            "    def set_input_tensor(self, tensor):\n        self.tensor = tensor\n\n\n"
            "class Cache:\n"
            "    def set_input_tensor(self, tensor):\n        self.tensor = tensor\n\n\n"
            "class LlamaForCausalLM(nn.Module):\n"
            "    def forward(self, x):\n        return x\n\n"
            "    def set_input_tensor(self, tensor):\n        self.tensor = tensor\n\n"
            "    def stale_helper(self):\n        return 1\n"
        ),
        "app/main.py": (
            "from app.models import LlamaForCausalLM, VisionModel\n\n\n"
            "if __name__ == '__main__':\n    print(LlamaForCausalLM().forward(1), VisionModel())\n"
        ),
    }
    root = write(tmp_path / "tree", files)
    found = [f for f in lint(root, cache_dir) if f.symbol == "unused-surface"]
    high = [f.message for f in found if f.confidence == "HIGH"]
    assert not any("set_input_tensor" in m for m in high), high
    assert any("LlamaForCausalLM.set_input_tensor" in f.message for f in found if f.confidence == "INFERENCE"), found
    assert any("LlamaForCausalLM.stale_helper" in m for m in high), high
    assert any("Cache" in m for m in high), high  # a plain object is not what a framework is handed


def test_a_mixin_combined_with_a_base_no_index_reads_may_hold_its_hooks(tmp_path: Path, cache_dir: Path) -> None:
    """`class Trainer(SwiftMixin, HfTrainer)`: in Trainer the mixin's methods override the outside base's, whose own
    code calls them (`_load_rng_state`, `compute_loss`), so they are medium, never high; a method of a class no such
    class combines stays high."""
    files = {
        "app/__init__.py": "",
        "app/trainer.py": (
            "from transformers import Trainer as HfTrainer\n\n\n"
            "class SwiftMixin:\n    def _load_rng_state(self, checkpoint):\n        return checkpoint\n\n"
            "    def compute_loss(self, model, inputs):\n        return model(**inputs)\n\n\n"
            "class Trainer(SwiftMixin, HfTrainer):\n    pass\n\n\n"
            "class Helper:\n    def unused_helper(self):\n        return 1\n"
        ),
        "app/main.py": "from app.trainer import Helper, Trainer\n\n\nif __name__ == '__main__':\n    print(Trainer(), Helper())\n",
    }
    root = write(tmp_path / "tree", files)
    found = [f for f in lint(root, cache_dir) if f.symbol == "unused-surface"]
    high = [f.message for f in found if f.confidence == "HIGH"]
    assert not any("SwiftMixin" in m for m in high), high
    assert any("SwiftMixin" in f.message and "combines its class with transformers.Trainer" in f.message
               for f in found if f.confidence == "INFERENCE"), found
    assert any("Helper.unused_helper" in m for m in high), high


def test_a_base_a_package_star_exports_is_the_subclass_base(tmp_path: Path, cache_dir: Path) -> None:
    """llm-compressor: `from .layer_mask import *` in `pruning/utils/pytorch/__init__.py`, and
    `class ConstantPruningModifier(Modifier, LayerParamMasking)` imports the mixin from that package. The class graph
    did not follow the star import, so `self.add_mask(...)` in the modifier reached nothing and the mixin's eight
    methods were called dead (judged wrong). A method nothing calls stays a candidate, medium as the package exports it.
    """
    files = {
        "app/__init__.py": "",
        "app/masks/__init__.py": "from .layer_mask import *\n",
        "app/masks/layer_mask.py": (
            "__all__ = ['LayerParamMasking']\n\n\n"
            "class LayerParamMasking:\n    def add_mask(self, name):\n        return name\n\n"
            "    def forgotten(self):\n        return 1\n"
        ),
        "app/modifier.py": (
            "from app.masks import LayerParamMasking\n\n\n"
            "class ConstantModifier(LayerParamMasking):\n    def on_initialize(self):\n        return self.add_mask('weight')\n"
        ),
        "app/main.py": "from app.modifier import ConstantModifier\n\n\nif __name__ == '__main__':\n    print(ConstantModifier().on_initialize())\n",
    }
    root = write(tmp_path / "tree", files)
    found = [f for f in lint(root, cache_dir) if f.symbol in ("unused-surface", "test-only-surface")]
    assert not any("add_mask" in f.message for f in found), found
    # The star import exports the mixin as an explicit import would: its unused public method is medium, saying so.
    assert any("forgotten" in f.message and "exported by app.masks" in f.message for f in found), found


def test_a_package_marker_is_not_reported_apart_from_its_modules(tmp_path: Path, cache_dir: Path) -> None:
    """tpu-inference: `structured_sparse_matmul/__init__.py` (a license header) was "used only by tests; delete it
    (14 lines)" beside its `v1/spmm.py`, judged on its own: deleting the marker alone would drop `v1/` from the wheel.
    The modules under it carry the finding."""
    license_header = "".join(f"# line {i} of the license\n" for i in range(14))
    files = {
        "app/__init__.py": "",
        "app/main.py": "if __name__ == '__main__':\n    print('serve')\n",
        "app/kernels/__init__.py": "",
        "app/kernels/sparse/__init__.py": license_header,
        "app/kernels/sparse/v1/__init__.py": license_header,
        "app/kernels/sparse/v1/spmm.py": "def spmm(a, b):\n    return a @ b\n\n\ndef next_pow2(n):\n    return 1 << (n - 1).bit_length()\n",
        "tests/test_spmm.py": "from app.kernels.sparse.v1.spmm import next_pow2, spmm\n\n\ndef test_it():\n    assert spmm and next_pow2(3) == 4\n",
    }
    root = write(tmp_path / "tree", files)
    found = [f for f in lint(root, cache_dir) if f.symbol in ("unused-surface", "test-only-surface")]
    assert not any(f.path.endswith("__init__.py") for f in found), found  # no marker, at any level
    assert any(f.path == "app/kernels/sparse/v1/spmm.py" for f in found), found


def test_a_singleton_reset_only_tests_call_is_a_test_seam(tmp_path: Path, cache_dir: Path) -> None:
    """tpu-inference: `TPUKVCacheMetrics.destroy_instance` is called only by the tests, which reset the singleton
    between cases; "delete it" makes them poke `_instance` directly (judged debatable). It is medium, saying why; a
    test-only method of another name gets no such reason."""
    files = {
        "app/__init__.py": "",
        "app/metrics.py": (
            "class Metrics:\n    _instance = None\n\n"
            "    @classmethod\n    def get_instance(cls):\n        if cls._instance is None:\n            cls._instance = cls()\n"
            "        return cls._instance\n\n"
            "    @classmethod\n    def destroy_instance(cls):\n        cls._instance = None\n\n"
            "    def snapshot(self):\n        return {}\n"
        ),
        "app/main.py": "from app.metrics import Metrics\n\n\nif __name__ == '__main__':\n    print(Metrics.get_instance())\n",
        "tests/test_metrics.py": (
            "from app.metrics import Metrics\n\n\ndef test_it():\n    m = Metrics.get_instance()\n    assert m.snapshot() == {}\n"
            "    Metrics.destroy_instance()\n"
        ),
    }
    root = write(tmp_path / "tree", files)
    found = {f.message.split()[2]: f for f in lint(root, cache_dir) if f.symbol == "test-only-surface"}
    assert found["Metrics.destroy_instance"].confidence == "INFERENCE" and "test seam" in found["Metrics.destroy_instance"].message
    assert "test seam" not in found["Metrics.snapshot"].message, found


def test_an_unwired_package_a_computed_import_may_load_keeps_that_doubt(tmp_path: Path, cache_dir: Path) -> None:
    """llm-compressor's modifier factory imports every module under its modifier packages by a computed name; its
    `pruning/wanda/` package, which only tests use, stays medium. Its `__init__.py` marker no longer has a finding
    of its own (which carried the doubt), so the package's finding says it."""
    files = {
        "app/__init__.py": "",
        "app/modifiers/__init__.py": "",
        "app/modifiers/factory.py": (
            "import importlib\nimport pkgutil\n\n\ndef load_all():\n"
            "    for _, name, _ in pkgutil.walk_packages(['app/modifiers'], 'app.modifiers.'):\n"
            "        importlib.import_module(name)\n"
        ),
        "app/modifiers/wanda/__init__.py": "",
        "app/modifiers/wanda/base.py": "class WandaModifier:\n    def on_start(self):\n        return 1\n",
        "app/modifiers/wanda/utils.py": "def helper():\n    return 2\n",
        "app/main.py": "from app.modifiers.factory import load_all\n\n\nif __name__ == '__main__':\n    load_all()\n",
        "tests/test_wanda.py": (
            "from app.modifiers.wanda.base import WandaModifier\nfrom app.modifiers.wanda.utils import helper\n\n\n"
            "def test_it():\n    assert WandaModifier().on_start() + helper() == 3\n"
        ),
    }
    root = write(tmp_path / "tree", files)
    found = [f for f in lint(root, cache_dir) if f.symbol == "test-only-surface" and "wanda" in f.path]
    assert found and all(f.confidence == "INFERENCE" for f in found), found
    assert any("computed import" in f.message for f in found), found


def test_a_module_run_by_its_file_path_is_used(tmp_path: Path) -> None:
    """A shipped asset module that production code loads with `spec_from_file_location` by its file name is used,
    its public top-level definitions with it (a private one stays dead); a file name only tests write, one no loader names, or one several modules
    have (`utils.py`), is not."""
    files = {
        "app/__init__.py": "",
        "app/assets/__init__.py": "",
        "app/assets/encoding_dsv4.py": (
            "def encode(messages):\n    return messages\n\n\nclass Parser:\n    pass\n\n\ndef _stale():\n    return 0\n"
        ),
        "app/assets/stale_codec.py": "def decode(text):\n    return text\n",
        "app/assets/utils.py": "def unused_helper():\n    return 1\n",
        "app/utils.py": "def used():\n    return 1\n",
        "app/loader.py": (
            "import importlib.util\nimport os\n\n\n"
            "def load(folder):\n"
            "    path = os.path.join(folder, 'encoding_dsv4.py')\n"
            "    _ = os.path.join(folder, 'utils.py')\n"
            "    spec = importlib.util.spec_from_file_location('encoding_dsv4', path)\n"
            "    module = importlib.util.module_from_spec(spec)\n"
            "    spec.loader.exec_module(module)\n"
            "    return module\n"
        ),
        "app/main.py": (
            "from app.loader import load\nfrom app.utils import used\n\n\n"
            "if __name__ == '__main__':\n    print(load('.'), used())\n"
        ),
        "tests/test_codec.py": "def test_write(tmp_path):\n    (tmp_path / 'stale_codec.py').write_text('')\n",
    }
    root = write(tmp_path / "tree", files)
    assert statuses(root, tmp_path / "tree") == {
        "app.assets.stale_codec": DEAD, "app.assets.utils": DEAD, "app.assets.encoding_dsv4._stale": DEAD}


def test_a_module_that_only_re_exports_names_is_an_export_table(tmp_path: Path, cache_dir: Path) -> None:
    """`client/handlers.py` only imports handle classes under public names, for users: their unused public methods
    are medium (users outside may call them); a private one, and a method of a class nothing exports, stay high."""
    files = {
        "app/__init__.py": "",
        "app/client/__init__.py": "from .restful import Client\n",
        "app/client/restful.py": (
            "class ImageHandle:\n"
            "    def text_to_image(self, prompt):\n        return self._post(prompt)\n\n"
            "    def image_edit(self, image):\n        return image\n\n"
            "    def _post(self, body):\n        return body\n\n"
            "    def _stale(self):\n        return 0\n\n\n"
            "class Client:\n"
            "    def get_model(self):\n        return ImageHandle()\n\n\n"
            "class Internal:\n"
            "    def run(self):\n        return 1\n\n"
            "    def unused(self):\n        return 2\n"
        ),
        "app/client/handlers.py": "from .restful import ImageHandle as ImageModelHandle  # noqa: F401\n",
        "app/main.py": (
            "from app.client import Client\nfrom app.client.restful import Internal\n\n\n"
            "if __name__ == '__main__':\n    print(Client().get_model().text_to_image('x'), Internal().run())\n"
        ),
    }
    root = write(tmp_path / "tree", files)
    found = {(f.line, f.confidence) for f in lint(root, cache_dir, "--omni-granularity=member") if f.symbol == "unused-surface"}
    assert found == {(5, "INFERENCE"), (11, "HIGH"), (24, "HIGH")}, found


def test_a_computed_import_of_a_literal_table_loads_only_its_paths(tmp_path: Path, cache_dir: Path) -> None:
    """`path, cls = _MLP_CLASSES[kind]; import_module(path)` loads one of the table's paths: a project module the
    table names is used, and a dead module elsewhere is high, not "a computed import may load it"."""
    files = {
        "app/__init__.py": "",
        "app/patch.py": (
            "import importlib\n\n"
            "_MLP_CLASSES = {\n    'llama': ('transformers.models.llama.modeling_llama', 'LlamaMLP'),\n"
            "    'local': ('app.local_mlp', 'LocalMLP'),\n}\n\n\n"
            "def patch(kind):\n    path, name = _MLP_CLASSES[kind]\n"
            "    return getattr(importlib.import_module(path), name)\n"
        ),
        "app/local_mlp.py": "class LocalMLP:\n    pass\n",
        "app/stale.py": "def helper():\n    return 1\n",
        "app/main.py": "from app.patch import patch\n\n\nif __name__ == '__main__':\n    print(patch('llama'))\n",
    }
    root = write(tmp_path / "tree", files)
    found = {(f.path, f.confidence) for f in lint(root, cache_dir) if f.symbol == "unused-surface"}
    assert found == {("app/stale.py", "HIGH")}, found


def test_a_computed_import_loads_what_its_glob_matches_and_a_configured_name_is_no_doubt(tmp_path: Path, cache_dir: Path) -> None:
    """`import_module(f"app.models.{name}.modeling_{name}")` may load `app.models.llama.modeling_llama` (medium), not
    every module under `app.models`, and a local built from literal text counts as that text;
    `import_module(self.config.external_lib)` or `import_module(name)` of a parameter loads what the configuration or
    the callers name, whose strings are references already: none makes `app.models.stale` "unsure"."""
    files = {
        "app/__init__.py": "",
        "app/models/__init__.py": "",
        "app/models/llama/__init__.py": "",
        "app/models/llama/modeling_llama.py": "class Llama:\n    pass\n",
        "app/models/stale.py": "def helper():\n    return 1\n",
        "app/loader.py": (
            "import importlib\n\n\n"
            "def load(name):\n    return importlib.import_module(f'app.models.{name}.modeling_{name}')\n\n\n"
            "class Trainer:\n    def __init__(self, config):\n        self.config = config\n\n"
            "    def setup(self):\n        importlib.import_module(self.config.external_lib)\n\n\n"
            "def load_plugin(name):\n    return importlib.import_module(name)\n\n\n"
            "def load_backend(kind):\n    module = f'app.backends.{kind}_backend'\n    return importlib.import_module(module)\n"
        ),
        "app/backends/__init__.py": "",
        "app/backends/fast_backend.py": "class Fast:\n    pass\n",
        "app/main.py": (
            "from app.loader import Trainer, load, load_backend, load_plugin\n\n\n"
            "if __name__ == '__main__':\n    print(load('llama'), Trainer(None).setup(), load_plugin('x'), load_backend('fast'))\n"
        ),
    }
    root = write(tmp_path / "tree", files)
    found = {(f.path, f.confidence) for f in lint(root, cache_dir) if f.symbol == "unused-surface"}
    assert found == {("app/models/llama/modeling_llama.py", "INFERENCE"), ("app/backends/fast_backend.py", "INFERENCE"),
                     ("app/models/stale.py", "HIGH")}, found


def test_a_module_named_by_a_formatted_relative_import_and_one_walked_by_name_are_not_surely_dead(tmp_path: Path, cache_dir: Path) -> None:
    """TorchServe: an envelope module is loaded by a config value (`import_module(".{0}".format(name),
    "app.envelopes")`), then its first class is taken: a class of that package only tests use is medium, not a sure
    deletion, and a sibling module nothing imports is medium too. The metrics module is fetched from `sys.modules`
    and walked with `dir()`: every function of it runs. A module nothing names stays high."""
    files = {
        "app/__init__.py": "",
        "app/envelopes/__init__.py": "",
        "app/envelopes/json.py": "class JSONEnvelope:\n    def parse(self, data):\n        return data['instances']\n",
        "app/envelopes/body.py": "class BodyEnvelope:\n    def parse(self, data):\n        return data\n",
        "app/loader.py": (
            "import importlib\nimport inspect\n\n\n"
            "def load_envelope(envelope):\n    module_name = '.{0}'.format(envelope)\n"
            "    module = importlib.import_module(module_name, 'app.envelopes')\n"
            "    return [cls for _, cls in inspect.getmembers(module, inspect.isclass)][0]\n"
        ),
        "app/system_metrics.py": (
            "import types\n\n\ndef cpu_utilization():\n    return 1\n\n\ndef memory_used():\n    return 2\n\n\n"
            "def collect_all(mod):\n    for name in dir(mod):\n        value = getattr(mod, name)\n"
            "        if isinstance(value, types.FunctionType) and name != 'collect_all':\n            value()\n"
        ),
        "app/stale.py": "def helper():\n    return 1\n",
        "app/main.py": (
            "import sys\n\nfrom app import system_metrics\nfrom app.loader import load_envelope\n\n\n"
            "if __name__ == '__main__':\n    print(load_envelope(sys.argv[1])().parse({}))\n"
            "    system_metrics.collect_all(sys.modules['app.system_metrics'])\n"
        ),
        "tests/test_json.py": "from app.envelopes.json import JSONEnvelope\n\n\ndef test_parse():\n    assert JSONEnvelope().parse({'instances': 1}) == 1\n",
    }
    root = write(tmp_path / "tree", files)
    found = {(f.path, f.symbol, f.confidence) for f in lint(root, cache_dir)}
    assert ("app/envelopes/json.py", "test-only-surface", "INFERENCE") in found, found
    assert ("app/envelopes/body.py", "unused-surface", "INFERENCE") in found, found
    assert ("app/stale.py", "unused-surface", "HIGH") in found, found
    assert not [f for f in found if f[0] == "app/system_metrics.py"], found
    assert not [f for f in found if f[2] == "HIGH" and f[0].startswith("app/envelopes/")], found


def test_a_class_only_a_mock_under_a_packages_unit_tests_folder_builds_is_test_only(tmp_path: Path, cache_dir: Path) -> None:
    """TorchServe's legacy `MetricsStore`: production moved to another store; only `ts/torch_handler/unit_tests/
    test_utils/mock_context.py` still builds it. A `*_tests/` folder inside the package is validation code, and a
    test script's function that shares a name with a production call (`parse_args`) is not run by production."""
    files = {
        "app/__init__.py": "",
        "app/metrics/__init__.py": "",
        "app/metrics/store.py": "class MetricsStore:\n    def add_time(self, name, value):\n        return (name, value)\n",
        "app/metrics/cache.py": "class MetricsCache:\n    def add_time(self, name, value):\n        return {name: value}\n",
        "app/handler/__init__.py": "",
        "app/handler/unit_tests/__init__.py": "",
        "app/handler/unit_tests/test_utils/__init__.py": "",
        "app/handler/unit_tests/test_utils/mock_context.py": (
            "from app.metrics.store import MetricsStore\n\n\nclass MockContext:\n    def __init__(self):\n"
            "        self.metrics = MetricsStore()\n"
        ),
        "app/main.py": (
            "import argparse\n\nfrom app.metrics.cache import MetricsCache\n\n\nif __name__ == '__main__':\n"
            "    argparse.ArgumentParser().parse_args()\n    MetricsCache().add_time('a', 1)\n"
        ),
        # A test script's own `parse_args` shares a name with the production call: no production path runs it.
        "test/test_streaming.py": (
            "from app.handler.unit_tests.test_utils.mock_context import MockContext\n\n\n"
            "def parse_args():\n    return MockContext()\n"
        ),
    }
    root = write(tmp_path / "tree", files)
    found = {(f.path, f.line, f.symbol) for f in lint(root, cache_dir)}
    assert ("app/metrics/store.py", 1, "test-only-surface") in found, found


def test_a_method_whose_docstring_says_it_is_for_tests_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """TorchServe's `MetricsCacheYamlImpl.cache_keys` (its docstring: "Testing util method"), called only by tests:
    test support by design (move it into the tests or keep it), not a sure deletion. Its undocumented sibling stays
    high."""
    files = {
        "app/__init__.py": "",
        "app/cache.py": (
            "class Cache:\n    def __init__(self):\n        self.items = {}\n\n"
            "    def cache_keys(self):\n        \"\"\"\n        Testing util method\n        \"\"\"\n        return sorted(self.items)\n\n"
            "    def dump_keys(self):\n        return list(self.items)\n\n"
            "    def add(self, key):\n        self.items[key] = 1\n"
        ),
        "app/main.py": "from app.cache import Cache\n\n\nif __name__ == '__main__':\n    Cache().add('x')\n",
        "tests/test_cache.py": (
            "from app.cache import Cache\n\n\ndef test_keys():\n    cache = Cache()\n    cache.add('a')\n"
            "    assert cache.cache_keys() == ['a'] and cache.dump_keys() == ['a']\n"
        ),
    }
    root = write(tmp_path / "tree", files)
    found = {f.line: f for f in lint(root, cache_dir) if f.path == "app/cache.py"}
    assert found[5].confidence == "INFERENCE" and "its docstring says it is for tests" in found[5].message, found
    assert found[11].confidence == "HIGH", found


def test_a_local_variable_is_no_use_of_a_method_of_that_name(tmp_path: Path, cache_dir: Path) -> None:
    """ChatLearn: the dead `slice_by_index_along_batch` has a local `offset`; the dead property
    `ShardedTensorInfo.offset` in another module is its own finding, not "that only it uses"."""
    files = {
        "app/__init__.py": "",
        "app/utils.py": (
            "def slice_by_index(batched, index):\n    start = index[0]\n    offset = index[1]\n"
            "    return batched[start::offset]\n\n\ndef even_slice(total):\n    return total // 2\n"
        ),
        "app/info.py": (
            "class ShardedTensorInfo:\n    def __init__(self, start):\n        self.start = start\n\n"
            "    @property\n    def offset(self):\n        return self.start * 2\n"
        ),
        "app/main.py": (
            "from app.info import ShardedTensorInfo\nfrom app.utils import even_slice\n\n\n"
            "if __name__ == '__main__':\n    print(even_slice(4), ShardedTensorInfo(1).start)\n"
        ),
    }
    found = {(f.path, f.line): f.message for f in lint(write(tmp_path / "tree", files), cache_dir, *EACH)}
    assert "ShardedTensorInfo" not in found[("app/utils.py", 1)], found
    assert ("app/info.py", 6) in found, found


def test_a_script_the_docs_run_is_an_entry_point_and_another_script_is_no_test(tmp_path: Path, cache_dir: Path) -> None:
    """SpecForge and speculators document `python scripts/prepare_hidden_states.py` as the way to run the product:
    what that script uses is live. An undocumented script is a program users may run, not a test: what only it uses
    is medium, "used only by scripts". What only tests use stays high."""
    files = {
        "app/__init__.py": "",
        "app/util.py": (
            "def is_tp_rank_0():\n    return True\n\n\ndef only_tested(x):\n    return x\n\n\n"
            "def for_tool(x):\n    return x\n"
        ),
        "app/main.py": "if __name__ == '__main__':\n    print(1)\n",
        "scripts/prepare.py": "from app.util import is_tp_rank_0\n\nif __name__ == '__main__':\n    print(is_tp_rank_0())\n",
        "scripts/convert.py": "from app.util import for_tool\n\nif __name__ == '__main__':\n    print(for_tool(1))\n",
        "tests/test_util.py": "from app.util import only_tested\n\n\ndef test_it():\n    assert only_tested(1) == 1\n",
        "docs/data.md": "# Data\n\nRun `python scripts/prepare.py --out data/` first.\n",
        # A benchmark its own shell script runs is still a benchmark (vLLM-Omni's eval_*.sh): no product root.
        "app/bench_util.py": "def for_bench(x):\n    return x\n",
        "benchmarks/bench.py": "from app.bench_util import for_bench\n\nif __name__ == '__main__':\n    print(for_bench(1))\n",
        "benchmarks/run.sh": "python benchmarks/bench.py --iters 10\n",
    }
    every = lint(write(tmp_path / "tree", files), cache_dir, *EACH)
    assert [f.confidence for f in every if f.path == "app/bench_util.py"] == ["INFERENCE"], every
    found = {f.line: f for f in every if f.path == "app/util.py"}
    assert 1 not in found, found  # the documented script runs it
    assert found[5].confidence == "HIGH" and "used only by tests" in found[5].message
    assert found[9].confidence == "INFERENCE" and "is used only by scripts (scripts/convert.py)" in found[9].message


def test_methods_a_standard_library_base_or_the_file_protocol_calls_by_name_are_live(tmp_path: Path, cache_dir: Path) -> None:
    """guidance's `_Rewrite(ast.NodeTransformer).visit_JoinedStr` (the visitor builds the name) and model-navigator's
    `StdoutLogger.flush` (a class with `write()` handed to `redirect_stdout`): called by name, not dead. A method of
    neither kind stays high."""
    files = {
        "app/__init__.py": "",
        "app/rewrite.py": (
            "import ast\nimport contextlib\n\n\nclass Rewrite(ast.NodeTransformer):\n"
            "    def visit_JoinedStr(self, node):\n        return node\n\n    def stale(self):\n        return 0\n\n\n"
            "class StdoutLogger:\n    def write(self, text):\n        return len(text)\n\n    def flush(self):\n        return None\n\n\n"
            "def run(tree):\n    with contextlib.redirect_stdout(StdoutLogger()):\n        return Rewrite().visit(tree)\n"
        ),
        "app/main.py": "import ast\n\nfrom app.rewrite import run\n\n\nif __name__ == '__main__':\n    run(ast.parse('x'))\n",
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "tree", files), cache_dir, *EACH)}
    assert ("app/rewrite.py", 6) not in found and ("app/rewrite.py", 17) not in found, found
    assert found[("app/rewrite.py", 9)].confidence == "HIGH", found


def test_the_public_functions_of_a_submodule_the_package_exports_are_its_api(tmp_path: Path, cache_dir: Path) -> None:
    """model-navigator's `__init__` does `from model_navigator import package`: users call `nav.package.set_verified`,
    so the public functions of that submodule are API, not dead. A private helper there, and a submodule the package
    does not export, are still judged."""
    files = {
        "app/__init__.py": "from app import package  # noqa: F401\n",
        "app/package.py": "def set_verified(path):\n    return path\n\n\ndef _stale():\n    return 0\n",
        "app/internal.py": "def helper():\n    return 1\n",
    }
    found = {(f.path, f.line) for f in lint(write(tmp_path / "tree", files), cache_dir, "--omni-granularity=member")
             if f.symbol == "unused-surface"}
    assert ("app/package.py", 1) not in found and ("app/package.py", 5) in found, found
    assert ("app/internal.py", 1) in found, found


def test_a_plugin_whose_sibling_configuration_names_by_qualname_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """`class_name: app.tools.search_tool.SearchTool` in an example YAML loads one `BaseTool`; an unused sibling tool
    module may be named by a user's configuration the same way: medium, saying so. A dead module whose class its
    package exports is medium too (code outside may import it); a dead module of neither kind stays high."""
    files = {
        "app/__init__.py": "",
        "app/tools/__init__.py": "",
        "app/tools/base_tool.py": "class BaseTool:\n    def run(self):\n        raise NotImplementedError\n",
        "app/tools/search_tool.py": (
            "from app.tools.base_tool import BaseTool\n\n\nclass SearchTool(BaseTool):\n    def run(self):\n        return 1\n"
        ),
        "app/tools/zoom_tool.py": (
            "from app.tools.base_tool import BaseTool\n\n\nclass ZoomTool(BaseTool):\n    def run(self):\n        return 2\n"
        ),
        "app/stale.py": "class Helper:\n    pass\n",
        "app/datasets/__init__.py": "from .rm_dataset import RMDataset\n\n__all__ = ['RMDataset']\n",
        "app/datasets/rm_dataset.py": "class RMDataset:\n    pass\n",
        "app/main.py": (
            "import importlib\n\nimport yaml\n\nimport app.datasets\nfrom app.tools.base_tool import BaseTool\n\n\n"
            "def load(path) -> BaseTool:\n    spec = yaml.safe_load(open(path))['class_name']\n"
            "    module, _, name = spec.rpartition('.')\n    return getattr(importlib.import_module(module), name)().run()\n\n\n"
            "if __name__ == '__main__':\n    print(load('tool.yaml'))\n"
        ),
        "examples/tool_config.yaml": "tools:\n  - class_name: app.tools.search_tool.SearchTool\n",
    }
    root = write(tmp_path / "tree", files)
    found = {(f.path, f.confidence) for f in lint(root, cache_dir) if f.symbol == "unused-surface"}
    assert found == {("app/tools/zoom_tool.py", "INFERENCE"), ("app/stale.py", "HIGH"), ("app/datasets/rm_dataset.py", "INFERENCE")}, found


def test_an_attribute_of_a_class_object_reaches_its_metaclass_property(tmp_path: Path) -> None:
    """`Config.padding = True` on a class whose metaclass defines the `padding` property runs the metaclass's
    setter: the property is used; a metaclass method nothing names stays dead."""
    files = {
        "app/__init__.py": "",
        "app/config.py": (
            "class _ConfigMeta(type):\n    _values = {}\n\n"
            "    @property\n    def padding(cls):\n        return cls._values.get('padding', False)\n\n"
            "    @padding.setter\n    def padding(cls, enabled):\n        cls._values['padding'] = enabled\n\n"
            "    def stale(cls):\n        return 0\n\n\n"
            "class Config(metaclass=_ConfigMeta):\n    pass\n"
        ),
        "app/main.py": "from app.config import Config\n\n\nif __name__ == '__main__':\n    Config.padding = True\n    print(Config())\n",
    }
    root = write(tmp_path / "tree", files)
    assert statuses(root, tmp_path / "tree") == {"app.config._ConfigMeta.stale": DEAD}


def test_a_computed_import_without_a_literal_head_marks_nothing_live(tmp_path: Path) -> None:
    """`full_name = f"{package}.{name}"; import_module(full_name)` names no place: it loads no test module into
    production, so what only tests use stays test-only."""
    files = {
        "app/__init__.py": "",
        "app/loader.py": (
            "import importlib\n\n\ndef load(package, names):\n    for name in names:\n"
            "        full_name = f'{package}.{name}'\n        importlib.import_module(full_name)\n"
        ),
        "app/stale.py": "def helper():\n    return 1\n",
        "app/main.py": "from app.loader import load\n\n\nif __name__ == '__main__':\n    print(load('a', ['b']))\n",
        "tests/test_stale.py": "from app.stale import helper\n\n\ndef test_helper():\n    assert helper() == 1\n",
    }
    root = write(tmp_path / "tree", files)
    assert statuses(root, tmp_path / "tree") == {"app.stale.helper": TEST_ONLY}
    register_scanners()
    index = ProjectIndex(root, replace(settings_for_root(root), cache_dir=tmp_path / "c2"))
    index.refresh()
    assert (index.extra("app/loader.py", SURFACE_FACTS) or {}).get("dyn_imports") == [[7, ""]]  # any module: no glob


def test_explain_says_a_test_only_surfaces_production_use_is_dead_code(tmp_path: Path) -> None:
    """A helper only tests reach, whose one production call sits in a dead function: explain lists the call as a
    production consumer and says which dead code holds it, as the finding's "only tests use it" implies."""
    files = {
        "app/__init__.py": "",
        "app/parse.py": "def parse(text):\n    return text\n\n\ndef stale(text):\n    return parse(text)\n",
        "app/main.py": "import app.parse\n\n\nif __name__ == '__main__':\n    print(app.parse)\n",
        "tests/test_parse.py": "from app.parse import parse\n\n\ndef test_parse():\n    assert parse('a') == 'a'\n",
    }
    root = write(tmp_path / "tree", files)
    register_scanners()
    index = ProjectIndex(root, replace(settings_for_root(root), cache_dir=tmp_path / "c"))
    index.refresh()
    lines = reachability_lines(index, "app.parse.parse")
    assert lines[0] == "reachability: reached from validation code only (test-only-surface)", lines
    assert "  its production use at app/parse.py:6 is in stale, which no production root reaches (it goes with that code)" in lines


def test_remote_services_module_functions_and_prose_are_judged_as_such(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/main.py": (
            "from app.service import CacheService\nfrom app.group import Group\n\n\n"
            "def main():\n    Group().size()\n    return CacheService()\n\n\nif __name__ == '__main__':\n    main()\n"
        ),
        "app/service.py": (
            "import rpyc\n\n\nclass CacheService(rpyc.Service):\n"
            "    def on_connect(self, conn):\n        pass\n\n"
            "    def exposed_lookup(self, key):\n        return key\n\n"
            "    def compact(self):\n        return 0\n"
        ),
        "app/group.py": (
            "class Group:\n    def size(self):\n        return 1\n\n"
            "    def barrier(self):\n        return 0\n\n"
            "    def rebalance(self):\n        return 2\n"
        ),
        "tests/test_group.py": "import torch.distributed as dist\n\n\ndef test_sync():\n    dist.barrier()\n",
        "README.md": "# app\n\nCall `Group.size()` to count; the cache will rebalance itself over time.\n",
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, "--omni-granularity=member")}
    assert ("app/service.py", 5) not in found and ("app/service.py", 8) not in found  # rpyc calls them
    assert found[("app/service.py", 11)].symbol == "unused-surface"  # not exposed: nothing calls it
    barrier = found[("app/group.py", 5)]  # `dist.barrier()` is torch's function, not a use
    assert barrier.symbol == "unused-surface" and barrier.confidence == "HIGH"
    rebalance = found[("app/group.py", 8)]  # "rebalance" in prose is a word, not the method
    assert rebalance.symbol == "unused-surface" and rebalance.confidence == "HIGH"


def test_methods_of_a_class_the_api_reference_lists_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/main.py": "from app.client import Client\n\n\ndef main():\n    return Client().ask()\n\n\nif __name__ == '__main__':\n    main()\n",
        "app/client.py": "class Client:\n    def ask(self):\n        return 1\n\n    def stream(self):\n        return iter(())\n",
        "docs/api/README.md": "# API\n\n- [app.client.Client][]\n",
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir)}
    stream = found[("app/client.py", 5)]
    assert stream.confidence == "INFERENCE" and "API reference" in stream.message


def test_stdlib_hooks_and_tests_that_only_mention_a_name(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/main.py": (
            "import logging\n\nfrom app.logs import Tagger\nfrom app.store import Store\n\n\n"
            "def main():\n    logging.getLogger().addFilter(Tagger())\n    return Store()\n\n\n"
            "if __name__ == '__main__':\n    main()\n"
        ),
        "app/logs.py": "import logging\n\n\nclass Tagger(logging.Filter):\n    def filter(self, record):\n        return True\n",
        "app/store.py": "class Store:\n    def purge_expired(self):\n        return 0\n\n    def compact_segments(self):\n        return 1\n",
        "tests/test_store.py": (
            "from app.store import Store\n\n\ndef test_compact():\n    store = Store()\n    assert store.compact_segments() == 1\n\n\n"
            "def test_purge(cache):\n    assert cache.purge_expired() == 0\n"
        ),
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir)}
    assert ("app/logs.py", 5) not in found  # logging calls Filter.filter
    resolved, named = found[("app/store.py", 5)], found[("app/store.py", 2)]
    assert resolved.symbol == named.symbol == "test-only-surface"
    assert resolved.confidence == "HIGH" and named.confidence == "INFERENCE" and "only mention the name" in named.message


def test_test_support_reference_implementations_and_dead_callers_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/main.py": (
            "from app.model import forward\nfrom app.ops import fast_softmax, init_pool\n\n\ndef main():\n    init_pool(4)\n    forward(1)\n    return fast_softmax([1.0])\n\n\n"
            "if __name__ == '__main__':\n    main()\n"
        ),
        "app/ops.py": (
            "def fast_softmax(xs):\n    return xs\n\n\n"
            "def naive_softmax(xs):\n    return xs\n\n\n"
            "def reset_caches():\n    return None\n\n\n"
            "def legacy_entry(xs):\n    return scale(xs)\n\n\n"
            "def scale(xs):\n    return xs\n\n\n"
            "def only_tested(xs):\n    return xs\n\n\n"
            "def tune_blocks(sizes):\n    return sizes\n\n\n"
            "def init_pool(size):\n    return [None] * size\n\n\n"
            "def destroy_pool(pool):\n    pool.clear()\n"
        ),
        "app/kernels/__init__.py": "",
        "app/kernels/npu.py": "def sparse_attn(q):\n    return q\n",
        "app/kernels/triton.py": "def sparse_attn(q):\n    return q\n",
        "app/model.py": "from app.kernels.npu import sparse_attn\n\n\ndef forward(q):\n    return sparse_attn(q)\n",
        "tests/test_kernels.py": "from app.kernels.triton import sparse_attn\n\n\ndef test_attn():\n    assert sparse_attn(1) == 1\n",
        "app/vendored.py": "# Adapted from https://github.com/org/upstream/blob/main/enc.py\n\n\ndef parse_reply(text):\n    return text\n",
        "tests/test_vendored.py": "from app.vendored import parse_reply\n\n\ndef test_parse():\n    assert parse_reply('a') == 'a'\n",
        "tests/kernel/tune_blocks.py": (
            "import json\n\nfrom app.ops import tune_blocks\n\nif __name__ == '__main__':\n"
            "    print(json.dumps(tune_blocks([64, 128])))\n"
        ),
        "tests/conftest.py": "from app.ops import reset_caches\n\n\ndef pytest_runtest_setup(item):\n    reset_caches()\n",
        "tests/test_ops.py": (
            "from app.ops import destroy_pool, fast_softmax, naive_softmax, only_tested, scale\n\n\n"
            "def test_softmax():\n    out_ref = naive_softmax([1.0])\n    assert fast_softmax([1.0]) == out_ref\n\n\n"
            "def test_scale():\n    assert scale([1.0]) == [1.0]\n\n\n"
            "def test_only():\n    assert only_tested([2.0]) == [2.0]\n\n\n"
            "def test_pool():\n    destroy_pool([1])\n"
        ),
    }
    every = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, *EACH)}
    vendored = every[("app/vendored.py", 4)]
    assert vendored.confidence == "INFERENCE" and "drop it when resyncing" in vendored.message
    twin = every[("app/kernels/triton.py", 1)]
    assert twin.confidence == "INFERENCE" and "a twin of the same name" in twin.message
    found = {key: f for key, f in every.items() if key[0] == "app/ops.py"}
    assert found[("app/ops.py", 5)].confidence == "INFERENCE" and "reference implementation" in found[("app/ops.py", 5)].message
    assert found[("app/ops.py", 9)].confidence == "INFERENCE" and "test fixtures" in found[("app/ops.py", 9)].message
    assert found[("app/ops.py", 17)].confidence == "INFERENCE" and "production code names it" in found[("app/ops.py", 17)].message
    assert found[("app/ops.py", 21)].confidence == "HIGH"  # a plain test-only function
    assert found[("app/ops.py", 33)].confidence == "INFERENCE" and "release half of init_pool" in found[("app/ops.py", 33)].message
    assert found[("app/ops.py", 25)].confidence == "INFERENCE" and "a tool, not a test, runs it" in found[("app/ops.py", 25)].message
    assert found[("app/ops.py", 13)].symbol == "unused-surface"  # the dead root that calls scale


def test_calls_through_held_objects_outside_callers_and_shared_test_only_members(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/masks.py": (
            "class MaskBuilder:\n    def get_mask(self, n):\n        return [1] * n\n\n\n"
            "class MaskBuilder310:\n    def get_mask(self, n):\n        return [0] * n\n\n    def forget(self):\n        return None\n"
        ),
        "app/meta.py": (
            "from app.masks import MaskBuilder\n\n\nclass MetaBuilder:\n    def __init__(self):\n        self.masks = MaskBuilder()\n\n"
            "    def build(self, n):\n        return self.masks.get_mask(n)\n"
        ),
        "app/meta310.py": (
            "from app.masks import MaskBuilder310\nfrom app.meta import MetaBuilder\n\n\nclass MetaBuilder310(MetaBuilder):\n"
            "    def __init__(self):\n        super().__init__()\n        self.masks = MaskBuilder310()\n"
        ),
        "app/quant.py": (
            "class Method:\n    def apply(self, x):\n        \"\"\"Call restore_for_reload() before new weights load.\"\"\"\n        return x\n\n"
            "    def restore_for_reload(self, x):\n        return x\n\n"
            "    def release(self, x):\n        \"\"\"Must be called by the RL trainer after a step.\"\"\"\n        return x\n\n"
            "    def debug_dump(self, x):\n        return x\n"
        ),
        "app/pool.py": (
            "class Pool:\n    def move(self, page):\n        return page\n\n\n"
            "class Manager:\n    def __init__(self):\n        self.pool = Pool()\n\n"
            "    def swap_out(self, page):\n        return self.pool.move(page)\n\n"
            "    def swap_in(self, page):\n        return self.pool.move(page)\n"
        ),
        "app/main.py": (
            "from app.meta310 import MetaBuilder310\nfrom app.pool import Manager\nfrom app.quant import Method\n\n\n"
            "def main():\n    Manager()\n    Method().apply(1)\n    return MetaBuilder310().build(3)\n\n\n"
            "if __name__ == '__main__':\n    main()\n"
        ),
        "tests/test_app.py": (
            "from app.masks import MaskBuilder310\nfrom app.pool import Manager\nfrom app.quant import Method\n\n\n"
            "def test_mask():\n    builder = MaskBuilder310()\n    assert builder.get_mask(2) == [0, 0]\n    builder.forget()\n\n\n"
            "def test_quant():\n    method = Method()\n    method.restore_for_reload(1)\n    method.release(1)\n    method.debug_dump(1)\n\n\n"
            "def test_swap():\n    manager = Manager()\n    manager.swap_out(1)\n    manager.swap_in(1)\n"
        ),
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, *EACH)}
    assert ("app/masks.py", 7) not in found  # MetaBuilder.build runs it on the MaskBuilder310 a subclass holds
    assert found[("app/masks.py", 10)].confidence == "HIGH"  # forget: only the test calls it
    reload, release = found[("app/quant.py", 6)], found[("app/quant.py", 9)]
    assert reload.confidence == "INFERENCE" and "production prose names it (app/quant.py:3)" in reload.message
    assert release.confidence == "INFERENCE" and "describes an outside caller" in release.message
    assert found[("app/quant.py", 13)].confidence == "HIGH"
    move = found[("app/pool.py", 2)]
    assert move.confidence == "INFERENCE" and "Manager.swap_in, Manager.swap_out use it" in move.message
    assert found[("app/pool.py", 10)].confidence == found[("app/pool.py", 13)].confidence == "HIGH"


def test_unwired_modules_and_packages_are_one_finding_and_evidence_names_this_definition(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/main.py": (
            "from app.keys import hash_key\nfrom app.formats import format_row\nfrom app.ops.act import gelu\n\n\n"
            "def main():\n    return hash_key('a'), format_row([]), gelu(1)\n\n\nif __name__ == '__main__':\n    main()\n"
        ),
        "app/keys.py": "def hash_key(text):\n    return len(text)\n",
        "app/store.py": "def hash_key(text):\n    return 0\n",
        "app/parser.py": "class Kind:\n    pass\n\n\ndef parse_a(x):\n    return x\n\n\ndef parse_b(x):\n    return x\n",
        "app/formats.py": "def format_row(xs):\n    return xs\n\n\ndef format_cell(x):\n    return x\n\n\ndef format_grid(x):\n    return x\n",
        "app/ops/__init__.py": "",
        "app/ops/act.py": "def gelu(x):\n    return x\n",
        "app/ops/triton/__init__.py": "",
        "app/ops/triton/norm.py": "def fused_norm(x):\n    return x\n",
        "app/ops/triton/scan.py": "def chunk_scan(x):\n    return x\n",
        "tests/test_keys.py": (
            "from unittest import mock\n\nfrom app.keys import hash_key\n\n\n"
            "def test_patched():\n    with mock.patch('app.keys.hash_key'):\n        assert hash_key\n"
        ),
        "tests/test_store.py": "from app.store import hash_key\n\n\ndef test_store_key():\n    assert hash_key('a') == 0\n",
        "tests/test_parser.py": "from app.parser import Kind, parse_a, parse_b\n\n\ndef test_parse():\n    assert parse_a(Kind) == parse_b(Kind)\n",
        "tests/test_formats.py": (
            "from app.formats import format_cell, format_grid\n\n\ndef test_cell():\n    assert format_cell(1) == format_grid(1)\n"
        ),
        "tests/test_ops.py": (
            "from app.ops.triton.norm import fused_norm\nfrom app.ops.triton.scan import chunk_scan\n\n\n"
            "def test_norm():\n    ref = [1]\n    assert fused_norm([1]) == ref == chunk_scan([1])\n"
        ),
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, *EACH)}
    parser = found[("app/parser.py", 1)]
    assert parser.confidence == "HIGH" and parser.message.startswith("[high] Module app.parser is used only by tests")
    assert "Kind, parse_a, parse_b" in parser.message and "and the test that exists only for it" in parser.message
    assert not [key for key in found if key[0] == "app/parser.py" and key[1] > 1]
    assert found[("app/formats.py", 5)].symbol == "test-only-surface"  # format_row is live: no module finding
    package = found[("app/ops/triton/__init__.py", 1)]
    assert package.message.startswith("[medium] Package app.ops.triton is used only by tests (tests/test_ops.py)")
    assert package.confidence == "INFERENCE" and "against a reference" in package.message
    assert not [key for key in found if key[0].startswith("app/ops/triton/") and key[1] > 1]
    store = found[("app/store.py", 1)].message  # test_keys.py patches app.keys.hash_key, not this one
    assert "(tests/test_store.py)" in store and "test_keys" not in store


def test_reference_implementations_unregistered_ops_and_missing_calls_are_medium_with_their_fix(
        tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/main.py": (
            "from app.decode import decode\nfrom app.register import register_ops\nfrom app.text.low import lower\n"
            "from app.text.up import upper\nfrom app.track import Loads, Lru, Sends\n\n\n"
            "def main():\n    register_ops(print)\n    sends, loads = Sends(), Loads()\n    sends.start('r')\n    Lru().put('k')\n"
            "    loads.begin('r')\n    loads.step({'r'})\n    return decode([1]), lower('A'), upper('b')\n\n\n"
            "if __name__ == '__main__':\n    main()\n"
        ),
        "app/decode.py": (
            "def decode(xs):\n    return xs\n\n\ndef decode_ref(xs):\n    return list(xs)\n\n\n"
            "def blend(xs):\n    \"\"\"Reference implementation for parity tests.\"\"\"\n    return xs\n\n\n"
            "def topk_torch(xs):\n    return xs\n"
        ),
        "app/ops/__init__.py": "",
        "app/ops/add.py": "def add_op(x):\n    return x\n",
        "app/ops/mul.py": "def mul_op(x):\n    return x\n",
        "app/ops/div.py": "def div_op(x):\n    return x\n",
        "app/register.py": (
            "from app.ops.add import add_op\nfrom app.ops.mul import mul_op\n\n\n"
            "def register_ops(impl):\n    impl('add', add_op)\n    impl('mul', mul_op)\n"
        ),
        "app/text/__init__.py": "",
        "app/text/low.py": "def lower(x):\n    return x.lower()\n",
        "app/text/up.py": "def upper(x):\n    return x.upper()\n",
        "app/text/title.py": "def title(x):\n    return x.title()\n",
        "app/track.py": (
            "class Sends:\n    def __init__(self):\n        self._ids = set()\n\n"
            "    def start(self, rid):\n        self._ids.add(rid)\n\n"
            "    def finish(self, done):\n        self._ids.difference_update(done)\n\n\n"
            "class Loads:\n    def __init__(self):\n        self._ids = set()\n\n"
            "    def begin(self, rid):\n        self._ids.add(rid)\n\n"
            "    def step(self, finished_ids):\n        for rid in finished_ids:\n            self._ids.discard(rid)\n\n"
            "    def finish_loads(self, done):\n        self._ids.difference_update(done)\n\n\n"
            "class Lru:\n    def __init__(self):\n        self._keys = []\n\n"
            "    def put(self, key):\n        self._keys.append(key)\n        if len(self._keys) > 2:\n            self._keys.pop(0)\n\n"
            "    def drop(self, key):\n        self._keys.remove(key)\n"
        ),
        "tests/test_all.py": (
            "from app.decode import blend, decode_ref, topk_torch\nfrom app.ops.div import div_op\n"
            "from app.text.title import title\nfrom app.track import Loads, Lru, Sends\n\n\n"
            "def test_all():\n    assert blend([1]) == decode_ref([1])\n    assert topk_torch([1]) == div_op(1) == [title('a')]\n"
            "    sends = Sends()\n    sends.finish({'r'})\n    loads = Loads()\n    loads.finish_loads({'r'})\n"
            "    lru = Lru()\n    lru.drop('k')\n"
        ),
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, *EACH)}
    medium = {key: f.message for key, f in found.items() if f.confidence == "INFERENCE"}
    high = {key for key, f in found.items() if f.confidence == "HIGH"}
    reference = "a reference implementation: move it to tests or keep it as a parity oracle"
    assert reference in medium[("app/decode.py", 5)] and "beside production's decode" in medium[("app/decode.py", 5)]
    assert reference in medium[("app/decode.py", 9)] and "its docstring calls it a reference" in medium[("app/decode.py", 9)]
    assert ("app/decode.py", 14) in high  # a reference suffix without a production twin
    assert "unwired: register it or drop it" in medium[("app/ops/div.py", 1)]
    assert ("app/text/title.py", 1) in high  # its siblings are called, not registered
    assert "possible missing call: production fills self._ids" in medium[("app/track.py", 8)]
    assert ("app/track.py", 23) in high  # Loads.step prunes on completion
    assert ("app/track.py", 36) in high  # Lru.put evicts: the list does not only grow
    assert not any("delete" in medium[key] for key in [("app/decode.py", 5), ("app/ops/div.py", 1)])


def test_outside_overrides_leftover_imports_and_namesake_docs(tmp_path: Path, cache_dir: Path) -> None:
    upstream = tmp_path / "up"
    write(upstream, {"ups/__init__.py": "", "ups/layer.py": "class Layer:\n    def forward(self):\n        return 0\n"})
    files = {
        "app/__init__.py": "",
        "app/main.py": (
            "from ext_pkg.blocks import PatchEmbed\nfrom app.layers import Mine, Sub\nfrom app.rope import rotate, repeat\n\n\n"
            "def main():\n    return Mine(), Sub(), rotate(1), PatchEmbed\n\n\nif __name__ == '__main__':\n    main()\n"
        ),
        "app/layers.py": (
            "from ups.layer import Layer\n\n\n"
            "class Mine(Layer):\n    def _quant(self, x):\n        return super()._quant(x)\n\n"
            "    def _unused_hook(self):\n        return super()._unused_hook()\n\n"
            "    def helper(self):\n        return 1\n\n\n"
            "class Sub(Mine):\n    def helper(self):\n        return super().helper()\n\n\n"
            "class PatchEmbed:\n    pass\n\n\nclass Merger:\n    pass\n"
        ),
        "app/rope.py": "def rotate(x):\n    return x\n\n\ndef repeat(x):\n    return x\n",
        "tests/test_layers.py": (
            "from app.layers import Mine\nfrom app.rope import repeat\n\n\n"
            "def test_quant():\n    assert Mine()._quant(1) and repeat(1)\n"
        ),
        "docs/layers.md": "Wrap `PatchEmbed` layers, as `ext_pkg.blocks.PatchEmbed` does; `Merger` merges.\n",
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, f"--omni-upstream-paths={upstream}", "--omni-granularity=member")}
    assert ("app/layers.py", 5) not in found and ("app/layers.py", 8) not in found  # super() into the outside base
    assert "helper and its override (Sub.helper)" in found[("app/layers.py", 11)].message  # super() into the project's own
    repeat = found[("app/rope.py", 5)]
    assert repeat.confidence == "HIGH" and "its unused import at main.py:3" in repeat.message
    assert found[("app/layers.py", 20)].symbol == "unused-surface"  # the docs' PatchEmbed is ext_pkg's
    assert found[("app/layers.py", 24)].symbol == "test-only-surface"  # `Merger` is only ours


def test_a_docs_mention_of_another_classs_method_of_that_name_is_not_a_consumer(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/main.py": "from app.core import Engine, Client\n\n\ndef main():\n    return Engine().run(), Client()\n\n\n"
                       "if __name__ == '__main__':\n    main()\n",
        "app/core.py": (
            "class Engine:\n    def run(self):\n        return 1\n\n    def reset(self):\n        return 0\n\n\n"
            "class Client:\n    def reset(self):\n        return 2\n"
        ),
        "tests/test_core.py": "from app.core import Engine\n\n\ndef test_reset():\n    engine = Engine()\n    assert engine.reset() == 0\n",
        "docs/usage.md": "# Usage\n\nCall `Client.reset()` to start over.\n",
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, "--omni-granularity=member")}
    engine_reset = found[("app/core.py", 5)]  # only the test calls it; the docs name Client's method, not this one
    assert engine_reset.symbol == "test-only-surface" and engine_reset.confidence == "HIGH", engine_reset


PATTERNS = {
    "app/__init__.py": "",
    "app/helpers.py": "def regenerate(state):\n    return state\n",
    "app/tab.py": (
        "from app.helpers import regenerate\n\n\n"
        "def regenerate(state):  # rebinds the imported name: the click below runs this one\n    return [state]\n\n\n"
        "def build(button):\n    button.click(regenerate)\n"
    ),
    "app/routes.py": (
        "from fastapi import FastAPI\n\napp = FastAPI()\n\n\n"
        "def status():\n    return 1\n\n\n"
        "@app.post('/worker_get_status')\nasync def api(request):\n    return status()\n\n\n"
        "@app.post('/test_connection')\nasync def api(request):\n    return 'ok'\n"
    ),
    "app/batch.py": (
        "class Batch:\n    def __init__(self):\n        self._next = []\n\n"
        "    @property\n    def next_tokens(self):\n        return self._next\n\n"
        "    @next_tokens.setter\n    def next_tokens(self, value):\n        self._next = value\n"
    ),
    "app/deps.py": "def get_items():\n    return []\n",
    "app/items.py": (
        "from fastapi import APIRouter, Depends\n\nfrom app.deps import get_items\n\nrouter = APIRouter()\n\n\n"
        "@router.get('/items')\nasync def get_items(\n    items=Depends(get_items),\n):\n    return items\n"
    ),
    "app/templates.py": "dockerfile = 'FROM python'\n",
    "app/deploy.py": "import app.templates\n\n\ndef render():\n    return app.templates.dockerfile\n",
    "app/shutdown.py": (
        '"""Usage: python app/shutdown.py --down all"""\nimport argparse\n\n'
        "parser = argparse.ArgumentParser()\nparser.add_argument('--down')\nargs = parser.parse_args()\n\n\n"
        "def stop(which):\n    return which\n\n\nstop(args.down)\n"
    ),
    "app/main.py": (
        "from app.tab import build\nfrom app.routes import app\nfrom app.batch import Batch\nfrom app.deploy import render\n"
        "from app.items import router\n\n\n"
        "def main(batch_holder):\n    build(None)\n    batch_holder.batch.next_tokens = [1]\n    return app, Batch(), render(), router\n\n\n"
        "if __name__ == '__main__':\n    main(None)\n"
    ),
}


def test_what_python_binds_and_runs_keeps_code_alive(tmp_path: Path, cache_dir: Path) -> None:
    """A definition that rebinds an imported name is the one later code runs (the import is the dead one); a route
    decorator registers its function though a later definition takes the name, and the definition's own defaults
    run before it takes the name (`Depends(get_items)` is the imported one); assigning a property runs its setter;
    reading a module's variable uses the module; a module that reads its command line at import is a script."""
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", PATTERNS), cache_dir, "--omni-granularity=member")}
    assert ("app/tab.py", 4) not in found  # the local regenerate is the clicked one
    assert found[("app/helpers.py", 1)].symbol == "unused-surface"  # the shadowed import's module is the dead one
    assert ("app/routes.py", 11) not in found and ("app/routes.py", 6) not in found  # registered route and its callee
    assert ("app/deps.py", 1) not in found  # the route's own default names the imported dependency
    assert not [f for f in found if f[0] == "app/batch.py"]  # the setter runs on `batch.next_tokens = [1]`
    assert ("app/templates.py", 1) not in found  # `app.templates.dockerfile` reads the module
    assert not [f for f in found if f[0] == "app/shutdown.py"]  # run as a script: parse_args() at import


def test_a_dead_method_only_unreached_code_calls_by_name_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/stubs.py": (
            "class Stub:\n    def invoke(self, x):\n        return x\n\n\n"
            "class OtherStub:\n    def invoke(self, x):\n        return -x\n\n\n"
            "class Interceptor(grpc.ServerInterceptor):\n    def __init__(self):\n        self.stubs = [Stub(), OtherStub()]\n\n"
            "    def intercept_service(self, continuation, details):\n        for stub in self.stubs:\n"
            "            stub.invoke(details)\n        return continuation(details)\n"
        ),
        "app/main.py": "import grpc\nfrom app.stubs import Interceptor\n\n\ndef main():\n    return Interceptor()\n\n\n"
                       "if __name__ == '__main__':\n    main()\n",
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, "--omni-granularity=member")}
    invoke = found[("app/stubs.py", 2)]
    assert invoke.confidence == "INFERENCE" and "code no root reaches calls `.invoke`" in invoke.message


def test_a_local_each_branch_binds_to_another_class_keeps_every_classs_methods(tmp_path: Path, cache_dir: Path) -> None:
    """`m = A()` in one arm and `m = B()` in the other: `m.run()` calls A.run or B.run (verl's model merger's
    `python -m` entry); a class bound in every branch alike stays known, so B's own dead method is still reported."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/mergers.py": (
            "class Fsdp:\n    def run(self):\n        return self._load()\n\n    def _load(self):\n        return 1\n\n\n"
            "class Megatron:\n    def run(self):\n        return 2\n\n    def unused(self):\n        return 3\n"
        ),
        "app/__main__.py": (
            "import sys\n\nfrom app.mergers import Fsdp, Megatron\n\n\n"
            "def main():\n    merger = None\n    if sys.argv[1] == 'fsdp':\n        merger = Fsdp()\n"
            "    else:\n        merger = Megatron()\n    return merger.run()\n\n\n"
            "def other():\n    one = Megatron()\n    one = Megatron()\n    return one.run()\n\n\n"
            "if __name__ == '__main__':\n    main()\n    other()\n"
        ),
    })
    found = {(f.path, f.line, f.symbol) for f in lint(root, cache_dir)}
    assert not any("Fsdp" in str(f) for f in found) and ("app/mergers.py", 13, "unused-surface") in found, found
    status = statuses(root, tmp_path)
    assert status.get("app.mergers.Fsdp.run") != DEAD and status.get("app.mergers.Megatron.unused") == DEAD


def test_dead_code_in_a_vendored_folder_is_medium_and_says_so(tmp_path: Path, cache_dir: Path) -> None:
    """A `third_party/` tree is resynced whole: its dead modules are a medium cleanup naming the folder, while the
    same dead code in the project's own package stays high."""
    dead = "def helper():\n    return 1\n\n\ndef other_helper():\n    return 2\n"
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/main.py": "from app.third_party.lib import core\nfrom app import own\n\n\n"
                       "def main():\n    return core, own\n\n\nif __name__ == '__main__':\n    main()\n",
        "app/third_party/__init__.py": "",
        "app/third_party/lib/__init__.py": "",
        "app/third_party/lib/core.py": dead,
        "app/own.py": dead,
    })
    found = {f.path: f for f in lint(root, cache_dir) if f.symbol == "unused-surface"}
    assert found["app/own.py"].confidence == "HIGH", found
    vendored = found["app/third_party/lib/core.py"]
    assert vendored.confidence != "HIGH" and "vendored in app/third_party/" in vendored.message, vendored


def test_dead_code_in_a_folder_the_project_keeps_out_of_its_linters_is_vendored(tmp_path: Path, cache_dir: Path) -> None:
    """llama-stack's ruff hook excludes `^llama_stack/strong_typing/.*$`, a vendored library: its dead code is a
    medium cleanup naming the exclusion; a hook excluding one file, or a formatter's exclude, vendors nothing."""
    dead = "def helper():\n    return 1\n\n\ndef other_helper():\n    return 2\n"
    hooks = ("repos:\n-   repo: https://github.com/astral-sh/ruff-pre-commit\n    hooks:\n"
             "    -   id: ruff\n        exclude: ^app/typing_lib/.*$\n    -   id: ruff-format\n"
             "        exclude: ^app/own/.*$\n    -   id: flake8\n        exclude: ^app/own/one\\.py$\n")
    root = write(tmp_path / "proj", {
        ".pre-commit-config.yaml": hooks,
        "app/__init__.py": "",
        "app/main.py": "from app.typing_lib import core\nfrom app.own import one\n\n\n"
                       "def main():\n    return core, one\n\n\nif __name__ == '__main__':\n    main()\n",
        "app/typing_lib/__init__.py": "",
        "app/typing_lib/core.py": dead,
        "app/own/__init__.py": "",
        "app/own/one.py": dead,
    })
    found = {f.path: f for f in lint(root, cache_dir) if f.symbol == "unused-surface"}
    assert found["app/own/one.py"].confidence == "HIGH", found
    vendored = found["app/typing_lib/core.py"]
    assert vendored.confidence != "HIGH" and "vendored in app/typing_lib/ (the ruff hook of .pre-commit-config.yaml" \
        in vendored.message, vendored


def test_a_framework_decorator_re_exported_by_a_project_module_hands_its_method_on(tmp_path: Path, cache_dir: Path) -> None:
    """`from app._compat import validator`, where `_compat` only re-exports pydantic's: pydantic calls the validators
    (Xinference's router schemas); a project decorator defined in the project stays a wrapper, so its method's
    lack of a consumer is still reported."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/_compat.py": (
            "try:\n    from pydantic.v1 import BaseModel, validator\nexcept ImportError:\n"
            "    from pydantic import BaseModel, validator\n\n\n"
            "def traced(function):\n    return function\n"
        ),
        "app/schema.py": (
            "from app._compat import BaseModel, traced, validator\n\n\n"
            "class Config(BaseModel):\n    version: int = 1\n\n"
            "    @validator('version')\n    def check_version(cls, value):\n        return value\n\n"
            "    @traced\n    def unused(self):\n        return 2\n"
        ),
        "app/__main__.py": "from app.schema import Config\n\nprint(Config(version=1).version)\n",
    })
    status = statuses(root, tmp_path)
    assert status.get("app.schema.Config.check_version") != DEAD, status
    assert status.get("app.schema.Config.unused") == DEAD, status
    assert not any("check_version" in f.message for f in lint(root, cache_dir))


def test_a_class_body_table_naming_its_own_staticmethods_bare_keeps_them_live(tmp_path: Path, cache_dir: Path) -> None:
    """`_MAP = {'zero': zero_init}` in a class body names the staticmethod `Cls.zero_init` (class-body statements see
    the body's earlier names); a method the table does not name stays a candidate."""
    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/strategies.py": (
            "class InitStrategy:\n\n    @staticmethod\n    def zero_init(param):\n        return param * 0\n\n"
            "    @staticmethod\n    def normal_init(param):\n        return param\n\n"
            "    @staticmethod\n    def forgotten_init(param):\n        return param\n\n"
            "    _MAP = {\n        'zero': zero_init,\n        'normal': normal_init,\n    }\n\n"
            "    @staticmethod\n    def init_parameters(param, name):\n        return InitStrategy._MAP[name](param)\n"
        ),
        "app/main.py": (
            "import sys\n\nfrom app.strategies import InitStrategy\n\n"
            "if __name__ == '__main__':\n    InitStrategy.init_parameters(1.0, sys.argv[1])\n"
        ),
    })
    found = lint(tmp_path, cache_dir, "--omni-granularity=member")
    assert {f.line for f in found if f.symbol == "unused-surface"} == {12}, found


def test_a_module_whose_constants_live_code_imports_stays_when_its_definitions_die(tmp_path: Path, cache_dir: Path) -> None:
    """`from app.constants import DEFAULT_ADAPTER` keeps the module: only its dead class goes, never the whole file.
    A module whose only definition is dead and whose values nothing imports goes as a whole."""
    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/constants.py": (
            "DEFAULT_ADAPTER = 'default'\nBIN_EXTENSIONS = ['.bin']\n\n\n"
            "class Invoke:\n    KEY = 'invoked_by'\n    TRAINER = 'trainer'\n"
        ),
        "app/leftover.py": "LIMIT = 3\n\n\nclass Unused:\n    KEY = 'k'\n    OTHER = 'o'\n",
        "app/main.py": (
            "import app.leftover\nfrom app.constants import BIN_EXTENSIONS, DEFAULT_ADAPTER\n\n\n"
            "if __name__ == '__main__':\n    print(DEFAULT_ADAPTER, BIN_EXTENSIONS)\n"
        ),
    })
    found = lint(tmp_path, cache_dir, "--omni-granularity=member")
    flagged = {(f.path, f.line) for f in found if f.symbol == "unused-surface"}
    assert ("app/constants.py", 5) in flagged and ("app/constants.py", 1) not in flagged, found
    assert ("app/leftover.py", 1) in flagged, found


def test_a_method_every_sibling_defines_and_production_calls_on_one_is_a_convention(tmp_path: Path, cache_dir: Path) -> None:
    """Each attention backend defines `supported_sizes()`; production asks the flash backend's only. The others' are
    the family's convention (a caller choosing the class may ask any): medium. A method one sibling alone defines
    stays high."""
    backend = "class {name}(Backend):\n    @staticmethod\n    def supported_sizes():\n        return [64]\n\n    @staticmethod\n    def name():\n        return '{name}'\n"
    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/backends/__init__.py": "",
        "app/backends/base.py": "class Backend:\n    @staticmethod\n    def name():\n        return ''\n",
        "app/backends/flash.py": "from app.backends.base import Backend\n\n\n" + backend.format(name="Flash"),
        "app/backends/sdpa.py": "from app.backends.base import Backend\n\n\n" + backend.format(name="Sdpa"),
        "app/backends/sla.py": ("from app.backends.base import Backend\n\n\n" + backend.format(name="Sla")
                                + "\n    @staticmethod\n    def legacy_sizes():\n        return [32]\n"),
        "app/main.py": (
            "import sys\n\nfrom app.backends.flash import Flash\nfrom app.backends.sdpa import Sdpa\nfrom app.backends.sla import Sla\n\n\n"
            "if __name__ == '__main__':\n    chosen = {'flash': Flash, 'sdpa': Sdpa, 'sla': Sla}[sys.argv[1]]\n"
            "    print(chosen.name(), Flash.supported_sizes())\n"
        ),
    })
    found = lint(tmp_path, cache_dir, "--omni-granularity=member")
    by_place = {(f.path, f.line): f for f in found if f.symbol == "unused-surface"}
    sla_sizes = by_place[("app/backends/sla.py", 6)]
    assert sla_sizes.confidence == "INFERENCE" and "a family convention" in sla_sizes.message, sla_sizes
    assert by_place[("app/backends/sla.py", 14)].confidence == "HIGH", by_place


def test_dead_code_in_a_file_copied_from_upstream_is_medium_and_says_prune_it_at_resync(tmp_path: Path, cache_dir: Path) -> None:
    """`# Copied from: https://github.com/.../hf_argparser.py` heads a file kept as a copy of its source (a workaround
    for an upstream issue): its unused parts go when it is resynced, not one by one. Dead code elsewhere stays high."""
    write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/_argparser.py": (
            "# Copied from: https://github.com/huggingface/transformers/blob/3a27/src/transformers/hf_argparser.py\n"
            "# This avoids an upstream latency issue.\n\n\n"
            "def parse(args):\n    return list(args)\n\n\n"
            "def parse_yaml_file(path):\n    text = open(path).read()\n    return text.split()\n"
        ),
        "app/stale.py": "def helper(x):\n    y = x + 1\n    return y * 2\n",
        "app/main.py": (
            "import sys\n\nimport app.stale\nfrom app._argparser import parse\n\n\n"
            "if __name__ == '__main__':\n    print(parse(sys.argv), app.stale)\n"
        ),
    })
    found = lint(tmp_path, cache_dir, "--omni-granularity=member")
    by_place = {(f.path, f.line): f for f in found if f.symbol == "unused-surface"}
    copied = by_place[("app/_argparser.py", 9)]
    assert copied.confidence == "INFERENCE" and "prune it when it is resynced" in copied.message, copied
    assert by_place[("app/stale.py", 1)].confidence == "HIGH", by_place


def test_dead_code_in_a_generated_file_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """A generator rewrites the file whole (an OpenAPI client): the fix belongs to its input, so a dead part of it is
    medium and says so; the same dead code in a file the project writes stays high, whatever its prose says of
    generated things."""
    generated = '"""\n    Python SDK\n\n    Generated by: https://openapi-generator.tech\n"""\n\n\ndef _unused_helper():\n    return 1\n'
    own = '"""Streams tokens generated by the model (a Protocol per backend)."""\n\n\ndef _unused_helper():\n    return 1\n'
    files = {"app/__init__.py": "", "app/client.py": generated, "app/own.py": own}
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, "--omni-granularity=member")}
    assert found[("app/own.py", 4)].confidence == "HIGH"
    in_generated = found[("app/client.py", 8)]
    assert in_generated.confidence == "INFERENCE" and "[in code generated (its header says so)]" in in_generated.message


def test_a_base_class_the_help_text_tells_users_to_extend_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """Nothing in the repository imports the plugin base, but the CLI tells users to pass an instance extending it:
    their code subclasses it, so its module is no high-confidence deletion. A dead class nobody is told to extend
    stays high."""
    files = {
        "app/__init__.py": "from app.cli import main\n",
        "app/callback_base.py": "class CallbackHandler:\n    def pre_request(self, request):\n        return None\n",
        "app/leftover.py": "class OldHandler:\n    def run(self):\n        return None\n",
        "app/cli.py": (
            "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('--callbacks', help='path to an instance extending CallbackHandler')\n"
            "    return parser.parse_args()\n"
        ),
    }
    found = {f.path: f for f in lint(write(tmp_path / "proj", files), cache_dir)}
    assert found["app/leftover.py"].confidence == "HIGH"
    assert found["app/callback_base.py"].confidence == "INFERENCE"
    assert "tells users to extend CallbackHandler" in found["app/callback_base.py"].message


def test_a_module_file_a_package_shadows_is_named_once_in_the_summary(tmp_path: Path, cache_dir: Path) -> None:
    """`cache.py` beside `cache/__init__.py`: Python imports the package, so the file never runs. Its definitions
    are not judged (they would borrow the package's names) and the run says once that the file can go."""
    files = {
        "app/__init__.py": "from app.cache import Store\n\nSTORE = Store()\n",
        "app/cache/__init__.py": "class Store:\n    def get(self, key):\n        return key\n",
        "app/cache.py": "class Store:\n    def get(self, key):\n        return None\n\n    def put(self, key):\n        return key\n",
    }
    root = write(tmp_path / "proj", files)
    code, findings, stderr = run_pylint([*enable_args(SYMBOLS), "app"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr and code & 33 == 0, stderr
    assert not [f for f in findings if f.path == "app/cache.py"], findings
    assert "shadowed: app/cache.py" in stderr and "the package app/cache/ beside it is what Python imports" in stderr


def test_a_call_through_a_protocol_reaches_the_classes_that_implement_it_structurally(
        tmp_path: Path, cache_dir: Path) -> None:
    """`profile.signature()` on a parameter typed by a project Protocol runs the method of whatever class is passed:
    a class defining every method the protocol declares implements it, though it never subclasses it. A class that
    defines only some of them is not one."""
    files = {
        "app/__init__.py": "from app.optimizer import optimize\nfrom app.clusters import build\n",
        "app/types.py": (
            "from typing import Protocol\n\n\nclass Profile(Protocol):\n"
            "    def signature(self) -> tuple: ...\n\n    def rate(self) -> float: ...\n"
        ),
        "app/optimizer.py": (
            "from app.types import Profile\n\n\ndef optimize(profile: Profile):\n"
            "    return profile.signature(), profile.rate()\n"
        ),
        "app/clusters.py": (
            "class Centroid:\n    def signature(self):\n        return ()\n\n    def rate(self):\n        return 1.0\n\n\n"
            "class Partial:\n    def signature(self):\n        return ()\n\n\n"
            "def build():\n    return [Centroid(), Partial()]\n"
        ),
    }
    found = {(f.path, f.line) for f in lint(write(tmp_path / "proj", files), cache_dir, "--omni-granularity=member")}
    assert ("app/clusters.py", 2) not in found and ("app/clusters.py", 5) not in found  # Centroid implements Profile
    assert ("app/clusters.py", 10) in found  # Partial.signature: Partial is no Profile


def test_a_quarto_page_documents_what_it_names(tmp_path: Path, cache_dir: Path) -> None:
    """axolotl documents its prompt strategies in `.qmd` (Quarto) pages: a page's code block that imports a helper
    makes it documented API, as a Markdown page would."""
    files = {
        "app/__init__.py": "from app.serve import serve\n",
        "app/serve.py": "def serve():\n    return 1\n",
        "app/strategies.py": "def icr(sample):\n    return sample\n",
        "tests/test_strategies.py": "from app.strategies import icr\n\n\ndef test_icr():\n    assert icr(1) == 1\n",
        "docs/rlhf.qmd": "---\ntitle: RLHF\n---\n\n```python\nfrom app.strategies import icr\n```\n",
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir, "--omni-include-rejected=y")}
    assert "rejected: documented as supported API in docs/rlhf.qmd" in found[("app/strategies.py", 1)].message


def test_the_undo_of_a_live_patch_that_only_tests_call_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """axolotl's `unpatch_kernelize_fixes` restores what production's `patch_kernelize_fixes` changes: only a test
    fixture calls it, to leave global state as it found it. It is the other half of a live patch, not a helper
    that exists for a test."""
    files = {
        "app/__init__.py": "from app.fixes import patch_kernelize_fixes\n\npatch_kernelize_fixes()\n",
        "app/fixes.py": (
            "import math\n\n_ORIGINAL = math.floor\n\n\ndef patch_kernelize_fixes():\n    math.floor = lambda x: x\n\n\n"
            "def unpatch_kernelize_fixes():\n    math.floor = _ORIGINAL\n"
        ),
        "tests/test_fixes.py": "from app.fixes import unpatch_kernelize_fixes\n\n\ndef test_undo():\n    unpatch_kernelize_fixes()\n",
    }
    found = {(f.path, f.line): f for f in lint(write(tmp_path / "proj", files), cache_dir)}
    undo = found[("app/fixes.py", 10)]
    assert undo.confidence == "INFERENCE" and "release half of patch_kernelize_fixes" in undo.message, undo


def test_a_protocol_typed_attribute_reaches_the_implementation_made_later(tmp_path: Path, cache_dir: Path) -> None:
    """aibrix's monitor keeps `self._reader: LoadReader` and calls `next_available()` on it; the reader class is made
    elsewhere, after the monitor's code was walked: its method is reached all the same."""
    files = {
        "app/__init__.py": "from app.monitor import Monitor\nfrom app.main import main\n",
        "app/types.py": "from typing import Protocol\n\n\nclass Reader(Protocol):\n    def next_available(self) -> float: ...\n",
        "app/monitor.py": (
            "from app.types import Reader\n\n\nclass Monitor:\n    def __init__(self, reader: Reader):\n"
            "        self._reader: Reader = reader\n\n    def wait(self):\n        return self._reader.next_available()\n"
        ),
        "app/readers.py": "class GatewayReader:\n    def next_available(self):\n        return 0.0\n",
        "app/main.py": (
            "from app.monitor import Monitor\n\n\ndef main():\n    return Monitor(_reader()).wait()\n\n\n"
            "def _reader():\n    return _make()\n\n\ndef _make():\n    from app.readers import GatewayReader\n\n"
            "    return GatewayReader()\n"
        ),
    }
    found = {(f.path, f.line) for f in lint(write(tmp_path / "proj", files), cache_dir, "--omni-granularity=member")}
    assert ("app/readers.py", 2) not in found, found


def test_python_3_12_syntax_and_a_conditional_base_keep_their_references(tmp_path: Path, cache_dir: Path) -> None:
    """LeRobot requires Python 3.12: `type NameOrID = str | int` in `motors_bus.py` made the whole file unreadable to
    a 3.11 parser, so `SerialMotorsBus._connect` calling `self._handshake()` was lost and every bus's `_handshake`
    was "no consumer" (high). And `Base = Qwen2VLForConditionalGeneration if ok else nn.Module` then `class
    Policy(Base)` hid the upstream base whose hooks the policy overrides."""
    files = {
        "app/__init__.py": "",
        "app/bus.py": (
            "type NameOrID = str | int\n\n\nclass SerialBus:\n    def connect(self):\n        self._handshake()\n\n"
            "    def _handshake[T](self) -> None:\n        pass\n"
        ),
        "app/feetech.py": (
            "from app.bus import SerialBus\n\n\nclass FeetechBus(SerialBus):\n    def _handshake(self) -> None:\n"
            "        print('hello')\n"
        ),
        "app/policy.py": (
            "import torch.nn as nn\nfrom transformers import Qwen2VLForConditionalGeneration\n\nDEPS = True\n"
            "Base = Qwen2VLForConditionalGeneration if DEPS else nn.Module\n\n\n"
            "class Policy(Base):\n    def get_output_embeddings(self):\n        return None\n"
        ),
        "app/main.py": (
            "from app.feetech import FeetechBus\nfrom app.policy import Policy\n\n\n"
            "if __name__ == '__main__':\n    FeetechBus().connect()\n    print(Policy())\n"
        ),
    }
    root = write(tmp_path / "tree", files)
    found = [f for f in lint(root, cache_dir) if f.symbol == "unused-surface"]
    assert not [f for f in found if "_handshake" in f.message], found
    embeddings = [f for f in found if "get_output_embeddings" in f.message]
    assert not embeddings or all(f.confidence == "INFERENCE" and "override" in f.message for f in embeddings), found


def test_framework_contracts_judged_on_fresh_trees(tmp_path: Path, cache_dir: Path) -> None:
    """Round 7 (LeRobot, AutoRound): transformers' `GenerationMixin` looks `create_masks_for_generate` up with
    `getattr(self, "create_masks_for_generate", default)`, so the model's method is a hook (was high); a method a
    project Protocol declares goes with the Protocol, not alone; a module whose docstring says it keeps an old import
    path for compatibility is a deprecation, not dead code. A plain dead method stays high."""
    upstream = tmp_path / "up"
    write(upstream, {
        "ups/__init__.py": "",
        "ups/generation.py": (
            "def default_masks(*args):\n    return None\n\n\nclass GenerationMixin:\n    def generate(self):\n"
            "        make = getattr(self, 'create_masks_for_generate', default_masks)\n        return make()\n"
        ),
    })
    files = {
        "app/__init__.py": "",
        "app/model.py": (
            "from ups.generation import GenerationMixin\n\n\nclass Model(GenerationMixin):\n"
            "    def create_masks_for_generate(self):\n        return 1\n\n    def unused(self):\n        return 2\n"
        ),
        "app/frames.py": (
            "from typing import Protocol\n\n\nclass FrameProvider(Protocol):\n    def frames(self) -> list: ...\n\n"
            "    def video_for_episode(self) -> str: ...\n\n\nclass NullProvider:\n    def frames(self) -> list:\n"
            "        return []\n\n    def video_for_episode(self) -> str:\n        return ''\n\n\n"
            "class VideoProvider(NullProvider):\n    def video_for_episode(self) -> str:\n        return 'clip.mp4'\n\n\n"
            "def count(provider: FrameProvider) -> int:\n    return len(provider.frames())\n\n\n"
            "def clip(provider: FrameProvider) -> str:\n    return provider.video_for_episode()\n"
        ),
        "app/formats.py": (
            "# License header.\n\n\"\"\"Backward-compatible imports for the relocated format API.\"\"\"\n\n\n"
            "def get_formats():\n    return ['a']\n\n\nclass ExportFormat:\n    name = 'a'\n"
        ),
        "app/main.py": (
            "from app.frames import NullProvider, VideoProvider, clip, count\nfrom app.model import Model\n\n\n"
            "if __name__ == '__main__':\n    print(Model().generate(), count(NullProvider()), clip(VideoProvider()))\n"
        ),
        "tests/test_formats.py": (
            "from app.formats import ExportFormat, get_formats\n\n\ndef test_it():\n    assert get_formats() and ExportFormat.name\n"
        ),
    }
    root = write(tmp_path / "proj", files)
    found = lint(root, cache_dir, f"--omni-upstream-paths={upstream}", "--omni-granularity=member")
    by_name = {name: f for f in found for name in ("create_masks_for_generate", "unused", "video_for_episode", "formats")
               if name in f.message}
    assert "create_masks_for_generate" not in by_name, found
    assert by_name["unused"].confidence == "HIGH", found
    assert by_name["video_for_episode"].confidence == "INFERENCE" and "Protocol member" in by_name["video_for_episode"].message
    assert by_name["formats"].confidence == "INFERENCE" and "compatibility" in by_name["formats"].message, found


def test_a_module_imported_only_for_effects_it_lacks_names_its_import(tmp_path: Path, cache_dir: Path) -> None:
    """vllm-gaudi: a plugin entry point imports a module (`import x  # noqa: F401`) whose only effect, a monkeypatch,
    was commented out. The module is dead in effect, but deleting it alone breaks the import: the message says it
    is imported and names the import to delete with it (a package's dead modules too)."""
    root = write(tmp_path / "proj", {
        "pyproject.toml": "[project]\nname = 'app'\n[project.entry-points.'host.plugins']\nmodels = 'app:register_models'\n",
        "app/__init__.py": "def register_models():\n    import app.models.interfaces  # noqa: F401\n    from app.models import llama\n"
                           "    return llama.build()\n",
        "app/models/__init__.py": "",
        "app/models/interfaces.py": "import os\n\n\ndef _patched(self):\n    return os.getcwd()\n\n# Host._embed = _patched\n",
        "app/models/llama.py": "def build():\n    return 1\n",
        "app/extra/__init__.py": "",
        "app/extra/a.py": "def f():\n    return 1\n",
        "app/extra/b.py": "def g():\n    return 2\n",
        "app/loader.py": "def load():\n    import app.extra.a  # noqa: F401\n    import app.extra.b  # noqa: F401\n",
    })
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text().replace("app:register_models'", "app:register_models'\nload = 'app.loader:load'"))
    found = {(f.path, f.line): f.message for f in lint(root, cache_dir)}
    message = found[("app/models/interfaces.py", 1)]
    assert "Module app.models.interfaces is imported but never used" in message and "__init__.py:2" in message
    package = found[("app/extra/__init__.py", 1)]
    assert "Package app.extra has 2 modules nothing uses (a.py and b.py)" in package
    assert "their 2 unused imports (loader.py:2" in package


def test_hooks_an_outside_base_calls_by_name_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    """vllm-gaudi: methods of classes extending an indexed outside class whose installed version does not call them
    (the project targets a newer one). The method's own text says it overrides a base method, or says an outside
    library calls it, or three other classes extending outside classes define the same name, or an upstream class of
    its class's name defines it (code written for that class calls it on this one): each is medium, naming why. A plain private helper of such a class that nothing calls stays high."""
    upstream = tmp_path / "up"
    write(upstream, {"host/__init__.py": "", "host/layers.py": "class MoEMethod:\n    pass\n\n\nclass QuantMethod:\n    pass\n",
                     "host/state.py": "class CachedState:\n    def get_token_id(self, i):\n        return i\n"})
    hook = "    def apply_monolithic(self, x):\n        return x\n\n"
    files = {
        "app/__init__.py": "",
        "app/main.py": "from app.ops import A, B, C, D\nfrom app.quant import Matmul\n\n\n"
                       "if __name__ == '__main__':\n    print(A(), B(), C(), D(), Matmul())\n",
        "app/ops.py": (
            "from host.layers import MoEMethod, QuantMethod\n\n\n"
            "class A(MoEMethod):\n    def _select_monolithic(self):\n        \"\"\"Overriding base method\"\"\"\n        return 1\n\n"
            + hook + "\nclass B(QuantMethod):\n" + hook + "\nclass C(QuantMethod):\n" + hook + "\nclass D(MoEMethod):\n" + hook
        ),
        "app/quant.py": (
            "from host.layers import QuantMethod\n\n\nclass Matmul(QuantMethod):\n    def get_dequant_func(self):\n"
            "        return self.dequant\n\n    def dequant(self, layer):\n"
            "        # This function is called by INC during the measurement phase.\n        return layer\n"
        ),
        "app/helpers.py": "from host.layers import QuantMethod\n\n\nclass Plain(QuantMethod):\n    def _helper(self):\n        return 2\n",
        "app/state.py": "import host.state\n\n\nclass CachedState:\n    def get_token_id(self, i):\n        return i\n",
    }
    files["app/main.py"] = files["app/main.py"].replace("from app.quant import Matmul", "from app.quant import Matmul\nfrom app.helpers import Plain")
    files["app/main.py"] = files["app/main.py"].replace("Matmul())", "Matmul(), Plain(), CachedState())")
    files["app/main.py"] = files["app/main.py"].replace("from app.helpers import Plain", "from app.helpers import Plain\nfrom app.state import CachedState")
    root = write(tmp_path / "proj", files)
    found = lint(root, cache_dir, f"--omni-upstream-paths={upstream}", "--omni-granularity=member")
    by_name = {name: f for f in found for name in ("_select_monolithic", "apply_monolithic", "get_dequant_func", "_helper")
               if f"{name} " in f.message or f"{name}," in f.message}
    assert by_name["_helper"].confidence == "HIGH", found
    assert by_name["_select_monolithic"].confidence != "HIGH" and "its own text says it overrides" in by_name["_select_monolithic"].message
    hooks = [f for f in found if "apply_monolithic" in f.message]
    assert len(hooks) == 4 and all(f.confidence != "HIGH" for f in hooks), found
    assert by_name["get_dequant_func"].confidence != "HIGH" and "its own text says INC" in by_name["get_dequant_func"].message
    twin = next(f for f in found if "get_token_id" in f.message)  # the upstream class of its name defines it
    assert twin.confidence != "HIGH" and "it mirrors host.state.CachedState.get_token_id" in twin.message, found


def test_a_module_whose_top_level_import_names_a_deleted_module_cannot_be_imported(tmp_path: Path, cache_dir: Path) -> None:
    """DiffSynth-Studio: `from .attention import Attention` in a library module whose sibling went in a rewrite.
    A library's public modules are its API, but this one raises on import: it is dead (high), and the message
    says why. A module the build writes (`_version.py`, named by setup.py's `write_to`) and an import under `try`
    are not missing."""
    root = write(tmp_path / "proj", {
        "setup.py": "from setuptools import setup\nsetup(name='app', use_scm_version={'write_to': 'app/_version.py'})\n",
        "app/__init__.py": "from app._version import version\n",
        "app/models/__init__.py": "",
        "app/models/encoder.py": "import torch\nfrom .attention import Attention\n\n\nclass Encoder(torch.nn.Module):\n    pass\n",
        "app/models/guarded.py": "try:\n    from .fast_kernels import kernel\nexcept ImportError:\n    kernel = None\n\n\n"
                                 "def run():\n    return kernel\n",
        "app/models/decoder.py": "class Decoder:\n    pass\n",
    })
    found = {f.path: f for f in lint(root, cache_dir)}
    encoder = found["app/models/encoder.py"]
    assert encoder.confidence == "HIGH"
    assert ("Module app.models.encoder cannot be imported (line 2 imports app.models.attention, which the project does "
            "not have)") in encoder.message
    assert "app/models/decoder.py" not in found and "app/models/guarded.py" not in found  # a library's public modules
    assert "app/__init__.py" not in found


def test_framework_inner_classes_and_state_views_judged_on_fresh_trees(tmp_path: Path, cache_dir: Path) -> None:
    """Round 10 (GuideLLM): pydantic-settings reads the inner `class Config` (its `env_prefix`) of the settings class
    it handles, which nothing in the project names: live; the same inner class of a plain class is dead. A property
    `is_aborted` that only tests read, beside the `abort()` production calls, is the read side of that state: medium."""
    root = write(tmp_path / "proj", {
        "pyproject.toml": "[project]\nname = 'app'\n[project.scripts]\nrun = 'app.main:main'\n",
        "app/__init__.py": "",
        "app/main.py": (
            "from pydantic_settings import BaseSettings\n\n\nclass ServerConfig(BaseSettings):\n    host: str = '0.0.0.0'\n\n"
            "    class Config:\n        env_prefix = 'APP_'\n\n\nclass Plain:\n    class Config:\n        x = 1\n\n\n"
            "class Job:\n    def __init__(self):\n        self._aborted = False\n\n    def abort(self):\n"
            "        self._aborted = True\n\n    @property\n    def is_aborted(self):\n        return self._aborted\n\n"
            "    @property\n    def is_finished(self):\n        return False\n\n\n"
            "def main():\n    job = Job()\n    job.abort()\n    print(ServerConfig().host, Plain())\n"
        ),
        "tests/test_job.py": "from app.main import Job\n\n\ndef test_abort():\n    job = Job()\n    job.abort()\n"
                             "    assert job.is_aborted and not job.is_finished\n",
    })
    found = {f.message.split(" ")[2]: f for f in lint(root, cache_dir, "--omni-granularity=member")}
    assert "ServerConfig.Config" not in found and found["Plain.Config"].confidence == "HIGH", found
    assert found["Job.is_aborted"].confidence != "HIGH" and "the read side of the state Job.abort() sets" in found["Job.is_aborted"].message
    assert found["Job.is_finished"].confidence == "HIGH"  # no `finish()` changes that state


def test_fallback_imports_outside_reexports_and_streams_judged_on_fresh_trees(tmp_path: Path, cache_dir: Path) -> None:
    """Round 11 (GPT-NeoX): `try: from .template import Base` / `except ImportError: from template import Base` binds
    the project's class (the fallback does not rebind it), so the module is live; `mpu/random.py` only hands on
    deepspeed's `checkpoint`, and `from .random import checkpoint` still runs it; a `Tee` installed as
    `sys.stdout` gets its `write`/`flush` called by Python (medium, never high)."""
    root = write(tmp_path / "proj", {
        "pyproject.toml": "[project]\nname = 'app'\n[project.scripts]\nrun = 'app.main:main'\n",
        "app/__init__.py": "",
        "app/args/__init__.py": "from .neox_args import TrainingArgs\n",
        "app/args/template.py": "class Base:\n    def defaults(self):\n        return dict(vars(self))\n",
        "app/args/neox_args.py": "try:\n    from .template import Base\nexcept ImportError:\n    from template import Base\n\n\n"
                                 "class TrainingArgs(Base):\n    lr = 0.1\n",
        "app/mpu/__init__.py": "from .random import checkpoint\n",
        "app/mpu/random.py": "from deepspeed.checkpointing import checkpoint\n",
        "app/main.py": (
            "import sys\n\nfrom app.args import TrainingArgs\nfrom app import mpu\n\n\nclass Tee:\n    def write(self, data):\n"
            "        return len(data)\n\n    def flush(self):\n        return None\n\n\n"
            "def main():\n    sys.stdout = Tee()\n    print(TrainingArgs().defaults(), mpu.checkpoint)\n"
        ),
    })
    found = {f.path: f for f in lint(root, cache_dir, "--omni-granularity=member")}
    assert "app/args/template.py" not in found and "app/mpu/random.py" not in found, found
    streams = [f for f in lint(root, cache_dir, "--omni-granularity=member") if "Tee." in f.message]
    assert streams and all(f.confidence != "HIGH" for f in streams), streams


def test_an_import_inside_a_command_line_of_a_makefile_is_a_consumer(tmp_path: Path, cache_dir: Path) -> None:
    """Round 12 (OLMo): `make check-cpu-install` runs `python -c 'from olmo import check_install; check_install()'`:
    the import inside the command names the function, which is not dead; a function nothing names stays high."""
    root = write(tmp_path / "proj", {
        "pyproject.toml": "[project]\nname = 'app'\n[project.scripts]\nrun = 'app.main:main'\n",
        "app/__init__.py": "",
        "app/tools.py": "def check_install(cuda=False):\n    return cuda\n\n\ndef unused():\n    return 1\n",
        "app/main.py": "def main():\n    return 1\n",
        "Makefile": ".PHONY: check\ncheck:\n\t@python -c 'from app.tools import check_install; check_install(cuda=False)'\n",
    })
    found = {f.message.split(" ")[2]: f for f in lint(root, cache_dir, "--omni-granularity=member")}
    assert "check_install" not in found and found["unused"].confidence == "HIGH", found


def test_a_shim_module_production_imports_through_is_live_and_a_table_used_as_a_default_is_read(tmp_path: Path, cache_dir: Path) -> None:
    """Round 12 (torchtune): `torchtune/modules/tokenizers/__init__.py` only re-exports the classes that moved to
    `modules/transforms/tokenizers`, and seven production modules still import through it: deleting it breaks them,
    so it is live (the finding to make is "move the imports"). `LLAMA3_SPECIAL_TOKENS`, a dict used as the default of
    `special_tokens`, flows on whole: its entries are read."""
    root = write(tmp_path / "proj", {
        "pyproject.toml": "[project]\nname = 'app'\n[project.scripts]\nrun = 'app.main:main'\n",
        "app/__init__.py": "",
        "app/transforms/__init__.py": "",
        "app/transforms/tokenizers.py": "class ModelTokenizer:\n    def encode(self, text):\n        return [len(text)]\n",
        "app/tokenizers/__init__.py": "import warnings\n\nfrom app.transforms.tokenizers import ModelTokenizer\n\n"
                                      "warnings.warn('moved', DeprecationWarning)\n",
        "app/llama.py": "from app.tokenizers import ModelTokenizer\n\nSPECIAL = {'<bos>': 1}\nRESERVED = {'<r0>': 2}\n"
                        "SPECIAL_TOKENS = {**SPECIAL, **RESERVED}\n\n\nclass Llama(ModelTokenizer):\n"
                        "    def __init__(self, special_tokens=None):\n"
                        "        self.special_tokens = special_tokens if special_tokens is not None else SPECIAL_TOKENS\n\n"
                        "    def bos(self):\n        return self.special_tokens['<bos>']\n",
        "app/main.py": "from app.llama import Llama\n\n\ndef main():\n    return Llama().bos()\n",
    })
    found = lint(root, cache_dir, "--disable=all", "--enable=unused-surface,unused-registry-entry", "--omni-granularity=member")
    assert not [f for f in found if f.path in ("app/tokenizers/__init__.py", "app/llama.py")], found


def test_a_class_handed_to_outside_code_is_medium_and_a_builtin_keeps_nothing(tmp_path: Path, cache_dir: Path) -> None:
    """OLMo registers the class `WekaClient` itself with `add_scheme_client(WekaClient)`: the library builds it and
    calls its methods (medium). `print(Shown())` hands an object to a builtin, which reads it and keeps nothing: a dead
    method of `Shown` stays high."""
    root = write(tmp_path / "proj", {
        "pyproject.toml": "[project]\nname = 'app'\n[project.scripts]\nrun = 'app.main:main'\n",
        "app/__init__.py": "",
        "app/main.py": "from storage_lib import add_scheme_client\n\n\nclass WekaClient:\n    def get_etag(self):\n"
                       "        return 'x'\n\n\nclass Shown:\n    def describe(self):\n        return 1\n\n\n"
                       "def main():\n    add_scheme_client(WekaClient)\n    print(Shown())\n",
    })
    found = {f.message.split(" ")[2]: f for f in lint(root, cache_dir, "--omni-granularity=member")}
    assert found["WekaClient.get_etag"].confidence != "HIGH" and "is handed to `add_scheme_client`" in found["WekaClient.get_etag"].message
    assert found["Shown.describe"].confidence == "HIGH", found


def test_test_only_halves_of_live_mechanisms_and_test_references_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    """What tests alone call but a maintainer would not delete alone (round 13, axolotl and aibrix):
    - `close_debug_log`, the teardown half of a live `prepare_debug_log` (tests need it to undo the setup);
    - `init_loop`, which sets a module global production reads through `get_loop()` (production depends on state
      only tests create: the change is the whole mechanism);
    - a function of a module whose docstring says it is a reference for tests (a numeric oracle);
    while a plain test-only helper stays high, `stop_profile` is no release half of a bare `init`; and an import listed in `__all__` is named as a re-export with its entry."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/main.py": ("from app.logs import prepare_debug_log\nfrom app.loop import get_loop\nfrom app.engine import boot\n\n\n"
                        "def main():\n    prepare_debug_log('x')\n    assert get_loop() is not None\n    boot()\n\n\n"
                        "if __name__ == '__main__':\n    main()\n"),
        "app/logs.py": ("HANDLE = []\n\n\ndef prepare_debug_log(name):\n    HANDLE.append(name)\n    return name\n\n\n"
                        "def close_debug_log():\n    HANDLE.clear()\n    return len(HANDLE)\n"),
        "app/loop.py": ("_loop = None\n\n\ndef init_loop(name):\n    global _loop\n    _loop = name\n    return _loop\n\n\n"
                        "def get_loop():\n    return _loop\n\n\ndef double(value):\n    total = value * 2\n    return total\n\n\n"
                        "def triple(value):\n    total = value * 3\n    return total\n"),
        "app/oracle.py": ('"""Pure-python rounding reference.\n\nUsed as the numeric oracle for the kernel path."""\n\n\n'
                          "def simulate_round(x):\n    value = round(x)\n    return value\n"),
        "app/kernels.py": "from app.loop import triple\n\n__all__ = ['triple']\n",
        "app/engine.py": ("class Engine:\n    def init(self):\n        return 1\n\n    def stop_profile(self):\n        return 2\n\n\n"
                          "def boot():\n    return Engine().init()\n"),
        "tests/test_all.py": ("from app.logs import close_debug_log\nfrom app.loop import init_loop, double\n"
                              "from app.oracle import simulate_round\n\n\n"
                              "def test_all():\n    close_debug_log()\n    init_loop('a')\n    simulate_round(1.5)\n    double(2)\n"),
    })
    findings = lint(root, cache_dir, "--omni-granularity=member")
    found = by_subject(findings)
    close, init, oracle = found["Function close_debug_log"], found["Function init_loop"], found["Function simulate_round"]
    assert close.confidence == init.confidence == oracle.confidence == "INFERENCE", (close, init, oracle)
    assert "the release half of prepare_debug_log" in close.message or "sets the module global" in close.message
    assert "it sets the module global `_loop`" in init.message
    assert "its module says it is a reference for tests" in oracle.message
    assert found["Function double"].confidence == "HIGH"
    assert "its re-export at kernels.py:1 (and its `__all__` entry)" in found["Function triple"].message
    # `stop_profile` is no release half of a bare `init()` of its class (slime's SGLangEngine): another mechanism
    assert found["Method Engine.stop_profile"].confidence == "HIGH", found["Method Engine.stop_profile"]


def test_test_support_the_package_ships_and_forwarding_methods(tmp_path: Path, cache_dir: Path) -> None:
    """accelerate (round 14): skip decorators and TestCase bases in `accelerate/test_utils/testing.py` are there for
    tests, so "only tests use it" is no finding, and an unused one is medium (other test suites import them); a
    method that forwards to the same-named method of the object it wraps (`AcceleratedScheduler.print_lr`) mirrors
    the wrapped API: medium."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/main.py": ("from app.sched import Scheduler\n\n\ndef main():\n    return Scheduler(None).step()\n\n\n"
                        "if __name__ == '__main__':\n    main()\n"),
        "app/sched.py": ("class Scheduler:\n    def __init__(self, scheduler):\n        self.scheduler = scheduler\n\n"
                         "    def step(self):\n        return 1\n\n"
                         "    def print_lr(self, *args, **kwargs):\n        return self.scheduler.print_lr(*args, **kwargs)\n\n"
                         "    def unused(self):\n        value = self.step()\n        return value * 2\n"),
        "app/test_utils/__init__.py": "",
        "app/test_utils/testing.py": ("import unittest\n\n\ndef require_gpu(case):\n    return unittest.skip('no gpu')(case)\n\n\n"
                                      "def require_tpu(case):\n    return unittest.skip('no tpu')(case)\n"),
        "tests/test_it.py": ("from app.test_utils.testing import require_gpu\n\n\n@require_gpu\ndef test_it():\n    assert True\n"),
    })
    findings = lint(root, cache_dir, "--omni-granularity=member")
    by_name = by_subject(findings)
    assert "Function require_gpu" not in by_name, findings  # test support, used by tests: its purpose
    tpu = by_name["Function require_tpu"]
    assert tpu.confidence == "INFERENCE" and "part of the test support the package ships (app/test_utils)" in tpu.message
    forward = by_name["Method Scheduler.print_lr"]
    assert forward.confidence == "INFERENCE" and "it forwards to `self.scheduler.print_lr`" in forward.message
    assert by_name["Method Scheduler.unused"].confidence == "HIGH"


def test_round_trip_halves_accessor_setters_and_knobs_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    """Megatron-LM (round 15): `from_yaml` beside a live `to_yaml` is the load half of a round trip users run;
    `set_tracker` beside a live `get_tracker` is the setter of a public accessor pair; `Timer.set_barrier_group`, the
    only setter of a field the live `start()` reads, is a setting outside code turns. Each is medium, naming why; a
    dead method with no such partner stays high, and `from_pretrained` is no half of a method named `to`."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/main.py": ("from app.conf import Config, get_tracker\nfrom app.timer import Timer\n\n\n"
                        "def main():\n    Config().to_yaml()\n    Timer().start()\n    return get_tracker()\n\n\n"
                        "if __name__ == '__main__':\n    main()\n"),
        "app/conf.py": ("_TRACKER = []\n\n\nclass Config:\n    def to_yaml(self):\n        return 'a: 1'\n\n"
                        "    @classmethod\n    def from_yaml(cls, text):\n        value = cls()\n        value.text = text\n        return value\n\n"
                        "    def to(self, device):\n        return self\n\n"
                        "    @classmethod\n    def from_pretrained(cls, path):\n        value = cls()\n        value.path = path\n        return value\n\n\n"
                        "def get_tracker():\n    return _TRACKER\n\n\n"
                        "def set_tracker(tracker):\n    _TRACKER[:] = tracker\n    return _TRACKER\n"),
        "app/timer.py": ("class Timer:\n    def __init__(self):\n        self._barrier_group = None\n\n"
                         "    def set_barrier_group(self, group):\n        self._barrier_group = group\n\n"
                         "    def start(self):\n        return self._barrier_group\n"),
    })
    findings = lint(root, cache_dir, "--omni-granularity=member")
    by_name = by_subject(findings)
    loads = by_name["Method Config.from_yaml"]
    assert loads.confidence == "INFERENCE" and "the load half of a round trip" in loads.message, loads
    setter = by_name["Function set_tracker"]
    assert setter.confidence == "INFERENCE" and "the setter of the accessor pair" in setter.message, setter
    knob = by_name["Method Timer.set_barrier_group"]
    assert knob.confidence == "INFERENCE" and "the only setter of `self._barrier_group`" in knob.message, knob
    assert by_name["Method Config.from_pretrained"].confidence == "HIGH"


def test_a_public_function_of_the_top_level_package_is_its_interface(tmp_path: Path, cache_dir: Path) -> None:
    """DeepSpeed (round 15): `deepspeed.tp_model_init`, defined in `deepspeed/__init__.py`, is what `import deepspeed;
    deepspeed.tp_model_init(...)` calls from outside (transformers does): medium; a private one there, or a public one
    of a subpackage's module, stays high."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": ("def init_distributed():\n    value = 1\n    return value\n\n\n"
                            "def _helper():\n    value = 2\n    return value\n"),
        "app/main.py": "from app.ops.math import cube\n\n\ndef main():\n    return cube(2)\n\n\nif __name__ == '__main__':\n    main()\n",
        "app/ops/__init__.py": "",
        "app/ops/math.py": "def square(x):\n    value = x * x\n    return value\n\n\ndef cube(x):\n    return x * x * x\n",
    })
    findings = lint(root, cache_dir, "--omni-granularity=member")
    by_name = by_subject(findings)
    top = by_name["Function init_distributed"]
    assert top.confidence == "INFERENCE" and "defined in the top-level package app" in top.message, top
    assert by_name["Function _helper"].confidence == "HIGH"
    assert by_name["Function square"].confidence == "HIGH"


def test_a_method_of_a_class_an_outside_decorator_takes_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """MLC LLM (round 16): `@tvm.transform.module_pass(...)` wraps the pass class and TVM calls its `transform_module`
    itself: a dead-looking method of a class an outside decorator takes is medium, naming the decorator; one of a
    `@dataclass` (the standard library calls none of its methods), or of a `@ray.remote` actor whose methods the project
    calls itself (NeMo RL), stays high."""
    root = write(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/passes.py": ("import dataclasses\n\nimport tvm\n\n\n@tvm.transform.module_pass(opt_level=0, name='Fuse')\n"
                          "class Fuse:\n    def transform_module(self, mod, ctx):\n        value = mod\n        return value\n\n\n"
                          "@dataclasses.dataclass\nclass Spec:\n    name: str\n\n    def describe(self):\n        text = self.name\n        return text\n"),
        "app/actors.py": ("import ray\n\n\n@ray.remote\nclass Worker:\n    def generate(self, prompt):\n        return prompt\n\n"
                          "    def stop_profile(self):\n        value = 1\n        return value\n"),
        "app/main.py": ("from app.passes import Fuse, Spec\nfrom app.actors import Worker\n\n\ndef main():\n"
                        "    worker = Worker.remote()\n    worker.generate.remote('a')\n    return [Fuse(), Spec('a')]\n\n\n"
                        "if __name__ == '__main__':\n    main()\n"),
    })
    findings = lint(root, cache_dir, "--omni-granularity=member")
    by_name = by_subject(findings)
    fuse = by_name["Method Fuse.transform_module"]
    assert fuse.confidence == "INFERENCE" and "decorated with `@tvm.transform.module_pass` (tvm)" in fuse.message, fuse
    assert by_name["Method Spec.describe"].confidence == "HIGH"
    # A `@ray.remote` actor the project drives itself (`worker.generate.remote(...)`): its dead method stays high.
    assert by_name["Method Worker.stop_profile"].confidence == "HIGH", by_name["Method Worker.stop_profile"]


def test_a_method_of_a_servicer_whose_generated_base_is_not_checked_out_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """LoRAX's `LoraxService` implements `generate_pb2_grpc.LoraxServiceServicer`, which protoc writes at build time
    (`lorax_server/pb/` is not committed): gRPC calls its `Prefill`, nothing in the checkout does."""
    root = write(tmp_path, {
        "app/__init__.py": "",
        "app/main.py": "from app.server import serve\n\n\nif __name__ == '__main__':\n    serve()\n",
        "app/server.py": (
            "from app.pb import generate_pb2_grpc\n\n\n"
            "class Service(generate_pb2_grpc.GenerateServicer):\n"
            "    def Prefill(self, request, context):\n        return request\n\n\n"
            "def serve():\n    return Service()\n"
        ),
    })
    found = by_subject(lint(root, cache_dir))
    prefill = found["Method Service.Prefill"]
    assert prefill.confidence == "INFERENCE" and "whose module is not in the checkout" in prefill.message


def test_a_dead_function_whose_call_is_commented_out_is_a_parked_feature(tmp_path: Path, cache_dir: Path) -> None:
    """llama-stack keeps `# await check_health(self._config)` under a ToDo: the helper is parked, not dead (medium,
    naming the line); prose that only mentions a name parks nothing."""
    root = write(tmp_path, {
        "app/__init__.py": "",
        "app/main.py": (
            "from app.health import check_health, live, warm_up\n\n\n"
            "async def start(config):\n"
            "    # ToDo: enable this once the endpoint reports health\n"
            "    # await check_health(config)\n"
            "    # warm_up is not needed any more\n"
            "    return live(config)\n\n\n"
            "if __name__ == '__main__':\n    start(None)\n"
        ),
        "app/health.py": ("async def check_health(config):\n    return config\n\n\ndef warm_up():\n    return 1\n\n\n"
                          "def live(config):\n    return config\n"),
    })
    found = by_subject(lint(root, cache_dir))
    assert found["Function check_health"].confidence == "INFERENCE"
    assert "a call to it is commented out at app/main.py:6" in found["Function check_health"].message
    assert found["Function warm_up"].confidence == "HIGH"
