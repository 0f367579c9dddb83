"""Code that production reaches without naming it, from findings judged wrong on GPTQModel and ROLL (round 6):
a lazy factory importing each strategy under one alias, kernels found by walking a package and enumerating a
base's subclasses, objects handed to outside code that calls their methods by name. And two shapes the change
must say: code reached only through production code that only examples reach, and imports a deletion breaks."""

from __future__ import annotations

from pathlib import Path

from conftest import Finding, enable_args, run_pylint, write_tree

SYMBOLS = ("unused-surface", "test-only-surface")


def lint(root: Path, cache_dir: Path, *extra: str) -> list[Finding]:
    code, findings, stderr = run_pylint([*enable_args(SYMBOLS), *extra, "app"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr and code & 33 == 0, stderr
    return findings


def tree(tmp_path: Path, files: dict[str, str]) -> Path:
    return write_tree(tmp_path / "tree", {"pyproject.toml": "[project]\nname = 'app'\n", "app/__init__.py": "", **files})


MAIN = "from app.factory import create\n\n\nif __name__ == '__main__':\n    print(create('hf', True))\n"


def test_each_arm_of_a_lazy_factory_is_live(tmp_path: Path, cache_dir: Path) -> None:
    """ROLL's `create_strategy`: `from .hf import HfStrategy as strategy_cls` in one arm, `... MockStrategy as
    strategy_cls` in another, then `strategy_cls = wrap(strategy_cls)`; only the last arm's class was live, and
    `hf.py` was "a module nothing imports" (high)."""
    root = tree(tmp_path, {
        "app/factory.py": (
            "def wrap(cls):\n    return cls\n\n\n"
            "def create(name, sync):\n"
            "    if name == 'hf':\n        from app.hf import HfStrategy as strategy_cls\n"
            "    elif name == 'mock':\n        from app.mock import MockStrategy as strategy_cls\n"
            "    else:\n        from app.vllm import VllmStrategy as strategy_cls\n"
            "    if sync:\n        strategy_cls = wrap(strategy_cls)\n"
            "    return strategy_cls()\n"
        ),
        "app/hf.py": "class HfStrategy:\n    def generate(self):\n        return 1\n",
        "app/mock.py": "class MockStrategy:\n    def generate(self):\n        return 2\n",
        "app/vllm.py": "class VllmStrategy:\n    def generate(self):\n        return 3\n",
        "app/main.py": MAIN,
    })
    found = lint(root, cache_dir)
    assert not [f for f in found if "nothing imports" in f.message or f.path in ("app/hf.py", "app/mock.py", "app/vllm.py")], found


def test_kernels_a_package_walk_imports_and_a_subclass_walk_selects_are_live(tmp_path: Path, cache_dir: Path) -> None:
    """GPTQModel's kernels: `pkgutil.iter_modules(qlinear.__path__)` over an imported package, then
    `import_module(f"{qlinear.__name__}.{name}")`, then `_walk(BaseQuantLinear)` where `_walk(cls)` recurses over
    `cls.__subclasses__()`. Four registered kernels were "used only by tests; delete the module" (high)."""
    root = tree(tmp_path, {
        "app/qlinear/__init__.py": "class BaseQuantLinear:\n    BACKEND = ''\n",
        "app/qlinear/fast.py": "from app.qlinear import BaseQuantLinear\n\n\nclass FastLinear(BaseQuantLinear):\n    BACKEND = 'fast'\n",
        "app/qlinear/tiny.py": "from app.qlinear import BaseQuantLinear\n\n\nclass TinyLinear(BaseQuantLinear):\n    BACKEND = 'tiny'\n",
        "app/importer.py": (
            "import importlib\nimport pkgutil\n\nfrom app.qlinear import BaseQuantLinear\n\n\n"
            "def _import_all():\n    from app import qlinear as qlinear_pkg\n\n"
            "    for info in pkgutil.iter_modules(qlinear_pkg.__path__):\n"
            "        importlib.import_module(f'{qlinear_pkg.__name__}.{info.name}')\n\n\n"
            "def kernels():\n    _import_all()\n    found = []\n\n"
            "    def _walk(cls):\n        for sub in cls.__subclasses__():\n            found.append(sub)\n            _walk(sub)\n\n"
            "    _walk(BaseQuantLinear)\n    return found\n"
        ),
        "app/main.py": "from app.importer import kernels\n\n\nif __name__ == '__main__':\n    print(kernels())\n",
        "tests/test_kernels.py": "from app.qlinear.fast import FastLinear\n\n\ndef test_it():\n    assert FastLinear.BACKEND\n",
    })
    found = lint(root, cache_dir)
    assert not [f for f in found if f.path.startswith("app/qlinear/")], found


def test_methods_of_objects_handed_to_outside_code_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    """ROLL: `add_TraceServiceServicer_to_server(self._servicer, server)` (gRPC calls `Export` by name) and
    `LogMonitor(gcs_publisher=StdPublisher())` where the project's `LogMonitor` extends Ray's (which calls
    `publish_logs`). Both methods were "no consumer" (high). A class kept by no outside call stays high."""
    root = tree(tmp_path, {
        "app/service.py": (
            "import grpc\nfrom ray.monitor import LogMonitor as RayLogMonitor\nfrom otel import service_pb2_grpc\n\n\n"
            "class _Servicer:\n    def Export(self, request, context):\n        return request\n\n\n"
            "class Publisher:\n    def publish_logs(self, data):\n        print(data)\n\n\n"
            "class Plain:\n    def run(self):\n        return 1\n\n    def unused(self):\n        return 2\n\n\n"
            "class LogMonitor(RayLogMonitor):\n    pass\n\n\n"
            "class Receiver:\n    def __init__(self):\n        self._servicer = None\n\n"
            "    def start(self):\n        self._servicer = _Servicer()\n        server = grpc.server(None)\n"
            "        service_pb2_grpc.add_TraceServiceServicer_to_server(self._servicer, server)\n"
            "        self.monitor = LogMonitor(gcs_publisher=Publisher())\n        return Plain().run()\n"
        ),
        "app/main.py": "from app.service import Receiver\n\n\nif __name__ == '__main__':\n    Receiver().start()\n",
    })
    found = [f for f in lint(root, cache_dir, "--omni-granularity=member") if f.symbol == "unused-surface"]
    by_name = {name: f for f in found for name in ("Export", "publish_logs", "unused") if f"{name} " in f.message}
    assert by_name["Export"].confidence == "INFERENCE" and "handed to" in by_name["Export"].message, by_name
    assert by_name["publish_logs"].confidence == "INFERENCE" and "`LogMonitor`" in by_name["publish_logs"].message, by_name
    assert by_name["unused"].confidence == "HIGH", by_name


def test_code_reached_only_through_an_example_configured_worker_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """ROLL: `testing_util.py` (a sandbox runner the reward worker calls) was "used only by tests: (none)" (high),
    because the worker is named only in example YAML and docs. No test names it: the decision is the worker's."""
    root = tree(tmp_path, {
        "app/runner.py": (
            "import signal\n\n\nclass TimeoutException(Exception):\n    pass\n\n\n"
            "def timeout_handler(signum, frame):\n    raise TimeoutException\n\n\n"
            "def reliability_guard():\n    return signal.getsignal(signal.SIGALRM)\n\n\n"
            "signal.signal(signal.SIGALRM, timeout_handler)\nGUARD = reliability_guard()\n\n\n"
            "def run_test(code):\n    return len(code)\n"
        ),
        "app/evaluator.py": "def check(code):\n    def _run():\n        from .runner import run_test\n\n        return run_test(code)\n\n    return _run()\n",
        "app/worker.py": (
            "from app.evaluator import check\n\n\ndef run_io_tests(code):\n    return check(code)\n\n\n"
            "class RewardWorker:\n    def __call__(self, code):\n        return run_io_tests(code)\n"
        ),
        "app/main.py": "if __name__ == '__main__':\n    print('serve')\n",
        "examples/rlvr.yaml": "rewards:\n  code:\n    worker_cls: app.worker.RewardWorker\n",
    })
    found = [f for f in lint(root, cache_dir) if f.path == "app/runner.py"]
    assert len(found) == 1 and found[0].line == 1, found  # the module, unwired: "used only by tests" (high) before
    assert found[0].confidence == "INFERENCE" and "no test names it" in found[0].message, found


def test_a_dead_helpers_change_deletes_the_imports_it_would_break(tmp_path: Path, cache_dir: Path) -> None:
    """ROLL: `codegen_metrics` and its dead siblings were one change, "delete them", while the reward worker still
    imports `codegen_metrics` (unused there): the deletion as written raises ImportError. The change names it."""
    root = tree(tmp_path, {
        "app/evaluator.py": (
            "def check(code):\n    return bool(code)\n\n\n"
            "def metrics(results):\n    return [score(r) for r in results]\n\n\n"
            "def score(result):\n    return result * 2\n\n\n"
            "def evaluate(sample):\n    return sample\n"
        ),
        "app/worker.py": "from app.evaluator import check, metrics\n\n\ndef compute(code):\n    return check(code)\n",
        "app/main.py": "from app.worker import compute\n\n\nif __name__ == '__main__':\n    print(compute('x'))\n",
    })
    found = [f for f in lint(root, cache_dir) if f.path == "app/evaluator.py"]
    assert len(found) == 1 and "unused import at worker.py:1" in found[0].message, found


def test_api_marked_by_a_comment_and_the_read_back_half_of_a_used_pair_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    """GPTQModel's `# public/stable api exposed to transformer/optimum` above two converters optimum imports; ROLL's
    `load_rng_state`, never called while `save_rng_state` runs at every checkpoint (resumed runs are not
    reproducible: the fix is the missing call, not the deletion). A plain dead helper stays high."""
    root = tree(tmp_path, {
        "app/convert.py": (
            "# public/stable api exposed to transformers/optimum\ndef convert_v1_to_v2(model):\n    return model\n\n\n"
            "def plain_helper(x):\n    return x\n\n\ndef used(x):\n    return x\n"
        ),
        "app/state.py": (
            "import pickle\n\n\nclass WorkerState:\n    @staticmethod\n    def save_rng_state(path):\n"
            "        pickle.dump({}, open(path, 'wb'))\n\n    @staticmethod\n    def load_rng_state(path):\n"
            "        return pickle.load(open(path, 'rb'))\n"
        ),
        "app/main.py": (
            "from app.convert import used\nfrom app.state import WorkerState\n\n\n"
            "if __name__ == '__main__':\n    WorkerState.save_rng_state(used('x'))\n"
        ),
    })
    found = {name: f for f in lint(root, cache_dir, "--omni-granularity=member")
             for name in ("convert_v1_to_v2", "plain_helper", "load_rng_state") if name in f.message}
    assert found["convert_v1_to_v2"].confidence == "INFERENCE" and "API for outside callers" in found["convert_v1_to_v2"].message
    assert found["load_rng_state"].confidence == "INFERENCE" and "read-back half" in found["load_rng_state"].message
    assert found["plain_helper"].confidence == "HIGH", found


def test_a_large_dead_module_nothing_names_is_high_and_one_named_elsewhere_is_a_suspected_root(
        tmp_path: Path, cache_dir: Path) -> None:
    """ROLL's `rock/sanbox_manager.py` (1,048 lines, 34 surfaces), imported and named by nothing, was medium as a
    "suspected missing root". With no mention anywhere it is dead; named in a script it may be a root."""
    body = "".join(f"def step_{i}(x):\n    return step_{i + 1}(x)\n\n\n" for i in range(30)) + "def step_30(x):\n    return x\n"
    files = {"app/legacy_manager.py": body, "app/main.py": "if __name__ == '__main__':\n    print('serve')\n"}
    found = [f for f in lint(tree(tmp_path / "a", files), cache_dir) if f.path == "app/legacy_manager.py"]
    assert found and all(f.confidence == "HIGH" for f in found), found
    named = {**files, "scripts/run.sh": "python -c 'import app.legacy_manager as m; m.step_0(1)'\n"}
    found = [f for f in lint(tree(tmp_path / "b", named), cache_dir) if f.path == "app/legacy_manager.py"]
    assert found and all(f.confidence == "INFERENCE" and "suspected missing root" in f.message for f in found), found


def test_a_module_a_live_package_star_imports_runs_its_registrations(tmp_path: Path, cache_dir: Path) -> None:
    """ModelOpt's `quantization/nn/__init__.py` does `from .modules.quant_pooling import *`; the module registers its
    quantized layers at import (`QuantModuleRegistry.register({...})(QuantInputBase)`). A star import runs the module
    like any import, yet it was no edge: three such modules were "used only by tests; delete it" (high)."""
    root = tree(tmp_path, {
        "app/registry.py": "REGISTRY = {}\n\n\ndef register(name):\n    def wrap(cls):\n        REGISTRY[name] = cls\n        return cls\n\n    return wrap\n",
        "app/nn/__init__.py": "from .modules.pooling import *\n",
        "app/nn/modules/__init__.py": "",
        "app/nn/modules/pooling.py": (
            "from app.registry import register\n\n\nclass QuantPool:\n    bits = 8\n\n    def describe(self):\n        return self.bits\n\n\n"
            "register('MaxPool2d')(QuantPool)\n"
        ),
        "app/main.py": "import sys\n\nfrom app.nn import *  # noqa: F403\nfrom app.registry import REGISTRY\n\n\nif __name__ == '__main__':\n    print(REGISTRY[sys.argv[1]]().describe())\n",
        "tests/test_pool.py": "from app.nn.modules.pooling import QuantPool\n\n\ndef test_it():\n    assert QuantPool().describe() == 8\n",
    })
    found = [f for f in lint(root, cache_dir) if f.path.startswith("app/nn/")]
    assert not found, found
