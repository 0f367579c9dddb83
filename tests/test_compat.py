"""dead-compat-branch: declarations, floors, the evaluation, and real pylint runs on small projects."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from conftest import enable_args, run_pylint, write_tree
from pylint_omni.index.declarations import read_declarations
from pylint_omni.compat.evaluate import decide
from pylint_omni.compat.platforms import declared_platforms, platform_doubt
from pylint_omni.compat.support import Floor, floor_of_specifiers

SYMBOL = "dead-compat-branch"



def lint(root: Path, cache_dir: Path, *extra: str) -> list[tuple[str, int, str]]:
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), *extra, "pkg"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return [(f.path, f.line, f.confidence) for f in findings if f.symbol == SYMBOL]


def test_declarations_from_every_kind_of_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "pyproject.toml": """
            [project]
            name = "x"
            requires-python = ">=3.10"
            dependencies = ["torch>=2.4", "numpy; sys_platform == 'linux'"]
            [project.optional-dependencies]
            audio = ["soundfile>=0.12"]
        """,
        "setup.py": """
            from setuptools import setup
            REQS = ["pyyaml>=6"]
            setup(name="x", install_requires=REQS, python_requires=">=3.9")
            open("EXECUTED", "w").write_tree("setup.py must never run")
        """,
        "setup.cfg": "[options]\ninstall_requires =\n    msgpack>=1.0\n",
        "requirements.txt": "# runtime\n-r requirements/common.txt\nregex  # a comment\n",
        "requirements/common.txt": "einops>=0.6\n",
        "requirements-dev.txt": "pytest\n",
    })
    found = read_declarations(tmp_path)
    assert {d.spec for d in found.python} == {">=3.10", ">=3.9"}
    assert [d.source for d in found.hard("torch")] == ["pyproject.toml:4"]
    assert not found.hard("numpy") and found.of("numpy")[0].conditional  # an environment marker
    assert not found.hard("soundfile") and found.of("soundfile")[0].optional  # an extra
    assert found.hard("pyyaml") and found.hard("msgpack") and found.hard("regex")
    assert found.hard("einops")[0].origin == "requirements.txt"  # through the -r include
    assert not found.of("pytest")  # development requirements are not runtime
    assert not (tmp_path / "EXECUTED").exists()


def test_computed_install_requires_names_alternative_files(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "setup.py": """
            from setuptools import setup
            def reqs(path): return []
            setup(name="x", install_requires=reqs(f"requirements/runtime_{device()}.txt"),
                  extras_require={"serve": reqs("requirements/serve.txt")})
        """,
        "requirements/runtime_cuda.txt": "-r common.txt\ntriton>=3.0\n",
        "requirements/runtime_ascend.txt": "-r common.txt\ntorch-npu>=2.1\n",
        "requirements/common.txt": "ray\n",
        "requirements/serve.txt": "timm\n",
    })
    found = read_declarations(tmp_path)
    assert found.hard("ray")  # every alternative installs it
    assert not found.hard("triton") and not found.hard("torch-npu")  # one device only
    assert not found.hard("timm") and found.of("timm")[0].optional  # an extra named by setup.py


def test_extras_built_in_a_variable_before_setup_are_extras(tmp_path: Path) -> None:
    """`extras["eval"], _ = parse("requirements/eval.txt")` then `setup(extras_require=extras)`: eval.txt is an
    extra's file, so what it lists is optional (an ImportError guard around it is no dead branch)."""
    write_tree(tmp_path, {
        "setup.py": """
            from setuptools import setup
            def parse(path): return [], []
            install, _ = parse("requirements.txt")
            extras = {}
            extras["eval"], _ = parse("requirements/eval.txt")
            setup(name="x", install_requires=install, extras_require=extras)
        """,
        "requirements.txt": "-r requirements/framework.txt\n",
        "requirements/framework.txt": "transformers>=4.33\n",
        "requirements/eval.txt": "evalscope>=1.0.0\n",
    })
    found = read_declarations(tmp_path)
    assert found.hard("transformers")
    assert not found.hard("evalscope") and found.of("evalscope")[0].optional


