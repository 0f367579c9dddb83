"""What a new user meets first: parallel runs, the root, project settings, option values.

Each test reproduces a report of the issue "First hour of a new user" with a real
pylint run and pins the fixed behaviour.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SAMPLE_REPO, enable_args, run_pylint

USAGE_ERROR = 32


def pylint_raw(args: list[str], cwd: Path, cache_dir: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A pylint run whose output is not parsed (usage errors print no JSON)."""
    full_env = {**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache_dir), **(env or {})}
    command = [sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--persistent=n", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=full_env, timeout=600)


def test_a_parallel_run_builds_the_index_once_before_its_workers_start(tmp_path: Path, cache_dir: Path) -> None:
    trace = tmp_path / "trace.txt"
    proc = pylint_raw([*enable_args(), "-j", "2", "tinyomni"], SAMPLE_REPO, cache_dir, {"PYLINT_OMNI_TRACE": str(trace)})
    assert proc.returncode & USAGE_ERROR == 0, proc.stderr
    assert re.search(r"\b[CRW]73\d\d\b", proc.stdout), proc.stdout  # the workers judged from that index
    lines = [line.split() for line in trace.read_text().splitlines()]
    # The parent reads every file once; the workers it forks right after start from that index: none
    # refreshes it again (pylint opens every checker once per file in a worker).
    assert len(lines) == 1 and int(lines[0][2]) > 0, lines


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_root_that_does_not_exist_is_a_usage_error(jobs: str, cache_dir: Path) -> None:
    proc = pylint_raw([*enable_args(), "-j", jobs, "--omni-root", "/nonexistent/omni", "tinyomni"], SAMPLE_REPO, cache_dir)
    assert proc.returncode == USAGE_ERROR
    assert "pylint-omni: usage error: omni-root=/nonexistent/omni" in proc.stderr and "no such folder" in proc.stderr
    assert "R73" not in proc.stdout


def test_a_root_holding_none_of_the_linted_files_is_a_usage_error(tmp_path: Path, cache_dir: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = pylint_raw([*enable_args(), "-j", "2", "--omni-root", str(elsewhere), "tinyomni"], SAMPLE_REPO, cache_dir)
    assert proc.returncode == USAGE_ERROR
    assert f"omni-root={elsewhere} holds none of the linted paths" in proc.stderr


def test_the_index_command_refuses_a_missing_root() -> None:
    proc = subprocess.run([sys.executable, "-m", "pylint_omni", "index", "--root", "/nonexistent/omni"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "no such folder" in proc.stderr and "files:" not in proc.stdout


@pytest.mark.parametrize(("option", "reason"), [
    ("--omni-max-file-bytes=-5", "omni-max-file-bytes=-5"),
    ("--omni-validation-globs=../outside/**", "cannot leave it"),
    ("--omni-exclude-globs=build/[abc", "unbalanced brackets"),
])
def test_unusable_option_values_are_one_usage_error(option: str, reason: str, cache_dir: Path) -> None:
    proc = pylint_raw([*enable_args(), option, "tinyomni"], SAMPLE_REPO, cache_dir)
    assert proc.returncode == USAGE_ERROR
    assert proc.stderr.count("pylint-omni: usage error:") == 1 and reason in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_a_bad_value_in_the_projects_own_pyproject_names_the_file(tmp_path: Path, cache_dir: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "omni-max-file-bytes = 0\n")
    proc = pylint_raw([*enable_args(), "sample_repo/tinyomni"], tmp_path, cache_dir)
    assert proc.returncode == USAGE_ERROR
    assert f"omni-max-file-bytes=0 ({pyproject.resolve()})" in proc.stderr


def test_the_projects_own_settings_apply_from_any_folder(tmp_path: Path, cache_dir: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    # The outer folder has a pylint configuration of its own, which pylint reads from there.
    (tmp_path / "pyproject.toml").write_text(
        "[tool.pylint.pylint-omni]\nomni-external-key-patterns = ['*Nothing']\n"
    )
    _, inside, _ = run_pylint([*enable_args(), "tinyomni"], cwd=project, cache_dir=cache_dir)
    _, outside, _ = run_pylint([*enable_args(), "sample_repo/tinyomni"], cwd=tmp_path, cache_dir=cache_dir)
    assert inside and [(f.path, f.line, f.symbol, f.confidence) for f in inside] == [
        (f.path.removeprefix("sample_repo/"), f.line, f.symbol, f.confidence) for f in outside
    ]


def test_the_command_line_overrides_the_projects_settings(tmp_path: Path, cache_dir: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    registry = ["--disable=all", "--enable=unused-registry-entry", "--omni-include-rejected=y"]
    _, default, _ = run_pylint([*registry, "sample_repo/tinyomni"], cwd=tmp_path, cache_dir=cache_dir)
    # PLANTED.md is excluded by the project's omni-exclude-globs; the command line's value wins.
    _, overridden, _ = run_pylint([*registry, "--omni-exclude-globs=**/.git/**", "sample_repo/tinyomni"], cwd=tmp_path, cache_dir=cache_dir)
    assert "PLANTED.md" not in " ".join(f.message for f in default)
    assert "PLANTED.md" in " ".join(f.message for f in overridden)


def test_templated_yaml_is_read_as_text_and_problems_are_one_summary(tmp_path: Path, cache_dir: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    templates = project / "chart" / "templates"
    templates.mkdir(parents=True)
    for name in ("deployment", "service", "configmap"):
        (templates / f"{name}.yaml").write_text(
            "apiVersion: v1\nkind: {{ .Values.kind }}\nmetadata:\n  name: {{ include \"chart.fullname\" . }}\n"
            "{{- if .Values.enabled }}\nspec:\n  command: [tinyomni-serve]\n{{- end }}\n"
        )
    (project / "deploy" / "broken.yaml").write_text("stages: [unclosed\n")
    (project / "deploy" / "broken2.yaml").write_text("a: [\n")
    code, found, _ = run_pylint(["--disable=all", "--enable=omni-unreadable-input,omni-unreadable-inputs", "tinyomni"],
                                cwd=project, cache_dir=cache_dir)
    assert [(f.path, f.symbol) for f in found] == [("tinyomni/__init__.py", "omni-unreadable-inputs")]
    assert found[0].message.startswith("pylint-omni could not fully read 2 other project file(s)")
    assert "deploy/broken.yaml (malformed YAML" in found[0].message and "chart/" not in found[0].message
    index = subprocess.run([sys.executable, "-m", "pylint_omni", "index", "--root", str(project)],
                           capture_output=True, text=True, timeout=120, env={**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache_dir)})
    assert "templated YAML (Helm/Jinja) read as text: 3 files" in index.stdout


def test_an_unwritable_cache_is_a_warning_about_the_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    code, found, stderr = run_pylint(["--disable=all", "--enable=pylint-omni", "tinyomni/envs.py"],
                                     cwd=SAMPLE_REPO, cache_dir=blocker / "cache")
    assert "pylint-omni: warning: cache not written" in stderr and stderr.count("cache not written") == 1
    assert not [f for f in found if f.symbol.startswith("omni-unreadable")]
    assert any(f.symbol == "unused-registry-entry" for f in found)  # the run went on


SUMMARY_HEAD = re.compile(r"^pylint-omni: (\d+) findings? in (\d+) modules?: (\d+) high, (\d+) medium", re.MULTILINE)
SUMMARY_ROW = re.compile(r"^  ([a-z-]+) +(\d+) high +(\d+) medium", re.MULTILINE)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_one_summary_per_run_counts_what_was_printed_and_says_where_the_report_is(
        jobs: str, tmp_path: Path, cache_dir: Path) -> None:
    report = tmp_path / "audit.md"
    proc = pylint_raw(["--disable=all", "--enable=pylint-omni", "-j", jobs, f"--output-format=json2,omni-report:{report}", "tinyomni"],
                      SAMPLE_REPO, cache_dir)
    printed = json.loads(proc.stdout)["messages"]
    expected: dict[str, list[int]] = {}
    for message in printed:
        if message["messageId"].startswith("R73"):
            row = expected.setdefault(message["symbol"], [0, 0])
            row[message["confidence"] != "HIGH"] += 1
    [head] = SUMMARY_HEAD.findall(proc.stderr)  # once per run: the -j 2 workers print nothing
    assert int(head[0]) == sum(map(sum, expected.values())) and int(head[2]) == sum(r[0] for r in expected.values())
    assert int(head[1]) == len(list((SAMPLE_REPO / "tinyomni").rglob("*.py")))  # modules linted, whatever -j is
    assert {symbol: [int(high), int(medium)] for symbol, high, medium in SUMMARY_ROW.findall(proc.stderr)} == expected
    # sample_repo imports transformers, which is neither installed nor in its omni-upstream-paths.
    assert "  not indexed: transformers (imported, but not installed here nor in omni-upstream-paths): findings that depend" \
        in proc.stderr
    assert f"  report: {report}" in proc.stderr and report.read_text().startswith("# pylint-omni audit report")
    # A cold cache: the index of the one root was built once, by this run's main process (before -j 2 workers fork).
    assert len(re.findall(rf"^  indexed \d+ files of {re.escape(str(SAMPLE_REPO))} in ", proc.stderr, flags=re.MULTILINE)) == 1


def test_without_a_report_the_summary_says_how_to_get_one_and_an_editor_buffer_gets_none(cache_dir: Path) -> None:
    proc = pylint_raw(["--disable=all", "--enable=unused-registry-entry", "tinyomni/envs.py"], SAMPLE_REPO, cache_dir)
    assert "[high] Registry entry 'TINYOMNI_USE_LEGACY_SCHEDULER'" in proc.stdout
    assert "pylint-omni: 1 finding in 1 module: 1 high, 0 medium" in proc.stderr
    assert "  the audit report: python -m pylint_omni report -o audit.md" in proc.stderr
    envs = (SAMPLE_REPO / "tinyomni" / "envs.py").read_text()
    editor = subprocess.run([sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--disable=all",
                             "--enable=unused-registry-entry", "--from-stdin", "tinyomni/envs.py"], cwd=SAMPLE_REPO, input=envs,
                            capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache_dir)})
    assert "R7301" in editor.stdout and "pylint-omni:" not in editor.stderr


def test_a_missing_upstream_or_submodule_is_a_check_that_could_not_run_in_the_report(tmp_path: Path, cache_dir: Path) -> None:
    project = tmp_path / "shop"
    (project / "shop").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'shop'\n")
    (project / "shop" / "__init__.py").write_text("")
    (project / "shop" / "engine.py").write_text("from vllm.config import ModelConfig\n\n\nclass ShopConfig(ModelConfig):\n    pass\n")
    # A git submodule the clone did not check out (`recipe/` missing) may hold consumers no index read.
    (project / ".gitmodules").write_text('[submodule "recipe"]\n\tpath = recipe\n\turl = https://example.invalid/recipe.git\n'
                                         '[submodule "docs/theme"]\n\tpath = docs/theme\n\turl = https://example.invalid/theme.git\n')
    (project / "docs" / "theme").mkdir(parents=True)
    (project / "docs" / "theme" / "conf.py").write_text("")
    out = tmp_path / "audit.json"
    proc = subprocess.run([sys.executable, "-m", "pylint_omni", "report", "shop", "-o", str(tmp_path / "audit.md"), "--json", str(out)],
                          cwd=project, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache_dir)})
    assert proc.returncode == 0, proc.stderr
    [vllm] = [item for item in json.loads(out.read_text())["not_run"] if item["what"] == "upstream vllm"]
    assert "upstream-reimplementation cannot compare with it" in vllm["reason"] and "stay medium" in vllm["reason"]
    assert "- `upstream vllm`: imported by the project, but not installed" in (tmp_path / "audit.md").read_text()
    assert "  not indexed: vllm (imported, but not installed here nor in omni-upstream-paths): upstream-reimplementation " \
           "cannot compare with it" in proc.stderr
    [recipe] = [item for item in json.loads(out.read_text())["not_run"] if item["what"].startswith("git submodule")]
    assert recipe["what"] == "git submodule recipe" and "may use what is reported unused" in recipe["reason"]  # docs/theme is there
    assert "  not indexed: git submodule recipe (not checked out): code there may use" in proc.stderr


def test_a_folder_pylint_skips_is_named_until_the_run_names_it(tmp_path: Path, cache_dir: Path) -> None:
    """`pylint shop` walks `__init__.py` folders only, with `--recursive=y` too: `shop/experimental/async_policy/`
    (none) is never linted, so nothing of it is reported. The summary says so and how to lint it, and stops once the
    run names the folder as well; `python -m pylint_omni report shop` names it itself."""
    project = tmp_path / "shop"
    (project / "shop" / "experimental" / "async_policy").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'shop'\n")
    (project / "shop" / "__init__.py").write_text("")
    (project / "shop" / "experimental" / "__init__.py").write_text("")
    for name in ("utils.py", "more.py"):
        (project / "shop" / "experimental" / "async_policy" / name).write_text("VALUE = 1\n")
    _, _, plain = run_pylint([*enable_args(["unused-surface"]), "shop"], cwd=project, cache_dir=cache_dir)
    assert "  not linted: shop/experimental/async_policy/ (2 Python files): no __init__.py" in plain
    assert "name it on the command line as well (shop/experimental/async_policy)" in plain
    _, _, recursive = run_pylint([*enable_args(["unused-surface"]), "--recursive=y", "shop"], cwd=project, cache_dir=cache_dir)
    assert "not linted: shop/experimental/async_policy/ (2 Python files)" in recursive  # pylint's package walk still skips it
    _, _, named = run_pylint([*enable_args(["unused-surface"]), "shop", "shop/experimental/async_policy"], cwd=project, cache_dir=cache_dir)
    assert "not linted" not in named
    # The report command names such folders itself: the whole package is audited.
    out = tmp_path / "audit.json"
    proc = subprocess.run([sys.executable, "-m", "pylint_omni", "report", "shop", "-o", str(tmp_path / "audit.md"), "--json", str(out)],
                          cwd=project, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache_dir)})
    assert proc.returncode == 0, proc.stderr
    assert "also linting shop/experimental/async_policy (no __init__.py" in proc.stderr
    report = json.loads(out.read_text())
    assert report["scanned"]["modules_linted"] == 4
    assert not [item for item in report["not_run"] if item["reason"].startswith("not linted")]


