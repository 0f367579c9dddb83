"""One vocabulary: no rule spells a vendor, chip, device or tuning-project name itself, and a project extends the words.

The words live in `pylint_omni/index/vocabulary.py` with documented defaults; the rules ask it.
Message prose may say "GPU" (a string with spaces); a code string (a name, a path part, a
regular expression) never carries one of the words outside the vocabulary.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import run_pylint
from pylint_omni.index.settings import OmniSettings
from pylint_omni.index.vocabulary import (
    COLLECTIVE_LIBRARIES, DEFAULT_PLATFORM_WORDS, DEFAULT_VOCABULARY, TORCH_DEVICE_TYPES, vocabulary,
)

PACKAGE = Path(__file__).resolve().parent.parent / "pylint_omni"
VOCABULARY_MODULE = PACKAGE / "index" / "vocabulary.py"
# The projects the rules were tuned on: their names never appear in a rule either.
TUNING_PROJECTS = frozenset({"vllm_omni", "lmdeploy", "vllm_ascend", "lightllm", "xfuser", "xdit", "fastchat", "mii"})
WORDS = (frozenset(DEFAULT_PLATFORM_WORDS) | frozenset(COLLECTIVE_LIBRARIES)
         | (frozenset(TORCH_DEVICE_TYPES) - {"cpu", "meta"}) | TUNING_PROJECTS)


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def code_strings_with_words(path: Path) -> list[str]:
    """`line: word` for each code string (no white space: a name, a path part, a pattern) that holds a word."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs and not re.search(r"\s", node.value):
            for word in sorted(set(re.split(r"[^a-z0-9]+", node.value.lower())) & WORDS):
                found.append(f"{node.lineno}: {word} in {node.value[:60]!r}")
    return found


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.rglob("*.py") if p != VOCABULARY_MODULE and "__pycache__" not in p.parts),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_rule_spells_a_vendor_chip_or_tuning_project_name(path: Path) -> None:
    assert code_strings_with_words(path) == []


def test_the_words_the_check_looks_for_are_in_the_vocabulary_and_the_readme() -> None:
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    assert {"omni-platform-words", "omni-hot-path-names", "omni-cold-path-names"} <= set(re.findall(r"`(omni-[\w-]+)`", readme))
    assert "310p" in DEFAULT_PLATFORM_WORDS and DEFAULT_VOCABULARY.platform_part.search("attn_310p")
    assert code_strings_with_words(VOCABULARY_MODULE)  # the check sees them where they live


def test_a_project_extends_the_vocabulary() -> None:
    words = OmniSettings(platform_words=("mygpu",), hot_path_names=(r"tick_\w+",)).vocabulary
    assert words.is_platform("mygpu") and words.is_platform("cuda")
    assert words.platform_part.search("mygpu_attention") and not DEFAULT_VOCABULARY.platform_part.search("mygpu_attention")
    assert words.hot_name.match("tick_engine") and not DEFAULT_VOCABULARY.hot_name.match("tick_engine")
    assert vocabulary() is DEFAULT_VOCABULARY


def test_a_platform_word_of_the_project_makes_a_parallel_backend(tmp_path: Path) -> None:
    """A base with one implementation in a `mygpu/` folder beside a `cuda/` one: parallel backends only once the
    project names `mygpu` a platform (`omni-platform-words`)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/attn/__init__.py": "",
        "pkg/attn/base.py": "from abc import ABC, abstractmethod\n\n\nclass AttentionImpl(ABC):\n"
                            "    @abstractmethod\n    def forward(self, x):\n        ...\n",
        "pkg/attn/mygpu/__init__.py": "",
        "pkg/attn/mygpu/impl.py": "from pkg.attn.base import AttentionImpl\n\n\nclass MyImpl(AttentionImpl):\n"
                                  "    def forward(self, x):\n        return x\n",
        "pkg/attn/cuda/__init__.py": "",
        "pkg/attn/cuda/notes.py": "SUPPORTED = True\n",
        "pkg/main.py": "from pkg.attn.mygpu.impl import MyImpl\n\n\ndef main():\n    return MyImpl().forward(1)\n\n\n"
                       "if __name__ == '__main__':\n    main()\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    args = ["--disable=all", "--enable=single-implementation-abstraction", "--omni-include-rejected=y", "pkg"]
    _, plain, _ = run_pylint(args, cwd=tmp_path, cache_dir=tmp_path / "c1")
    _, extended, _ = run_pylint(["--omni-platform-words=mygpu", *args], cwd=tmp_path, cache_dir=tmp_path / "c2")
    assert [f.confidence for f in plain if f.path == "pkg/attn/base.py"] == ["HIGH"]
    assert [f.confidence for f in extended if f.path == "pkg/attn/base.py"] == ["UNDEFINED"]  # rejected: parallel backends
