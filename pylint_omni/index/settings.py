"""The options every part of pylint-omni reads, with defaults for a vLLM-Omni-like layout.

One frozen value object, built from pylint's parsed options, so that the index, the
evidence rules and the command line all see the same settings.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pylint_omni.index.vocabulary import Vocabulary, vocabulary

DEFAULT_VALIDATION_GLOBS: tuple[str, ...] = (
    "tests/**",
    "test/**",
    "**/tests/**",
    "**/test_*.py",
    "**/*_test.py",
    "**/conftest.py",
    "benchmarks/**",
    "examples/**",
    "docs/**",
    "*.md",
    "*.rst",
    ".buildkite/**",
    ".github/**",
    ".gitlab-ci.yml",
    "tools/**",
    "scripts/**",
)
DEFAULT_EXCLUDE_GLOBS: tuple[str, ...] = (
    ".git/**",
    "**/.git/**",
    "**/__pycache__/**",
    "**/node_modules/**",
    "**/.venv/**",
    "**/venv/**",
    "**/.tox/**",
    "**/build/**",
    "**/dist/**",
    "**/*.egg-info/**",
    "**/site-packages/**",
)
# Hugging Face style names: the consumer lives in model repositories (config.json
# `architectures`, model_index.json `_class_name`), which this repo cannot see.
DEFAULT_EXTERNAL_KEY_PATTERNS: tuple[str, ...] = (
    "*ForCausalLM",
    "*ForConditionalGeneration",
    "*ForSequenceClassification",
    "*ForSpeechSeq2Seq",
    "*ForTextToSpeech",
    "*Pipeline",
    "*Model",
    "*Transformer2DModel",
    "*Transformer3DModel",
)
DEFAULT_MAX_FILE_BYTES = 2_000_000
DEFAULT_COPY_MIN_STATEMENTS = 5  # smaller copies are too small to be worth sharing
# Upstream packages project code is compared with for reimplementations (vLLM's own model
# files port Hugging Face code on purpose: comparing with transformers is noise).
DEFAULT_REIMPLEMENTATION_UPSTREAMS: tuple[str, ...] = ("vllm",)
# Packages a serving project extends and overrides; indexed when the project imports
# them and they are installed (torch is too large to index by default).
DEFAULT_UPSTREAM_PACKAGES: tuple[str, ...] = ("vllm", "diffusers", "transformers")
# `n` in the environment: no run started there reads the distributions installed beside pylint (a test suite, a CI job
# that must give the same findings on any machine), whatever `omni-upstream-installed` says.
UPSTREAM_INSTALLED_ENV = "PYLINT_OMNI_UPSTREAM_INSTALLED"


def installed_allowed() -> bool:
    """Whether the environment lets a run read the installed distributions (`PYLINT_OMNI_UPSTREAM_INSTALLED`)."""
    return os.environ.get(UPSTREAM_INSTALLED_ENV, "y").strip().lower() not in ("n", "no", "0", "false")


@dataclass(frozen=True)
class OmniSettings:
    """Resolved pylint-omni options (the `omni-*` options of pylint)."""

    root: Path | None = None
    validation_globs: tuple[str, ...] = DEFAULT_VALIDATION_GLOBS
    production_globs: tuple[str, ...] = ()
    exclude_globs: tuple[str, ...] = DEFAULT_EXCLUDE_GLOBS
    external_key_patterns: tuple[str, ...] = DEFAULT_EXTERNAL_KEY_PATTERNS
    cache_dir: Path | None = None
    cache_enabled: bool = True
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    include_rejected: bool = False
    copy_min_statements: int = DEFAULT_COPY_MIN_STATEMENTS
    reimplementation_upstreams: tuple[str, ...] = DEFAULT_REIMPLEMENTATION_UPSTREAMS
    respect_gitignore: bool = True
    baseline: Path | None = None  # known findings by id: emitted no more (evidence.baseline)
    external_roots: tuple[str, ...] = ()  # other checkouts (folders) or installed distributions (names)
    report_by: str = "contract"  # how the Markdown report groups candidates: contract | owner
    granularity: str = "candidate"  # one message per change set (candidate) or per member (`pylint_omni.changes`)
    platform_words: tuple[str, ...] = ()  # added to the vocabulary's platforms (`index.vocabulary`)
    hot_path_names: tuple[str, ...] = ()  # added to its hot-path names
    cold_path_names: tuple[str, ...] = ()  # added to its cold-path names
    upstream_packages: tuple[str, ...] = DEFAULT_UPSTREAM_PACKAGES
    upstream_paths: tuple[str, ...] = ()
    # Upstream sources and the metadata of what the project runs on may come from the distributions installed where
    # pylint runs (else only from `upstream_paths`).
    upstream_installed: bool = field(default_factory=installed_allowed)
    extra_roots: tuple[str, ...] = ()  # globs of paths or patterns of dotted names that are production roots

    @property
    def vocabulary(self) -> Vocabulary:
        """The words the rules know, the project's own added to the defaults."""
        return vocabulary(self.platform_words, self.hot_path_names, self.cold_path_names)

    def cache_key(self) -> tuple[Any, ...]:
        """What makes two indexes of one root differ (the options that change what is scanned)."""
        return (
            self.validation_globs,
            self.production_globs,
            self.exclude_globs,
            self.max_file_bytes,
            self.respect_gitignore,
        )