def test_floors_and_decisions() -> None:
    assert floor_of_specifiers(SpecifierSet(">=2.4,<3")) == (Version("2.4"), True, False)
    assert floor_of_specifiers(SpecifierSet("==2.9.0")) == (Version("2.9.0"), True, True)
    assert floor_of_specifiers(SpecifierSet("<3")) is None
    floor = Floor(Version("2.4.1"), True, False, "`torch>=2.4.1`", "high")
    assert decide("<", "2.0", floor, False, False) is False
    assert decide(">=", "2.4.1", floor, False, False) is True
    assert decide("<", "2.6", floor, False, False) is None  # inside the range
    assert decide("==", "3.0", floor, False, False) is None  # a newer version: not the past
    assert decide(">=", "2.1", floor, True, False) is None  # text comparison under a range
    exact = Floor(Version("2.6.0"), True, True, "`torch==2.6.0`", "high")
    assert decide(">=", "2.1.0", exact, True, False) is True
    # An exact pin is one environment, not a ceiling: a check for a newer exact version stays open (ChatLearn's
    # `ray.__version__ == '2.46.0'` under `ray==2.32.0`); text order that disagrees with version order decides nothing.
    ray = Floor(Version("2.32.0"), True, True, "`ray==2.32.0`", "high")
    assert decide("==", "2.46.0", ray, True, False) is None
    assert decide("==", "2.11.0", ray, True, False) is False
    assert decide("<", "2.100.0", ray, True, False) is None  # "2.32.0" < "2.100.0" is False as text, True as versions


def test_dead_branches_and_traps_on_a_real_run(tmp_path: Path, cache_dir: Path) -> None:
    root = write_tree(tmp_path, {
        "pyproject.toml": """
            [project]
            name = "pkg"
            requires-python = ">=3.10"
            dependencies = ["torch>=2.4", "pyyaml"]
            [project.optional-dependencies]
            audio = ["soundfile"]
        """,
        "pkg/__init__.py": "",
        "pkg/helpers.py": """
            import torch
            from packaging import version

            def torch_at_least(minimum):
                return version.parse(torch.__version__) >= version.parse(minimum)
        """,
        "pkg/main.py": """
            import sys
            import torch
            from pkg.helpers import torch_at_least
            try:
                import yaml
            except ImportError:
                yaml = None
            try:
                import soundfile
            except ImportError:
                soundfile = None
            try:
                from typing import Self
            except ImportError:
                Self = object
            if sys.version_info < (3, 8):
                OLD = True
            def mode():
                if not torch_at_least("2.0"):
                    return "eager"
                if torch_at_least("2.6"):
                    return "fast"
                return "default"
        """,
    })
    assert lint(root, cache_dir) == [("pkg/main.py", 6, "HIGH"), ("pkg/main.py", 16, "HIGH"), ("pkg/main.py", 19, "HIGH")]


# A framework (an unpacked wheel in an upstream path) whose dist-info pins torch, and a torch check the pin decides.
ENGINE_PINS_TORCH = {
    "upstream/engine-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: engine\nVersion: 1.0\nRequires-Dist: torch==2.5.1\n",
    "upstream/engine/__init__.py": "",
    "pkg/__init__.py": "import engine\n",
    "pkg/gate.py": """
            import torch
            from packaging.version import Version
            OLD = Version(torch.__version__) < Version("2.1")
            def f():
                if OLD:
                    return 1
                return 2
    """,
}


