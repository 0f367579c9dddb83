"""The project index: every consumer kind it records, classification, cache and overrides."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from pylint_omni.evidence.consumers import ConsumerKind, consumer_kind
from pylint_omni.index.discovery import SourceFile
from pylint_omni.index.discovery import module_names
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.paths import Location, find_project_root
from pylint_omni.index.settings import OmniSettings


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


PROJECT = {
    "pyproject.toml": """
        [project]
        name = "demo"
        [project.scripts]
        demo-serve = "demo.cli:serve_main"
        [project.entry-points."demo.plugins"]
        fancy = "demo.plugins:FancyPlugin"
    """,
    "demo/__init__.py": "",
    "demo/models.py": """
        class UsedByName: ...
        class UsedByImportString: ...
        class UsedByColonPath: ...
        class UsedByGetattr: ...
        class UsedByFString: ...
        class OnlyInTests: ...
        class OnlyInDocs: ...
        class OnlyInYaml: ...
        class OnlyInJson: ...
        class OnlyInCi: ...
        class OnlyInATestCommand: ...
        class device_count: ...
    """,
    "demo/plugins.py": "class FancyPlugin: ...\n",
    "demo/cli.py": """
        import importlib
        from demo import models

        _MODELS_MODULE = "demo.models"

        def serve_main():
            a = models.UsedByName()
            b = resolve_obj_by_qualname("demo.models.UsedByImportString")
            c = load("demo.models:UsedByColonPath")
            d = getattr(models, "UsedByGetattr")
            e = locate(f"{_MODELS_MODULE}.UsedByFString")
            mod = importlib.import_module("demo.plugins")
            return a, b, c, d, e, mod
    """,
    "tests/test_models.py": "from demo.models import OnlyInTests\n\ndef test_it():\n    assert OnlyInTests\n",
    "tests/test_command.py": 'ARGS = ("--generate-path demo.models.OnlyInATestCommand "\n        "--input-key prompt --n 2")\n',
    "demo/errors.py": 'MESSAGE = "torch.npu.device_count() returned a non-positive value"\n',
    "docker/patch/router.patch": (
        "--- a/router.py\n+++ b/router.py\n@@ -1,3 +1,4 @@\n import torch\n"
        "+from demo.models import OnlyInAPatch\n-from demo.models import RemovedByAPatch\n"
    ),
    "docs/models.md": "# Models\n\nUse `OnlyInDocs` for ...\n",
    "deploy/stage.yaml": "stages:\n  - model_cls: OnlyInYaml\n    OnlyInYamlKey: 1\n",
    "configs/model_index.json": '{"_class_name": "OnlyInJson"}\n',
    ".github/workflows/ci.yml": "jobs:\n  test:\n    steps:\n      - run: python -c 'import demo; demo.OnlyInCi'\n",
}


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, ProjectIndex]:
    write(tmp_path, PROJECT)
    index = ProjectIndex(tmp_path, OmniSettings(cache_dir=tmp_path / "cache"))
    index.refresh()
    return tmp_path, index


def kinds_and_vias(index: ProjectIndex, token: str) -> set[tuple[str, str]]:
    """Each mention of `token` by how it was seen and its consumer kind, as the families classify a hit."""
    return {(consumer_kind(index, hit).value, hit.via) for hit in index.hits(token)}


def kinds(index: ProjectIndex, token: str) -> set[ConsumerKind]:
    return {consumer_kind(index, hit) for hit in index.hits(token)}


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("UsedByName", {("production", "call"), ("production", "attr")}),
        ("UsedByImportString", {("external/dynamic", "resolver"), ("production", "str")}),
        ("UsedByColonPath", {("production", "str")}),
        ("demo.models:UsedByColonPath", {("production", "str")}),
        ("UsedByGetattr", {("external/dynamic", "getattr"), ("production", "str")}),
        ("UsedByFString", {("external/dynamic", "fstr")}),
        ("demo.plugins", {("external/dynamic", "import_module"), ("external/dynamic", "entry-point:demo.plugins"),
                          ("production", "str")}),
        ("OnlyInTests", {("validation", "name"), ("validation", "import")}),
        ("OnlyInDocs", {("validation", "doc")}),
        ("OnlyInYaml", {("production", "yaml-value")}),
        ("OnlyInYamlKey", {("production", "yaml-key")}),
        ("OnlyInJson", {("production", "json")}),
        ("OnlyInCi", {("validation", "yaml-value")}),
        ("serve_main", {("production", "script")}),
        ("FancyPlugin", {("external/dynamic", "entry-point:demo.plugins")}),
        # A dotted path inside a command line held in a string (slime's tests pass generate functions so).
        ("demo.models.OnlyInATestCommand", {("validation", "str")}),
        ("demo.models", {("validation", "str"), ("production", "str"), ("external/dynamic", "fstr"), ("external/dynamic", "resolver"),
                         ("production", "script")}),
        ("device_count", set()),
        # A patch the project applies to a dependency calls what its added lines import; its removed lines do not.
        ("OnlyInAPatch", {("production", "script")}),
        ("RemovedByAPatch", set()),  # a message naming `torch.npu.device_count` uses no `device_count` of the project
    ],
)
def test_every_consumer_kind_is_recorded(project: tuple[Path, ProjectIndex], token: str, expected: set) -> None:
    _, index = project
    assert kinds_and_vias(index, token) == expected


def test_fstring_with_module_constant_prefix_is_resolved(project: tuple[Path, ProjectIndex]) -> None:
    _, index = project
    assert any(h.via == "fstr" for h in index.hits("demo.models.UsedByFString"))


def test_classification_by_glob(project: tuple[Path, ProjectIndex]) -> None:
    _, index = project
    assert index.location("demo/cli.py") is Location.PRODUCTION
    assert index.location("tests/test_models.py") is Location.VALIDATION
    assert index.location(".github/workflows/ci.yml") is Location.VALIDATION
    custom = ProjectIndex(index.root, OmniSettings(cache_dir=index.root / "cache", validation_globs=("deploy/**",)))
    custom.refresh()
    assert kinds(custom, "OnlyInYaml") == {ConsumerKind.VALIDATION}


def test_project_root_is_nearest_marker(project: tuple[Path, ProjectIndex]) -> None:
    root, _ = project
    assert find_project_root(root / "demo" / "models.py") == root


def test_warm_refresh_rereads_only_changed_files(project: tuple[Path, ProjectIndex]) -> None:
    root, index = project
    fresh = ProjectIndex(root, OmniSettings(cache_dir=root / "cache"))
    stats = fresh.refresh()
    assert stats.scanned == 0 and stats.reused == len(fresh.entries)
    (root / "demo" / "plugins.py").write_text("class FancyPlugin: ...\nclass Renamed: ...\n")
    stats = fresh.refresh()
    assert stats.scanned == 1
    assert fresh.definitions_named("Renamed")


def test_override_replaces_one_file(project: tuple[Path, ProjectIndex]) -> None:
    _, index = project
    assert kinds(index, "OnlyInDocs") == {ConsumerKind.VALIDATION}
    index.override("demo/cli.py", "from demo.models import OnlyInDocs\nx = OnlyInDocs()\n")
    assert kinds(index, "OnlyInDocs") == {ConsumerKind.PRODUCTION, ConsumerKind.VALIDATION}
    assert not index.hits("UsedByGetattr")


def test_registry_forms_are_found(tmp_path: Path) -> None:
    write(tmp_path, {
        "pyproject.toml": "[project]\nname='r'\n",
        "r/__init__.py": "",
        "r/impl.py": "class Alpha: ...\nclass Beta: ...\ndef f(): ...\n",
        "r/tables.py": """
            from enum import Enum
            from r.impl import Alpha, Beta, f

            DICT = {"a": Alpha, "b": Beta}
            TUPLES = {"a": ("impl", "Alpha"), "b": ("impl", "Beta")}
            ROWS = [("a", Alpha), ("b", Beta)]

            class Paths(Enum):
                A = "r.impl.Alpha"
                B = "r.impl:Beta"

            REG = {}
            REG["f"] = f

            @register_model("decorated")
            class C: ...

            @MODELS.register_module(name="by-keyword")
            class D: ...

            Factory.register("lazy", "r.impl", "Alpha")
            NOT_A_REGISTRY = {"x": 1, "y": 2}
        """,
    })
    index = ProjectIndex(tmp_path, OmniSettings(cache_enabled=False))
    index.refresh()
    forms = {(reg["name"], reg["form"]): [e["key"] for e in reg["entries"]] for _, reg in index.registries()}
    assert forms == {
        ("DICT", "dict"): ["a", "b"],
        ("TUPLES", "dict"): ["a", "b"],
        ("ROWS", "table"): ["a", "b"],
        ("Paths", "enum"): ["A", "B"],
        ("REG", "setitem"): ["f"],
        ("register_model", "decorator"): ["decorated"],
        ("MODELS.register_module", "decorator"): ["by-keyword"],
        ("Factory.register", "register-call"): ["lazy"],
    }
    targets = {e["key"]: index.resolve_target(e["target"], e["suffix"]) for _, reg in index.registries() for e in reg["entries"] if reg["name"] == "TUPLES"}
    assert {k: d.dotted for k, d in targets.items()} == {"a": "r.impl.Alpha", "b": "r.impl.Beta"}


def test_design_contract_front_matter_and_ownership(tmp_path: Path) -> None:
    from pylint_omni.evidence.contracts import contracts_of

    write(tmp_path, {
        "pyproject.toml": "[project]\nname='c'\n",
        "pkg/engine/core.py": "x = 1\n",
        "pkg/engine/legacy.py": "x = 1\n",
        "pkg/worker/w.py": "x = 1\n",
        "docs/design/module/engine.md": """\
            ---
            title: Engine
            status: current
            primary_code_paths: [pkg/engine/]
            primary_path_exceptions: [pkg/engine/legacy.py]
            related_code_paths: [pkg/worker]
            validation_paths: [tests/engine/]
            extension_points: [pkg.engine.core.StagePlugin]
            ---
            # Engine
            """,
        "docs/design/module/old.md": "---\ntitle: Old\nstatus: archived\nprimary_code_paths: [pkg/]\n---\n",
        "docs/design/archive/older.md": "---\ntitle: Older\nprimary_code_paths: [pkg/]\n---\n",
        "docs/design/module/broken.md": "---\ntitle: [unclosed\n---\n",
    })
    index = ProjectIndex(tmp_path, OmniSettings(cache_enabled=False))
    index.refresh()
    contracts = contracts_of(index)
    assert [c.title for c in contracts.active] == ["Engine"]
    assert {c.title for c in contracts.contracts} == {"Engine", "Old", "Older"}
    assert "malformed front matter" in contracts.problems["docs/design/module/broken.md"]
    engine = contracts.active[0]
    assert contracts.owner_of("pkg/engine/core.py") == (engine, "primary")
    assert contracts.owner_of("pkg/engine/legacy.py") is None
    assert contracts.owner_of("pkg/worker/w.py") == (engine, "related")
    assert engine.validation_paths == ("tests/engine/",)
    assert contracts.declaring_extension_point("StagePlugin") is engine


def test_a_family_scanner_runs_on_every_python_file_and_is_cached(tmp_path: Path) -> None:
    from pylint_omni.index import scanners

    (tmp_path / "pyproject.toml").write_text("[project]\nname='p'\n")
    (tmp_path / "a.py").write_text("def f():\n    return 1\n\ndef g():\n    pass\n")
    calls: list[str] = []

    def count_functions(tree, context):
        calls.append(context.relpath)
        return sum(isinstance(node, ast.FunctionDef) for node in ast.walk(tree))

    saved = scanners.python_scanners()
    scanners.register_python_scanner("test.functions", count_functions)
    try:
        settings = OmniSettings(cache_dir=tmp_path / "cache")
        index = ProjectIndex(tmp_path, settings)
        index.refresh()
        assert index.extra("a.py", "test.functions") == 2 and calls == ["a.py"]
        warm = ProjectIndex(tmp_path, settings)
        warm.refresh()
        assert warm.extra("a.py", "test.functions") == 2 and calls == ["a.py"]  # read back, not rescanned
    finally:
        scanners._PYTHON_SCANNERS.clear()
        scanners._PYTHON_SCANNERS.update(saved)


def git(root: Path, *args: str) -> None:
    import subprocess

    subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=root, check=True, capture_output=True)


def test_gitignore_is_honoured_but_tracked_files_are_always_read(tmp_path: Path) -> None:
    write(tmp_path, {
        "pyproject.toml": "[project]\nname='p'\n",
        ".gitignore": "cache/\nout/\n",
        "pkg/__init__.py": "",
        "pkg/cache/hook.py": "def tracked_hook(): ...\n",
        "pkg/sub/.gitignore": "generated_*.py\n",
        "pkg/sub/generated_table.py": "TABLE = {}\n",
        "pkg/sub/real.py": "def real(): ...\n",
    })
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".gitignore", "pyproject.toml", "pkg/__init__.py", "pkg/sub/.gitignore", "pkg/sub/real.py")
    git(tmp_path, "add", "-f", "pkg/cache/hook.py")  # tracked although `cache/` is ignored
    git(tmp_path, "commit", "-qm", "init")
    write(tmp_path, {"pkg/cache/scratch.py": "x = 1\n", "out/build.py": "y = 2\n"})
    index = ProjectIndex(tmp_path, OmniSettings(cache_enabled=False))
    index.refresh()
    assert "pkg/cache/hook.py" in index.entries and "pkg/sub/real.py" in index.entries
    assert not {"pkg/cache/scratch.py", "out/build.py", "pkg/sub/generated_table.py"} & set(index.entries)
    everything = ProjectIndex(tmp_path, OmniSettings(cache_enabled=False, respect_gitignore=False))
    everything.refresh()
    assert {"pkg/cache/scratch.py", "out/build.py", "pkg/sub/generated_table.py"} <= set(everything.entries)


def test_a_hidden_folder_git_tracks_is_read_and_a_tool_folder_is_not(tmp_path: Path) -> None:
    """`.agents/skills/*/SKILL.md` (tracked) tells operators what to call: a consumer; code beside it (a stand-in, a
    tool's script) is not the project's. `.mypy_cache/` (untracked) is a tool's; `.github/` is read either way."""
    write(tmp_path, {
        "pyproject.toml": "[project]\nname='p'\n",
        "pkg/__init__.py": "",
        ".agents/skills/reseed/SKILL.md": "Call `pkg.load_records(last_n=5)`.\n",
        ".agents/skills/reseed/stand_in.py": "def load_records(): ...\n",
        ".mypy_cache/notes.md": "pkg.load_records\n",
        ".github/workflows/ci.yml": "jobs: {}\n",
    })
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "pyproject.toml", "pkg/__init__.py", ".agents/skills/reseed/SKILL.md", ".agents/skills/reseed/stand_in.py")
    git(tmp_path, "commit", "-qm", "init")
    index = ProjectIndex(tmp_path, OmniSettings(cache_enabled=False))
    index.refresh()
    assert {".agents/skills/reseed/SKILL.md", ".github/workflows/ci.yml"} <= set(index.entries)
    assert ".mypy_cache/notes.md" not in index.entries
    assert ".agents/skills/reseed/stand_in.py" not in index.entries  # of a tracked hidden folder, only the docs