def test_a_namespace_package_target_is_named_with_the_reason(tmp_path: Path, cache_dir: Path) -> None:
    """`pylint shop` on a folder without `__init__.py` fails with "Unable to load file shop/__init__.py"; the report
    command says what is wrong and what to run instead, before pylint starts (exit 2, nothing written)."""
    project = tmp_path / "project"
    (project / "shop" / "core").mkdir(parents=True)
    (project / "shop" / "core" / "__init__.py").write_text("")
    proc = subprocess.run([sys.executable, "-m", "pylint_omni", "report", "shop", "-o", str(tmp_path / "audit.md")],
                          cwd=project, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache_dir)})
    assert proc.returncode == 2
    assert "shop has no __init__.py (a namespace package the packaging files do not declare)" in proc.stderr
    assert not (tmp_path / "audit.md").exists()


def test_a_declared_namespace_package_is_audited_under_the_names_the_project_imports(tmp_path: Path, cache_dir: Path) -> None:
    """Megatron-LM's `megatron/` has no `__init__.py`; its packaging declares `include = ["megatron.core", ...]` and
    the code imports `megatron.core.x`. The index names the modules so (not `core.x`, which made every imported
    module look unused), and `report megatron` lints the packages in it."""
    project = tmp_path / "project"
    (project / "shop" / "core").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'shop'\n\n[tool.setuptools.packages.find]\n"
                                            "include = [\"shop.core\", \"shop.core.*\"]\n")
    (project / "shop" / "core" / "__init__.py").write_text("")
    (project / "shop" / "core" / "api.py").write_text(
        '"""Prices."""\n\n\ndef price(amount):\n    """The price."""\n    return amount * 2\n\n\n'
        'def discount(amount):\n    """Never called."""\n    value = amount / 2\n    value -= 1\n    return value\n')
    (project / "shop" / "cli.py").write_text('"""Entry."""\nfrom shop.core.api import price\n\n\ndef main():\n'
                                             '    """Run."""\n    print(price(3))\n\n\nif __name__ == "__main__":\n    main()\n')
    out = tmp_path / "audit.json"
    proc = subprocess.run([sys.executable, "-m", "pylint_omni", "report", "shop", "-o", str(tmp_path / "audit.md"), "--json", str(out)],
                          cwd=project, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYLINT_OMNI_CACHE_DIR": str(cache_dir)})
    assert proc.returncode == 0, proc.stderr
    assert "shop is a namespace package (declared in the packaging files)" in proc.stderr
    messages = [c["message"] for c in json.loads(out.read_text())["candidates"]]
    assert any(m.startswith("Function discount has no consumer") for m in messages), messages
    assert not any("Module" in m or "price" in m for m in messages), messages