def test_undeclared_runtime_from_metadata_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    root = write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'pkg'\nrequires-python = '>=3.10'\n",
        **ENGINE_PINS_TORCH,
    })
    outside = "--omni-exclude-globs=upstream/**"
    assert lint(root, cache_dir, outside) == []  # no declaration, no metadata: nothing is known
    # The project runs on engine (an unpacked wheel in an upstream path): its dist-info pins torch.
    args = [outside, "--omni-upstream-paths=upstream"]
    assert lint(root, cache_dir, *args) == [("pkg/gate.py", 5, "INFERENCE")]
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), *args, "pkg"], cwd=root, cache_dir=cache_dir)
    assert "engine 1.0" in findings[0].message and "torch==2.5.1" in findings[0].message


def test_an_imported_framework_the_project_declares_only_as_an_extra_binds_no_floor(tmp_path: Path, cache_dir: Path) -> None:
    """TRL imports vllm, declared only by its `vllm` extra: vllm's pin of torch binds who installs the extra, not the
    rest, who may run an older torch, so the torch check stays live. Undeclared, the same import binds (above)."""
    root = write_tree(tmp_path, {
        "pyproject.toml": ("[project]\nname = 'pkg'\nrequires-python = '>=3.10'\n"
                           "[project.optional-dependencies]\nengine = ['engine>=1.0']\n"),
        **ENGINE_PINS_TORCH,
    })
    assert lint(root, cache_dir, "--omni-exclude-globs=upstream/**", "--omni-upstream-paths=upstream") == []


def test_bad_declarations_cost_nothing(tmp_path: Path, cache_dir: Path) -> None:
    root = write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'pkg'\nrequires-python = 3\ndependencies = 5\n[project.optional-dependencies]\nx = 'y'\n",
        "setup.py": "setup(install_requires=[",
        "setup.cfg": "[options\ninstall_requires = ???",
        "requirements.txt": "torch>=2.4\n::: not a requirement :::\n",
        "pkg/__init__.py": "",
        "pkg/m.py": """
            import torch
            from packaging import version
            if version.parse(torch.__version__) < version.parse("2.0"):
                X = 1
        """,
    })
    assert lint(root, cache_dir) == [("pkg/m.py", 3, "HIGH")]


def test_feature_probes_need_one_allowed_version_and_its_source(tmp_path: Path, cache_dir: Path) -> None:
    root = write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'pkg'\nrequires-python = '>=3.10'\ndependencies = ['eng==1.2']\n",
        "src/eng/__init__.py": "from eng.fast import *\n",
        "src/eng/fast.py": "def fast_path():\n    return 1\n",
        "src/eng-1.2.dist-info/METADATA": "Metadata-Version: 2.1\nName: eng\nVersion: 1.2\n",
        "pkg/__init__.py": "",
        "pkg/probe.py": """
            import eng
            import torch
            def pick():
                if hasattr(eng, "fast_path"):
                    return eng.fast_path
                if hasattr(eng, "future_path"):
                    return None
                if hasattr(torch, "npu"):
                    return None
                return None
        """,
    })
    args = ["--omni-upstream-paths=src", "--omni-exclude-globs=src/**"]
    assert lint(root, cache_dir, *args) == [("pkg/probe.py", 4, "HIGH")]  # declared `==` pin; its source defines it (a star import)
    assert lint(root, cache_dir) == []  # no source: nothing is known
    (root / "src/eng-1.2.dist-info/METADATA").write_text("Metadata-Version: 2.1\nName: eng\nVersion: 1.3\n")
    assert lint(root, cache_dir, *args) == []  # the indexed source is another version than the one allowed


def test_probes_of_torch_need_its_source_at_the_pinned_version(tmp_path: Path, cache_dir: Path) -> None:
    root = write_tree(tmp_path, {
        "pyproject.toml": "[project]\nname = 'pkg'\nrequires-python = '>=3.10'\n",
        "up/engine-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: engine\nVersion: 1.0\nRequires-Dist: torch==2.9.0\n",
        "up/engine/__init__.py": "",
        "up/torch/__init__.py": "from torch import compiler\ndef compile(model):\n    return model\n",
        "up/torch/compiler.py": "",
        "pkg/__init__.py": "import engine\n",
        "pkg/speed.py": """
            import torch
            def wrap(model):
                if hasattr(torch, "compile"):
                    return torch.compile(model)
                if hasattr(torch, "compiled_autograd_v2"):
                    return None
                return model
        """,
    })
    args = ["--omni-upstream-paths=up", "--omni-exclude-globs=up/**"]
    assert lint(root, cache_dir, *args) == []  # engine pins torch==2.9.0; the indexed torch source has no version
    write_tree(root, {"up/torch-2.9.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: torch\nVersion: 2.9.0\n"})
    assert lint(root, cache_dir, *args) == [("pkg/speed.py", 3, "INFERENCE")]  # the pinned torch's own source defines it