def test_globs_have_gitignore_meaning(tmp_path: Path) -> None:
    from pylint_omni.index.paths import classify_path

    globs = ("*.md", "tests/**", "docs/design/*.md")
    assert classify_path("README.md", globs) is Location.VALIDATION
    assert classify_path("pkg/notes/README.md", globs) is Location.VALIDATION  # no slash: any depth
    assert classify_path("tests/test_a.py", globs) is Location.VALIDATION
    assert classify_path("pkg/tests/test_a.py", globs) is Location.PRODUCTION  # a slash anchors it at the root
    assert classify_path("pkg/a.py", ("*.md", "!pkg/keep.md")) is Location.PRODUCTION


def test_a_cache_of_other_scanners_is_never_read(tmp_path: Path) -> None:
    from pylint_omni.index import cache, scanners

    before = cache.cache_file(tmp_path, tmp_path, ())
    saved = scanners.python_scanners()
    scanners.register_python_scanner("test.other", lambda tree, context: None)
    try:
        assert cache.cache_file(tmp_path, tmp_path, ()) != before
    finally:
        scanners._PYTHON_SCANNERS.clear()
        scanners._PYTHON_SCANNERS.update(saved)


def test_pruning_removes_stale_and_least_recently_used_caches(tmp_path: Path) -> None:
    import os
    import time

    from pylint_omni.index import cache

    folder = tmp_path / "cache"
    folder.mkdir()
    old, recent, current = (folder / f"index-{n}.json" for n in ("old", "recent", "current"))
    for path in (old, recent, current):
        path.write_text("x" * 1000)
    (folder / "notes.txt").write_text("not ours")
    os.utime(old, (time.time() - 40 * 86400,) * 2)
    os.utime(recent, (time.time() - 60,) * 2)
    assert cache.prune(folder, keep=current, max_bytes=10_000) == [old]
    assert cache.prune(folder, keep=current, max_bytes=1500) == [recent]  # over the cap: least recently used first
    assert sorted(p.name for p in folder.iterdir()) == ["index-current.json", "notes.txt"]


