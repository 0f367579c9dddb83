"""Framework conventions as data (`evidence.frameworks`): what a framework finds by its own rules stays alive.

Each row of the table is exercised: a ComfyUI node package on real pylint runs (the
table's entries and the node classes' hooks), and the other rows on the surfaces
analysis of a small project. The README lists every row.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from conftest import REPO, run_pylint
from pylint_omni.evidence.frameworks import CONVENTIONS
from pylint_omni.index.project_index import ProjectIndex
from pylint_omni.index.run_options import settings_for_root
from pylint_omni.plugin import register_scanners
from pylint_omni.surfaces.analysis import analysis_of

SYMBOLS = "unused-registry-entry,unused-surface,test-only-surface"


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"pyproject.toml": "[project]\nname = 'app'\n", **files}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


NODES = '''
class OmniLoadModel:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"path": ("STRING", {})}}

    RETURN_TYPES = ("OMNI_MODEL",)
    FUNCTION = "load_checkpoint"
    CATEGORY = "omni"

    def load_checkpoint(self, path):
        return (path,)


class OmniGenerate:
    @classmethod
    def INPUT_TYPES(cls):
        return {"required": {"model": ("OMNI_MODEL",), "prompt": ("STRING", {"multiline": True})}}

    @classmethod
    def IS_CHANGED(cls, model, prompt):
        return prompt

    RETURN_TYPES = ("IMAGE",)
    FUNCTION = "run_prompt"
    CATEGORY = "omni"

    def run_prompt(self, model, prompt):
        return (model(prompt),)
'''


def comfy_project(root: Path, table: str) -> Path:
    return write(root, {
        "app/__init__.py": "",
        "app/main.py": "def main():\n    return 0\n\n\nif __name__ == '__main__':\n    main()\n",
        "app/comfy/__init__.py": (
            "from app.comfy.nodes import OmniGenerate, OmniLoadModel\n\n"
            f"{table} = {{\n    'OmniGenerate': OmniGenerate,\n    'OmniLoadModel': OmniLoadModel,\n}}\n"
            "NODE_DISPLAY_NAME_MAPPINGS = {'OmniGenerate': 'Omni: generate', 'OmniLoadModel': 'Omni: load model'}\n"
        ),
        "app/comfy/nodes.py": NODES,
    })


def lint(root: Path, cache_dir: Path, *extra: str) -> list[tuple[str, int, str, str]]:
    _, findings, stderr = run_pylint(["--disable=all", f"--enable={SYMBOLS}", *extra, "app"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return [(f.path, f.line, f.symbol, f.message) for f in findings]


def test_a_comfyui_node_mapping_keeps_its_entries_and_the_node_classes_alive(tmp_path: Path, cache_dir: Path) -> None:
    root = comfy_project(tmp_path / "comfy", "NODE_CLASS_MAPPINGS")
    assert lint(root, cache_dir) == []
    rejected = lint(root, cache_dir, "--omni-include-rejected=y")
    assert [(path, line, symbol) for path, line, symbol, _ in rejected] == [
        ("app/comfy/__init__.py", 4, "unused-registry-entry"), ("app/comfy/__init__.py", 5, "unused-registry-entry")]
    assert all("ComfyUI custom nodes, a framework convention" in message for *_, message in rejected)
    # The same table under a name ComfyUI never reads: its entries and the nodes' hooks have no consumer.
    other = lint(comfy_project(tmp_path / "other", "MY_NODES"), cache_dir)
    assert {(path, symbol) for path, _, symbol, _ in other} == {
        ("app/comfy/__init__.py", "unused-registry-entry"), ("app/comfy/nodes.py", "unused-surface")}
    assert any("INPUT_TYPES" in message for path, _, _, message in other if path == "app/comfy/nodes.py")


def alive(root: Path, tmp_path: Path) -> dict[str, str]:
    """Surface -> why it is reached (dead surfaces are absent)."""
    register_scanners()
    index = ProjectIndex(root, replace(settings_for_root(root), cache_dir=tmp_path / "c"))
    index.refresh()
    analysis = analysis_of(index)
    return {dotted: analysis.reach.why.get(dotted, "") for dotted in analysis.table.surfaces if analysis.status(dotted) is None}


def test_each_framework_row_keeps_what_it_says(tmp_path: Path) -> None:
    root = write(tmp_path / "proj", {
        "pyproject.toml": "[project]\nname = 'app'\n[project.entry-points.pytest11]\napp = 'app.pytest_plugin'\n"
                          "[project.scripts]\napp = 'app.main:main'\n",
        "app/__init__.py": "",
        "app/main.py": "from app import apps, endpoints, serving\n\n\ndef main():\n    return apps, endpoints, serving\n",
        "app/pytest_plugin.py": "def pytest_addoption(parser):\n    parser.addoption('--x')\n\n\ndef helper():\n    return 1\n",
        "app/apps.py": "from django.apps import AppConfig\n\n\nclass ShopConfig(AppConfig):\n    name = 'app'\n\n"
                       "    def ready(self):\n        return 1\n\n    def unused(self):\n        return 2\n",
        "app/endpoints.py": "from starlette.endpoints import HTTPEndpoint\n\n\nclass Health(HTTPEndpoint):\n"
                            "    async def get(self, request):\n        return 'ok'\n",
        "app/serving.py": "from ray import serve\n\n\n@serve.deployment(num_replicas=2)\nclass Generator:\n"
                          "    def reconfigure(self, config):\n        self.config = config\n\n"
                          "    async def __call__(self, request):\n        return 1\n",
        "app/models/__init__.py": "",
        "app/models/tiny/config.json": '{"model_type": "tiny", "auto_map": {"AutoModelForCausalLM": "modeling_tiny.TinyLM"}}\n',
        "app/models/tiny/modeling_tiny.py": "class TinyLM:\n    def forward(self, x):\n        return x\n",
    })
    found = alive(root, tmp_path)
    assert found["app.pytest_plugin.pytest_addoption"].startswith("pytest plugins:")
    assert "app.pytest_plugin.helper" not in found
    assert found["app.apps.ShopConfig.ready"].startswith("Django apps:") and "app.apps.ShopConfig.unused" not in found
    assert found["app.endpoints.Health.get"].startswith("FastAPI / Starlette routes:")
    assert found["app.serving.Generator"].startswith("Ray Serve deployments:")
    assert found["app.serving.Generator.reconfigure"].startswith("Ray Serve deployments:")
    # A model folder without `__init__.py` is a folder of scripts: its module is `modeling_tiny`.
    [tiny] = [dotted for dotted in found if dotted.endswith("modeling_tiny.TinyLM")]
    assert found[tiny].startswith("Hugging Face remote code: auto_map in app/models/tiny/config.json:1")


def test_the_readme_lists_every_framework_convention() -> None:
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("### Framework conventions"):]
    for convention in CONVENTIONS:
        assert f"| {convention.name} | {convention.recognised} | {convention.keeps} |" in section, convention.name