PLATFORM_MODULE = """
    try:
        import fcntl
    except ImportError:
        fcntl = None
    try:
        import lzma
    except ImportError:
        lzma = None
    try:
        import json
    except ImportError:
        json = None
"""


@pytest.mark.parametrize("classifiers, fcntl_dead, cited", [
    ([], False, "declares no platform"),
    (["Operating System :: OS Independent"], False, "`Operating System :: OS Independent` (pyproject.toml:5)"),
    (["Operating System :: POSIX :: Linux", "Programming Language :: Python :: 3"], True,
     "`Operating System :: POSIX :: Linux` (pyproject.toml:5)"),
    (["Operating System :: POSIX :: Linux", "Operating System :: Microsoft :: Windows"], False,
     "`Operating System :: Microsoft :: Windows` (pyproject.toml:6)"),
])
def test_a_platform_only_fallback_is_dead_only_when_the_platforms_are_declared(
        tmp_path: Path, cache_dir: Path, classifiers: list[str], fcntl_dead: bool, cited: str) -> None:
    listed = "".join(f"    {c!r},\n" for c in classifiers)
    root = write_tree(tmp_path, {
        "pyproject.toml": f"[project]\nname = 'pkg'\nrequires-python = '>=3.10'\nclassifiers = [\n{listed}]\n",
        "pkg/__init__.py": "",
        "pkg/locks.py": PLATFORM_MODULE,
    })
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), "--omni-include-rejected=y", "pkg"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    by_line = {f.line: f for f in findings}
    assert by_line[11].confidence == "HIGH"  # json: everywhere
    fcntl = by_line[3]
    assert (fcntl.confidence == "HIGH") is fcntl_dead and cited in fcntl.message, fcntl.message
    if fcntl_dead:
        assert "(fcntl is POSIX-only and the project declares POSIX only: `Operating System :: POSIX :: Linux`" in fcntl.message
    else:
        assert fcntl.confidence == "UNDEFINED" and "(rejected: fcntl is POSIX-only and the project declares " in fcntl.message
    # A module a Python build may leave out is never guaranteed, whatever the platforms.
    assert by_line[7].confidence == "UNDEFINED" and "lzma is left out of Python builds" in by_line[7].message
    assert lint(root, cache_dir) == ([("pkg/locks.py", 3, "HIGH")] if fcntl_dead else []) + [("pkg/locks.py", 11, "HIGH")]


def test_platform_classifiers_from_setup_py_and_setup_cfg(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "setup.py": "from setuptools import setup\nsetup(name='x', classifiers=[\n    'Operating System :: POSIX :: Linux',\n])\n",
        "setup.cfg": "[metadata]\nclassifiers =\n    Operating System :: MacOS\n",
    })
    found = read_declarations(tmp_path)
    assert found.classifiers == (("Operating System :: POSIX :: Linux", "setup.py:3"), ("Operating System :: MacOS", "setup.cfg:3"))
    assert declared_platforms(found.classifiers).platforms == frozenset({"linux", "macos"})
    assert platform_doubt("fcntl", declared_platforms(found.classifiers)) == ""
    assert "winreg is Windows-only and the project declares `Operating System :: POSIX :: Linux` (setup.py:3)" == \
        platform_doubt("winreg", declared_platforms(found.classifiers))