def test_the_test_suite_never_writes_the_users_cache() -> None:
    import os
    import tempfile

    assert os.environ["PYLINT_OMNI_CACHE_DIR"].startswith(tempfile.gettempdir())


def test_a_namespace_folder_inside_a_package_keeps_the_package_name(tmp_path: Path) -> None:
    """PEP 420: `pkg/vendored/activation/torch/__init__.py` (no `__init__.py` in `vendored/` or `activation/`) is
    `pkg.vendored.activation.torch`, so it never shadows the installed `torch` a guarded import names."""
    relpaths = ["pkg/__init__.py", "pkg/vendored/activation/torch/__init__.py", "pkg/vendored/activation/torch/resample.py",
                "scripts/tool.py", "lib/__init__.py", "lib/util.py"]
    files = [SourceFile(relpath, "python", 0, 0) for relpath in relpaths]
    names = module_names(files)
    assert names["pkg/vendored/activation/torch/__init__.py"] == "pkg.vendored.activation.torch"
    assert names["pkg/vendored/activation/torch/resample.py"] == "pkg.vendored.activation.torch.resample"
    assert names["scripts/tool.py"] == "tool"  # a folder outside any package is a source root of its own
    assert names["lib/util.py"] == "lib.util"


def test_a_setup_module_inside_a_package_is_no_project_root(tmp_path: Path, cache_dir: Path) -> None:
    """NeMo RL (round 16): `nemo_rl/models/megatron/setup.py` is a module of the package, not a build script; taking
    its folder for a project root split the project in two, so the fields read in the main part looked unread and
    findings carried paths like `setup.py:97`. A folder without `__init__.py` holding `setup.py` is still a root."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'rl'\n")
    (tmp_path / "rl" / "models" / "megatron").mkdir(parents=True)
    for folder in ("rl", "rl/models", "rl/models/megatron"):
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "rl" / "models" / "megatron" / "setup.py").write_text("def build():\n    return 1\n")
    (tmp_path / "tools" / "legacy").mkdir(parents=True)
    (tmp_path / "tools" / "legacy" / "setup.py").write_text("from setuptools import setup\nsetup()\n")
    assert find_project_root(tmp_path / "rl" / "models" / "megatron" / "setup.py") == tmp_path.resolve()
    assert find_project_root(tmp_path / "tools" / "legacy" / "setup.py") == (tmp_path / "tools" / "legacy").resolve()
