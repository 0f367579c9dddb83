"""replaceable-infrastructure: the SiLU shape and its traps, through real pylint runs on small projects."""

from __future__ import annotations

from pathlib import Path

from conftest import enable_args, run_pylint, write_tree

SYMBOL = "replaceable-infrastructure"


def write(root: Path, files: dict[str, str]) -> Path:
    return write_tree(root, {"pyproject.toml": "[project]\nname = 'x'\ndependencies = ['torch>=2.4']\n", **files})


def lint(root: Path, cache_dir: Path) -> list[tuple[str, int, str, str]]:
    _, findings, stderr = run_pylint([*enable_args([SYMBOL]), "pkg"], cwd=root, cache_dir=cache_dir)
    assert "Traceback" not in stderr, stderr
    return [(f.path, f.line, f.confidence, f.message) for f in findings if f.symbol == SYMBOL]


def test_silu_shapes_fire_and_traps_stay_silent(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/act.py": """
            import torch


            def silu_a(x):
                return x * torch.sigmoid(x)


            def silu_b(self, x):
                return self.x.sigmoid() * self.x


            def quick_gelu(x):
                return x * torch.sigmoid(1.702 * x)


            def gated(x, gate):
                return x * torch.sigmoid(gate)


            def clamped(x):
                return x * torch.sigmoid(x.clamp(-10, 10))
        """,
    })
    found = lint(tmp_path, cache_dir)
    assert [(path, line, confidence) for path, line, confidence, _ in found] == [
        ("pkg/act.py", 5, "HIGH"), ("pkg/act.py", 9, "HIGH")]
    assert "torch.nn.functional.silu" in found[0][3] and "torch 1.7" in found[0][3]


def test_tests_and_benchmarks_are_not_audited(tmp_path: Path, cache_dir: Path) -> None:
    write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/tests/test_act.py": "import torch\n\n\ndef test_silu(x):\n    assert (x * torch.sigmoid(x)).sum()\n",
        "pkg/benchmarks/bench_act.py": "import torch\n\n\ndef run(x):\n    return x * torch.sigmoid(x)\n",
    })
    assert lint(tmp_path, cache_dir) == []