def test_extras_floors_and_guards_that_call_what_they_import_are_medium(tmp_path: Path, cache_dir: Path) -> None:
    """A version check below the floor every extra declares is dead for installs through the project (medium: a
    hand-installed older copy is not bounded); a check above that floor stays. A guard whose body also calls what
    it imported is dead too, but that call could raise ImportError itself: medium."""
    root = write_tree(tmp_path, {
        "pyproject.toml": """
            [project]
            name = "pkg"
            requires-python = ">=3.10"
            dependencies = ["setproctitle"]
            [project.optional-dependencies]
            llama = ["xllamacpp>=0.2.0"]
        """,
        "pkg/__init__.py": "",
        "pkg/engine.py": """
            from packaging import version


            def load():
                from xllamacpp import __version__

                if version.parse(__version__) < version.parse("0.2.0"):
                    raise RuntimeError("update xllamacpp")
                if version.parse(__version__) < version.parse("0.2.2"):
                    raise RuntimeError("update xllamacpp for reranking")


            def title():
                try:
                    import setproctitle

                    setproctitle.setproctitle("model")
                except ImportError:
                    pass
        """,
    })
    assert lint(root, cache_dir) == [("pkg/engine.py", 7, "INFERENCE"), ("pkg/engine.py", 18, "INFERENCE")]  # 18: the handler


def test_a_fallback_around_an_import_that_loads_a_system_library_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """opencv-python is a hard dependency, yet `import cv2` fails on a headless host without libGL: the fallback runs
    there, so it is medium, never high. The same guard around a pure-Python hard dependency stays high."""
    root = write_tree(tmp_path, {
        "pyproject.toml": ("[project]\nname = 'pkg'\nrequires-python = '>=3.10'\n"
                           "dependencies = ['opencv-python>=4.10', 'pyyaml>=6']\n"),
        "pkg/__init__.py": "",
        "pkg/video.py": """
            try:
                import cv2
            except ImportError:
                cv2 = None

            try:
                import yaml
            except ImportError:
                yaml = None
        """,
    })
    found = lint(root, cache_dir)
    assert found == [("pkg/video.py", 3, "INFERENCE"), ("pkg/video.py", 8, "HIGH")], found


def test_an_always_true_check_whose_body_is_the_old_version_fallback_is_said_inverted(tmp_path: Path, cache_dir: Path) -> None:
    """GPTQModel's `optimize()`: `if TORCH_HAS_COMPILE:` (always true under `torch>=2.8`) warns "you need torch >= 2.6"
    and returns, so the compile loop after it never runs (a lost feature since a cleanup inverted the guard). "Drop the
    check and keep its body" would make that permanent; the finding says the code after it never runs. A check
    whose body does the feature keeps "drop the check"."""
    root = write_tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "pkg"\nrequires-python = ">=3.10"\ndependencies = ["torch>=2.8"]\n',
        "pkg/__init__.py": "",
        "pkg/model.py": """
            import logging
            import torch
            from packaging.version import Version
            TORCH_HAS_COMPILE = Version(torch.__version__) >= Version("2.6")
            log = logging.getLogger(__name__)

            def optimize(modules):
                if TORCH_HAS_COMPILE:
                    log.warning("To use compile(), you need torch version >= 2.6.0, please upgrade it")
                    return modules
                return [torch.compile(m) for m in modules]

            def fast(modules):
                if TORCH_HAS_COMPILE:
                    modules = [torch.compile(m) for m in modules]
                return modules
        """,
    })
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=root, cache_dir=cache_dir)
    by_line = {f.line: f.message for f in findings if f.symbol == SYMBOL}
    assert "the code after it never runs" in by_line[8] and "inverted" in by_line[8], by_line
    assert "drop the check and keep its body" in by_line[14], by_line


