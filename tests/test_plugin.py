"""The plugin inside real pylint runs: parallel jobs, stdin, confidence, pragmas, options, CLI."""

from __future__ import annotations

import gc
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SAMPLE_REPO, enable_args, run_pylint

REGISTRY = ["--disable=all", "--enable=unused-registry-entry"]


@pytest.fixture
def sample_copy(tmp_path: Path) -> Path:
    target = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, target)
    return target


def test_parallel_jobs_give_the_same_messages(cache_dir: Path) -> None:
    _, one, _ = run_pylint([*enable_args(), "-j", "1", "tinyomni"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    _, two, _ = run_pylint([*enable_args(), "-j", "2", "tinyomni"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    assert one and one == two


def test_from_stdin_uses_the_buffer_for_project_facts(sample_copy: Path, cache_dir: Path) -> None:
    envs = "tinyomni/envs.py"
    _, full, _ = run_pylint([*REGISTRY, "tinyomni"], cwd=sample_copy, cache_dir=cache_dir)
    _, stdin_run, _ = run_pylint([*REGISTRY, "--from-stdin", envs], cwd=sample_copy, stdin=(sample_copy / envs).read_text(), cache_dir=cache_dir)
    assert [f for f in full if f.path == envs] == stdin_run and stdin_run
    # The same file, edited in the buffer to read the variable: the finding goes away,
    # although nothing on disk changed.
    edited = (sample_copy / envs).read_text() + "\n\ndef legacy():\n    return __getattr__('TINYOMNI_USE_LEGACY_SCHEDULER')\n"
    _, after, _ = run_pylint([*REGISTRY, "--from-stdin", envs], cwd=sample_copy, stdin=edited, cache_dir=cache_dir)
    assert after == []


def test_stdin_run_reports_only_that_file(cache_dir: Path) -> None:
    path = "tinyomni/diffusion/pipelines/video.py"
    _, found, _ = run_pylint([*REGISTRY, "--from-stdin", path], cwd=SAMPLE_REPO, stdin=(SAMPLE_REPO / path).read_text(), cache_dir=cache_dir)
    assert found and {f.path for f in found} == {path}


def test_confidence_high_shows_only_high(cache_dir: Path) -> None:
    _, everything, _ = run_pylint([*REGISTRY, "tinyomni"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    _, high, _ = run_pylint([*REGISTRY, "--confidence=HIGH", "tinyomni"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    assert {f.confidence for f in everything} == {"HIGH", "INFERENCE"}
    assert high == [f for f in everything if f.confidence == "HIGH"]


def test_include_rejected_adds_rejected_findings(cache_dir: Path) -> None:
    _, default, _ = run_pylint([*REGISTRY, "tinyomni"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    _, with_rejected, _ = run_pylint([*REGISTRY, "--omni-include-rejected=y", "tinyomni"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    rejected = [f for f in with_rejected if f.confidence == "UNDEFINED"]
    assert rejected and all("(rejected: " in f.message for f in rejected)
    assert [f for f in with_rejected if f.confidence != "UNDEFINED"] == default
    reasons = " ".join(f.message for f in rejected)
    for reason in ("entry-point:tinyomni.plugins", "built dynamically", "handed out or enumerated", "documented as a supported name"):
        assert reason in reasons


def test_disable_pragma_on_the_entry_line(sample_copy: Path, cache_dir: Path) -> None:
    backends = sample_copy / "tinyomni/attention/backends.py"
    text = backends.read_text().replace(
        '"tinyomni.attention.legacy.LegacyXformersBackend"',
        '"tinyomni.attention.legacy.LegacyXformersBackend"  # pylint: disable=unused-registry-entry',
    )
    backends.write_text(text)
    _, found, _ = run_pylint([*REGISTRY, "tinyomni"], cwd=sample_copy, cache_dir=cache_dir)
    assert "tinyomni/attention/backends.py" not in {f.path for f in found}
    assert found


def test_message_states_surface_fix_and_one_evidence_clause(cache_dir: Path) -> None:
    """Its confidence, what, the fix, one evidence clause, about 250 characters; the rest lives in the report."""
    _, found, _ = run_pylint([*REGISTRY, "tinyomni/envs.py"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    (finding,) = found
    assert finding.message == (
        "[high] Registry entry 'TINYOMNI_USE_LEGACY_SCHEDULER' of environment_variables has no production consumer; "
        "remove the entry (no code reads it as a module attribute; the table is read only by the module's "
        "__getattr__ at tinyomni/envs.py:14)."
    )


def test_every_printed_line_says_its_confidence(cache_dir: Path) -> None:
    """A plain run's lines tell high from medium (and rejected ideas): pylint's own `{confidence}` in a
    --msg-template prints a Confidence tuple, and HIGH/INFERENCE are not the words the audit uses."""
    _, found, stderr = run_pylint([*enable_args(), "--omni-include-rejected=y", "tinyomni"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    tags = {"HIGH": "[high] ", "INFERENCE": "[medium] ", "UNDEFINED": "[rejected] "}
    assert {f.confidence for f in found} == set(tags), stderr
    assert all(f.message.startswith(tags[f.confidence]) for f in found)


def test_validation_globs_option_from_the_command_line(cache_dir: Path) -> None:
    # With deploy/ declared validation, the pipeline named only there loses its production consumer.
    path = "tinyomni/diffusion/pipelines/image.py"
    _, default, _ = run_pylint([*REGISTRY, "--omni-include-rejected=y", path], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    assert default == []
    args = [*REGISTRY, "--omni-include-rejected=y", "--omni-validation-globs=tests/**,docs/**,deploy/**", path]
    _, found, _ = run_pylint(args, cwd=SAMPLE_REPO, cache_dir=cache_dir)
    assert len(found) == 1 and "deploy/tiny_omni_two_stage.yaml:10" in found[0].message


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pylint_omni", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_explain_lists_consumers_by_kind() -> None:
    out = cli("explain", "MooncakeConnector", cwd=SAMPLE_REPO)
    assert out.returncode == 0
    assert f"project root: {SAMPLE_REPO}" in out.stdout
    assert "unused-registry-entry verdict: rejected: loaded by name: pyproject.toml:20 (entry-point:tinyomni.plugins)" in out.stdout
    assert "pyproject.toml:20 (entry-point:tinyomni.plugins)" in out.stdout
    missing = cli("explain", "NoSuchNameAnywhere", cwd=SAMPLE_REPO)
    assert missing.returncode == 1 and "not found: NoSuchNameAnywhere" in missing.stdout


def test_index_command_reports_scan_and_times() -> None:
    out = cli("index", "--json", "--root", str(SAMPLE_REPO), cwd=SAMPLE_REPO)
    import json

    data = json.loads(out.stdout)
    assert data["files_by_kind"]["python"] >= 30 and data["registries"] >= 8
    assert data["warm_files_reread"] == 0 and data["cold_seconds"] >= 0


def test_contract_extension_point_rejects_naming_the_page(tmp_path: Path, cache_dir: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (pkg / "__init__.py").write_text("")
    (pkg / "hooks.py").write_text(
        "def a(): ...\ndef b(): ...\ndef c(): ...\n\nHOOKS = {'alpha': a, 'beta': b, 'gamma': c}\n\n"
        "def run(name):\n    return HOOKS[name]()\n\nDEFAULTS = ('alpha', 'beta')\n\n\n"
        "def main():\n    return run('alpha'), run('beta')\n"  # traced keys: a read no key of which is 'gamma'

    )
    design = tmp_path / "docs" / "design"
    design.mkdir(parents=True)
    page = "---\ntitle: Hooks\nstatus: current\nprimary_code_paths: [pkg/]\nextension_points: [pkg.hooks.c]\n---\n# Hooks\n"
    (design / "hooks.md").write_text(page)
    args = [*REGISTRY, "--omni-include-rejected=y", "pkg"]
    _, found, _ = run_pylint(args, cwd=tmp_path, cache_dir=cache_dir)
    assert len(found) == 1 and "rejected: the active design contract Hooks (docs/design/hooks.md)" in found[0].message
    (design / "hooks.md").write_text(page.replace("status: current", "status: archived"))
    _, found, _ = run_pylint(args, cwd=tmp_path, cache_dir=cache_dir)
    assert len(found) == 1 and found[0].confidence == "HIGH"


def test_cold_build_is_said_once_in_the_summary_and_warm_runs_build_nothing(cache_dir: Path) -> None:
    _, _, cold = run_pylint([*REGISTRY, "tinyomni/envs.py"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    _, _, warm = run_pylint([*REGISTRY, "tinyomni/envs.py"], cwd=SAMPLE_REPO, cache_dir=cache_dir)
    assert cold.count("indexed ") == 1 and cold.count("pylint-omni: 1 finding in 1 module") == 1
    assert "indexed " not in warm and warm.count("pylint-omni: 1 finding in 1 module") == 1


GC_PROBE = '''
import gc, os
from pylint.checkers import BaseChecker


class CollectorProbe(BaseChecker):
    """Writes the collector's young threshold, and the process, at each module it visits."""

    name = "collector-probe"
    msgs = {"W9871": ("probe", "collector-probe", "records the collector's threshold")}

    def visit_module(self, node):
        with open(os.environ["PROBE_OUT"], "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {gc.get_threshold()[0]}\\n")


def register(linter):
    linter.register_checker(CollectorProbe(linter))
'''


def test_a_run_collects_young_objects_less_often_and_restores_the_collector(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path) -> None:
    from pylint.lint import Run  # pylint: disable=import-outside-toplevel

    from pylint_omni.index.collector import YOUNG_THRESHOLD  # pylint: disable=import-outside-toplevel

    (tmp_path / "gc_probe.py").write_text(GC_PROBE)
    seen = tmp_path / "seen.txt"
    monkeypatch.setenv("PROBE_OUT", str(seen))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("PYLINT_OMNI_CACHE_DIR", str(cache_dir))
    # `-j 2`: pylint's workers, forked from the run, collect as it does.
    subprocess.run([sys.executable, "-m", "pylint", "--load-plugins=pylint_omni,gc_probe", "--persistent=n", "-j", "2",
                    *enable_args(["unused-registry-entry", "collector-probe"]), "tinyomni"],
                   cwd=SAMPLE_REPO, capture_output=True, check=False, timeout=600)
    workers = [line.split() for line in seen.read_text().splitlines()]
    assert len({pid for pid, _ in workers}) == 2 and {int(t) for _, t in workers} == {YOUNG_THRESHOLD}
    seen.unlink()
    # In a long-lived process (an editor's), the threshold before the run comes back after it.
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(SAMPLE_REPO)
    before = gc.get_threshold()
    assert before[0] != YOUNG_THRESHOLD
    Run(["--load-plugins=pylint_omni,gc_probe", "--persistent=n", *enable_args(["unused-registry-entry", "collector-probe"]),
         "tinyomni/envs.py"], exit=False)
    assert {int(t) for _, t in (line.split() for line in seen.read_text().splitlines())} == {YOUNG_THRESHOLD}
    assert gc.get_threshold() == before
