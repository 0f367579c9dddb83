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
    "**/test/**",
    "**/*_tests/**",  # `unit_tests/`, `integration_tests/` inside a package (TorchServe's mock contexts)
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
PER_CANDIDATE, PER_MEMBER = "candidate", "member"  # `omni-granularity`: one message per change, or per member
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
    granularity: str = PER_CANDIDATE  # one message per change set (candidate) or per member (`pylint_omni.changes`)
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
    def per_member(self) -> bool:
        """`omni-granularity=member`: one message per member of a change (an editor's view), none folded."""
        return self.granularity == PER_MEMBER

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


# The `omni-*` options as pylint declares them (`pylint_omni.options` adds the keep list and reads them).
OPTION_DECLARATIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("omni-root", {"type": "string", "default": "", "metavar": "<dir>",
                   "help": "Project root for the index (default: nearest folder with pyproject.toml, setup.py or .git above the linted file)."}),
    ("omni-validation-globs", {"type": "csv", "default": DEFAULT_VALIDATION_GLOBS, "metavar": "<globs>",
                               "help": "Root-relative globs of validation/support files (tests, benchmarks, examples, docs, CI, tools)."}),
    ("omni-production-globs", {"type": "csv", "default": (), "metavar": "<globs>",
                               "help": "Globs that are production even when a validation glob matches (e.g. a deploy folder under examples/)."}),
    ("omni-exclude-globs", {"type": "csv", "default": DEFAULT_EXCLUDE_GLOBS, "metavar": "<globs>",
                            "help": "Globs the index never reads."}),
    ("omni-external-key-patterns", {"type": "csv", "default": DEFAULT_EXTERNAL_KEY_PATTERNS, "metavar": "<patterns>",
                                    "help": "Name patterns of keys chosen by outside data (model checkpoints): never high confidence."}),
    ("omni-cache-dir", {"type": "string", "default": "", "metavar": "<dir>",
                        "help": "Where the index cache lives (default $PYLINT_OMNI_CACHE_DIR, else the user cache folder: ~/.cache/pylint-omni on Linux)."}),
    ("omni-cache", {"type": "yn", "default": True, "metavar": "<y or n>", "help": "Cache per-file facts on disk."}),
    ("omni-max-file-bytes", {"type": "int", "default": DEFAULT_MAX_FILE_BYTES, "metavar": "<bytes>",
                             "help": "Files larger than this are skipped with a message."}),
    ("omni-respect-gitignore", {"type": "yn", "default": True, "metavar": "<y or n>",
                                "help": "Skip what the project's .gitignore files exclude (files git tracks are always read)."}),
    ("omni-upstream-packages", {"type": "csv", "default": DEFAULT_UPSTREAM_PACKAGES, "metavar": "<names>",
                                "help": "Upstream packages read from their installed source (never imported) when the project imports them: what they read, call and define is evidence."}),
    ("omni-upstream-paths", {"type": "csv", "default": (), "metavar": "<dirs>",
                             "help": "Extra folders holding upstream package sources (an unpacked wheel, e.g. /tmp/upstream/vllm-0.12.0); relative paths start at the project root."}),
    ("omni-upstream-installed", {"type": "yn", "default": True, "metavar": "<y or n>",
                                 "help": "Also read upstream packages and the versions the project runs on from the distributions "
                                         "installed where pylint runs (n: only from omni-upstream-paths, so that the findings do "
                                         "not depend on what is installed; PYLINT_OMNI_UPSTREAM_INSTALLED=n in the environment "
                                         "does so for every run started there)."}),
    ("omni-extra-roots", {"type": "csv", "default": (), "metavar": "<globs or dotted patterns>",
                          "help": "Extra production roots for unused-surface and test-only-surface, like knip's entry: globs of "
                                  "root-relative paths (every definition of a matching file is used) or patterns of dotted "
                                  "names (`pkg.plugins.*`) loaded from outside the repository."}),
    ("omni-include-rejected", {"type": "yn", "default": False, "metavar": "<y or n>",
                               "help": "Also emit findings the evidence rejected (confidence UNDEFINED), for the audit report."}),
    ("omni-copy-min-statements", {"type": "int", "default": DEFAULT_COPY_MIN_STATEMENTS, "metavar": "<n>",
                                  "help": "Smallest copy duplicated-implementation reports, in statements (nested ones counted; at least 3)."}),
    ("omni-reimplementation-upstreams", {"type": "csv", "default": DEFAULT_REIMPLEMENTATION_UPSTREAMS, "metavar": "<names>",
                                         "help": "Indexed upstream packages upstream-reimplementation compares project code with."}),
    ("omni-baseline", {"type": "string", "default": "", "metavar": "<file>",
                       "help": "Baseline file (`python -m pylint_omni baseline write FILE`): emit only findings whose id is not in it."}),
    ("omni-external-roots", {"type": "csv", "default": (), "metavar": "<folders or distributions>",
                             "help": "Other checkouts (folders) or installed distributions (names) whose references count as "
                                     "external consumers (out-of-tree plugins, forks); indexed read-only."}),
    ("omni-report-by", {"type": "string", "default": "contract", "metavar": "<contract or owner>",
                        "help": "How the Markdown report groups candidates: by owning design contract (default) or by owner."}),
    ("omni-platform-words", {"type": "csv", "default": (), "metavar": "<words>",
                             "help": "Hardware platform words (vendors, devices, chips, backends) added to the vocabulary's "
                                     "defaults: a folder or name part that is one marks one platform's parallel code."}),
    ("omni-hot-path-names", {"type": "csv", "default": (), "metavar": "<regexes>",
                             "help": "Function names (regular expressions over the whole name) whose code runs on every step "
                                     "or request, added to the defaults (the report's heat)."}),
    ("omni-cold-path-names", {"type": "csv", "default": (), "metavar": "<regexes>",
                              "help": "Function names whose code runs once (construction, set-up, shutdown), added to the defaults."}),
    ("omni-granularity", {"type": "string", "default": "candidate", "metavar": "<candidate or member>",
                          "help": "One message per change a maintainer would make, at its root, its members in the details "
                                  "(candidate, the default); or one message per member, as an editor may want (member)."}),
)
