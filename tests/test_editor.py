"""Editor use: a long-lived process (the VS Code extension's) keeps no stale state between runs."""

from __future__ import annotations

import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from pylint.lint import Run
from pylint.reporters import JSON2Reporter

from conftest import SAMPLE_REPO


def run_in_process(cwd: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> list[tuple[str, int, str]]:
    monkeypatch.chdir(cwd)
    out = StringIO()
    Run(["--load-plugins=pylint_omni", "--disable=all", "--enable=unused-registry-entry", "--persistent=n", *args], reporter=JSON2Reporter(out), exit=False)
    return [(m["path"], m["line"], m["symbol"]) for m in json.loads(out.getvalue())["messages"]]


def test_second_run_sees_a_changed_yaml_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, repo)
    monkeypatch.setenv("PYLINT_OMNI_CACHE_DIR", str(tmp_path / "cache"))
    pipeline = "tinyomni/diffusion/pipelines/audio_legacy.py"
    first = run_in_process(repo, monkeypatch, pipeline)
    assert first == [(pipeline, 6, "unused-registry-entry")]
    # A deploy config starts naming the pipeline: the next run in the same process sees it.
    (repo / "deploy" / "legacy.yaml").write_text("stages:\n  - pipeline: tiny-audio-legacy\n")
    assert run_in_process(repo, monkeypatch, pipeline) == []
    (repo / "deploy" / "legacy.yaml").unlink()
    assert run_in_process(repo, monkeypatch, pipeline) == first