def test_the_checks_of_one_module_flag_are_one_change(tmp_path: Path, cache_dir: Path) -> None:
    """nanotron's `distributed.py` tests `torch_version_above_1_13` (always true under `torch>=1.13.1`) four times:
    one change (the flag and its dead branches) at the first check, naming every line; one message per check with
    `omni-granularity=member`. A check of another test stays its own."""
    root = write_tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "pkg"\nrequires-python = ">=3.10"\ndependencies = ["torch>=1.13.1"]\n',
        "pkg/__init__.py": "",
        "pkg/dist.py": """
            import torch
            from packaging.version import Version
            torch_version_above_1_13 = Version(torch.__version__) >= Version("1.13.0")
            Work = torch.Work if torch_version_above_1_13 else torch._Work

            def gather(x):
                if torch_version_above_1_13:
                    return x + 1
                else:
                    return x - 1

            def scatter(x):
                if not torch_version_above_1_13:
                    x = x * 2
                return x

            def reduce(x):
                if Version(torch.__version__) < Version("1.9"):
                    return 0
                return x
        """,
    })
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=root, cache_dir=cache_dir)
    by_line = {f.line: f.message for f in findings if f.symbol == SYMBOL}
    assert sorted(by_line) == [4, 18], by_line
    assert "`torch_version_above_1_13` is always True on every supported version, and 3 checks of it (lines 4, 7, 13)" in by_line[4]
    _, members, _ = run_pylint([*enable_args([SYMBOL]), "--omni-granularity=member", "pkg"], cwd=root, cache_dir=cache_dir)
    assert sorted(f.line for f in members if f.symbol == SYMBOL) == [4, 7, 13, 18]


def test_a_check_inside_a_branch_that_never_runs_goes_with_it(tmp_path: Path, cache_dir: Path) -> None:
    """LLM Foundry: `if gte('4.38'): ... elif gte('4.36'): ... else: ...` under `transformers>=4.51`. The `if` is
    always true, so the `elif` and the `else` never run: one finding at the `if`. Judged alone, the `elif` would say
    "keep its body unconditional", applying the rotary embedding twice."""
    root = write_tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "pkg"\nrequires-python = ">=3.10"\ndependencies = ["transformers>=4.51"]\n',
        "pkg/__init__.py": "",
        "pkg/rope.py": """
            import transformers
            from packaging.version import Version

            def gte(v):
                return Version(transformers.__version__) >= Version(v)

            def apply(q):
                if Version(transformers.__version__) >= Version("4.38"):
                    q = q + 1
                elif Version(transformers.__version__) >= Version("4.36"):
                    q = q + 2
                else:
                    q = q + 3
                return q
        """,
    })
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=root, cache_dir=cache_dir)
    by_line = {f.line: f.message for f in findings if f.symbol == SYMBOL}
    assert list(by_line) == [8], by_line
    assert "lines 10-13 never run" in by_line[8], by_line


def test_a_check_that_refuses_an_unsupported_version_is_medium(tmp_path: Path, cache_dir: Path) -> None:
    """ChatLearn's log monitor: `if ray.__version__ < '2.11.0': raise ValueError(...)` never fires on a supported
    install, but it is what stops a hand-installed older ray with a clear error: medium, saying so. A plain branch
    for the same old version stays high."""
    root = write_tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "pkg"\ndependencies = ["torch>=2.4"]\n',
        "pkg/__init__.py": "",
        "pkg/monitor.py": """
            import torch
            from packaging import version


            def check():
                if version.parse(torch.__version__) < version.parse("2.0"):
                    raise ValueError("torch 2.0 or newer is required")
                return 1


            def scale():
                if version.parse(torch.__version__) < version.parse("2.0"):
                    return 2
                return 1
        """,
    })
    _, findings, _ = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=root, cache_dir=cache_dir)
    by_line = {f.line: f for f in findings if f.symbol == SYMBOL}
    assert by_line[6].confidence == "INFERENCE", by_line
    assert "keep it to refuse a hand-installed older version with a clear error" in by_line[6].message, by_line[6].message
    assert by_line[12].confidence == "HIGH", by_line
