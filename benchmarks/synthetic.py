"""A synthetic vLLM-Omni-like corpus of any size, so the benchmark needs no outside code.

`python benchmarks/synthetic.py OUT --modules 1200` writes a package `synthomni/` with
stage, worker and model modules (classes with bases, registries of every form,
tensor code, mirrored state), deploy YAML naming registry keys, docs, tests and a
pyproject.toml with scripts and entry points. Deterministic for a given size.
"""

from __future__ import annotations

import argparse
import random
import textwrap
from pathlib import Path

MODULE = '''"""Synthetic module {i} of family {family}."""

import torch

from synthomni.{family}.base_{family} import Base{Family}
from synthomni.registry import register_component


@register_component("{family}-{i}")
class {Family}Impl{i}(Base{Family}):
    """Implementation {i}."""

    def __init__(self, config, request):
        super().__init__(config)
        self.request_id = request.request_id
        self.prompt = request.prompt
        self.max_tokens = request.max_tokens
        self.cache = {{}}
        self.hits = 0

    def forward(self, x):
        y = torch.zeros_like(x).to(x.device)
        z = (x + y).cpu().numpy()
        total = 0
        for step in range(self.max_tokens):
            total += step
        self.hits += 1
        return torch.tensor(z.tolist()), total

    def lookup(self, key):
        if key not in self.cache:
            self.cache[key] = len(key)
        return self.cache[key]


TABLE_{i} = {{
    "alpha-{i}": {Family}Impl{i},
    "beta-{i}": "synthomni.{family}.mod_{i}.{Family}Impl{i}",
}}


def helper_{i}(values: list[int]) -> int:
    return sum(v * 2 for v in values if v % 3)
'''

BASE = '''"""Base class of the {family} family."""

from abc import ABC, abstractmethod


class Base{Family}(ABC):
    def __init__(self, config):
        self.config = config

    @abstractmethod
    def forward(self, x):
        raise NotImplementedError
'''

REGISTRY = '''"""Component registry."""

_COMPONENTS = {}


def register_component(name):
    def wrap(cls):
        _COMPONENTS[name] = cls
        return cls

    return wrap


def get_component(name):
    return _COMPONENTS[name]
'''


def generate(out: Path, modules: int, seed: int = 7) -> Path:
    """Write the corpus under `out` and return its root."""
    rng = random.Random(seed)
    families = ["engine", "worker", "diffusion", "connectors", "entrypoints", "models", "platforms", "config"]
    pkg = out / "synthomni"
    pkg.mkdir(parents=True, exist_ok=True)
    (out / "pyproject.toml").write_text(textwrap.dedent('''\
        [project]
        name = "synthomni"
        version = "0"
        [project.scripts]
        synth-serve = "synthomni.engine.mod_0:main"
        [project.entry-points."synthomni.plugins"]
        extra = "synthomni.connectors.mod_3:ConnectorsImpl3"
        '''))
    (pkg / "__init__.py").write_text('"""Synthetic package."""\n')
    (pkg / "registry.py").write_text(REGISTRY)
    for family in families:
        folder = pkg / family
        folder.mkdir(exist_ok=True)
        (folder / "__init__.py").write_text(f'"""{family}."""\n')
        (folder / f"base_{family}.py").write_text(BASE.format(family=family, Family=family.capitalize()))
    for i in range(modules):
        family = families[i % len(families)]
        (pkg / family / f"mod_{i}.py").write_text(MODULE.format(i=i, family=family, Family=family.capitalize()))
    deploy = out / "deploy"
    deploy.mkdir(exist_ok=True)
    for n in range(max(1, modules // 15)):
        picks = rng.sample(range(modules), k=min(5, modules))
        stages = "".join(
            f"  - name: stage{j}\n    component: {families[p % len(families)]}-{p}\n    worker_cls: synthomni.{families[p % len(families)]}.mod_{p}.{families[p % len(families)].capitalize()}Impl{p}\n"
            for j, p in enumerate(picks)
        )
        (deploy / f"deploy_{n}.yaml").write_text(f"model: synth-{n}\nstages:\n{stages}")
    docs = out / "docs"
    docs.mkdir(exist_ok=True)
    for n in range(max(1, modules // 40)):
        (docs / f"page_{n}.md").write_text(f"# Page {n}\n\nThe `alpha-{n}` component and `{families[n % 8].capitalize()}Impl{n}`.\n")
    tests = out / "tests"
    tests.mkdir(exist_ok=True)
    for n in range(max(1, modules // 20)):
        (tests / f"test_{n}.py").write_text(f"from synthomni.registry import get_component\n\n\ndef test_{n}():\n    assert get_component('beta-{n}')\n")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--modules", type=int, default=1200)
    args = parser.parse_args()
    generate(args.out, args.modules)
    print(f"wrote {args.modules} modules under {args.out}")


if __name__ == "__main__":
    main()
