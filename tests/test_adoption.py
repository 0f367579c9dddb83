"""Adopting the audit on a large codebase: stable ids, baseline, keep list, owners, external consumer roots.

Real pylint runs on `sample_repo/` (copied where it is edited) and on the small
`shop` project of `shop_project.py`.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import SAMPLE_REPO
from shop_project import PAGED_GONE, SUBJECT, omni, pylint_json, write_project

SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-2.1.0-rtm.5.json"
PRODUCTION_LINE = '    return kernel("paged", q)\n'


@pytest.fixture(scope="module")
def sample_findings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The JSON and SARIF audit of a copy of sample_repo, before and after unrelated edits above the findings."""
    tmp = tmp_path_factory.mktemp("ids")
    copy = tmp / "sample"
    shutil.copytree(SAMPLE_REPO, copy)
    sarif = tmp / "before.sarif"
    _, before = pylint_json([f"--output-format=omni-json,omni-sarif:{sarif}", "tinyomni"], copy, tmp / "cache")
    edited = 0
    for path in sorted((copy / "tinyomni").rglob("*.py")):
        text = path.read_text()
        lines = text.splitlines(keepends=True)
        body = 1 if lines and lines[0].startswith('"""') and lines[0].count('"""') == 2 else 0
        if body:  # after a one-line module docstring: an import and two constants, no new surface
            path.write_text("".join([lines[0], "import functools\n\nEDITED = 1\n\n\n_UNRELATED = functools.reduce(max, [EDITED])\n\n",
                                     *lines[1:]]))
            edited += 1
    _, after = pylint_json(["--output-format=omni-json", "tinyomni"], copy, tmp / "cache")
    return {"before": before, "after": after, "sarif": json.loads(sarif.read_text()), "edited": edited}


def test_ids_are_stable_under_unrelated_edits_above_the_findings(sample_findings: dict[str, Any]) -> None:
    before, after = sample_findings["before"], sample_findings["after"]
    assert sample_findings["edited"] > 20
    moved = {(f["path"], f["line"]) for f in before["candidates"]} - {(f["path"], f["line"]) for f in after["candidates"]}
    assert len(moved) > 20  # the lines did move
    ids = lambda report: sorted((f["id"], f["symbol"], f["subject"]) for f in [*report["candidates"], *report["rejected"]])
    assert ids(before) == ids(after)


def test_each_family_names_its_surface_and_ids_are_unique(sample_findings: dict[str, Any]) -> None:
    findings = [*sample_findings["before"]["candidates"], *sample_findings["before"]["rejected"]]
    assert len({f["id"] for f in findings}) == len(findings)
    assert all(re.fullmatch(r"[0-9a-f]{16}", f["id"]) for f in findings)
    by_symbol: dict[str, list[str]] = {}
    for f in findings:
        assert not f["subject"].startswith(f["path"] + "::"), f  # no family falls back to the path
        by_symbol.setdefault(f["symbol"], []).append(f["subject"])
    assert "tinyomni.envs.environment_variables['TINYOMNI_USE_LEGACY_SCHEDULER']" in by_symbol["unused-registry-entry"]
    assert "tinyomni.engine.retry.RetryPolicy" in by_symbol["single-implementation-abstraction"]
    assert "tinyomni.model_executor.samplers.make_sampler" in by_symbol["single-implementation-abstraction"]
    assert "tinyomni.engine.state_request.StageRequestState.num_pending" in by_symbol["duplicated-state-field"]
    assert "tinyomni.worker.output_processor.OutputProcessor.sampled_ids: torch.tensor(ids.tolist())" in by_symbol[
        "redundant-tensor-materialization"]
    assert "tinyomni.connectors.serialization.request_snapshot: pickle.loads(pickle.dumps(request))" in by_symbol[
        "redundant-payload-conversion"]


def test_sarif_carries_the_id_as_partial_fingerprint_and_validates(sample_findings: dict[str, Any]) -> None:
    sarif = sample_findings["sarif"]
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text())).validate(sarif)
    results = sarif["runs"][0]["results"]
    ids = {f["id"] for f in [*sample_findings["before"]["candidates"], *sample_findings["before"]["rejected"]]}
    assert {r["partialFingerprints"]["pylintOmniFindingId/v1"] for r in results} == ids


def test_markdown_and_explain_show_the_id(tmp_path: Path) -> None:
    root = write_project(tmp_path / "shop")
    (root / "shop" / "paged.py").write_text(PAGED_GONE)
    report = omni(["report", "-o", str(tmp_path / "audit.md"), "--json", str(tmp_path / "audit.json")], root, tmp_path / "cache")
    assert report.returncode == 0, report.stderr
    finding = json.loads((tmp_path / "audit.json").read_text())["candidates"][0]
    assert f"- **Id**: `{finding['id']}` (subject `{SUBJECT}`)" in (tmp_path / "audit.md").read_text()
    by_id = omni(["explain", finding["id"]], root, tmp_path / "cache")
    assert by_id.returncode == 0, by_id.stderr
    assert f"{finding['id']}  unused-registry-entry (candidate, high) at shop/kernels.py:24" in by_id.stdout
    assert f"subject: {SUBJECT}" in by_id.stdout
    by_name = omni(["explain", "paged"], root, tmp_path / "cache")  # the lint above is cached: no --findings needed
    assert "findings about paged in shop: 1" in by_name.stdout and finding["id"] in by_name.stdout
    unknown = omni(["explain", "0123456789abcdef"], root, tmp_path / "cache")
    assert unknown.returncode == 1 and "no finding with id 0123456789abcdef" in unknown.stdout


def test_baseline_keeps_known_findings_out_and_says_what_disappeared(tmp_path: Path) -> None:
    root = write_project(tmp_path / "shop")
    (root / "shop" / "paged.py").write_text(PAGED_GONE)
    written = omni(["baseline", "write", "omni-baseline.json"], root, tmp_path / "cache")
    assert written.returncode == 0, written.stderr
    baseline = json.loads((root / "omni-baseline.json").read_text())
    assert [(f["symbol"], f["subject"]) for f in baseline["findings"]] == [("unused-registry-entry", SUBJECT)]
    # A new dead entry: only it is emitted; the known one is counted.
    run = root / "shop" / "run.py"
    run.write_text(run.read_text().replace('        return kernel("sdpa", q)\n', '        return kernel("naive", q)\n'))
    text = tmp_path / "messages.txt"
    proc, data = pylint_json(["--omni-baseline=omni-baseline.json", f"--output-format=omni-json,text:{text}", "shop"], root,
                             tmp_path / "cache")
    assert [c["subject"] for c in data["candidates"]] == ["shop.kernels.KERNELS['sdpa']"]
    assert re.findall(r"Registry entry '(\w+)'", text.read_text()) == ["sdpa"]  # pylint's own messages too
    assert data["adoption"]["baseline"]["known"] == 1 and data["adoption"]["baseline"]["disappeared"] == []
    # Fixed: the known finding disappears, and the report says which.
    kernels = root / "shop" / "kernels.py"
    kernels.write_text(kernels.read_text().replace('    "paged": _paged,\n', ""))
    proc, data = pylint_json(["--omni-baseline=omni-baseline.json", "--output-format=omni-report", "shop"], root, tmp_path / "cache")
    assert "- **Baseline**: `" in proc.stdout and "(1 findings): 0 known findings remain (not listed below), 1 disappeared" in proc.stdout
    assert "## Disappeared since the baseline" in proc.stdout and SUBJECT in proc.stdout
    # The project's own pyproject.toml can name the baseline (relative to the project root), and a broken one is refused.
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + '[tool.pylint.pylint-omni]\nomni-baseline = "missing.json"\n')
    proc, _ = pylint_json(["shop"], root.parent, tmp_path / "cache")
    assert proc.returncode == 32 and f"omni-baseline ({root / 'pyproject.toml'}): {root / 'missing.json'}: no such file" in proc.stderr


def keep_table(until: str, name: str = SUBJECT, reason: str = "the deploy scripts of team X pick it") -> str:
    return (f'[tool.pylint.pylint-omni]\nkeep = [\n  {{symbol = "unused-registry-entry", name = "{name}", '
            f'reason = "{reason}", until = {until}}},\n]\n')


def test_kept_findings_are_listed_with_the_reason_and_an_expired_entry_is_reported(tmp_path: Path) -> None:
    root = write_project(tmp_path / "shop", keep_table("2999-12-31"))
    (root / "shop" / "paged.py").write_text(PAGED_GONE)
    sarif = tmp_path / "audit.sarif"
    proc, data = pylint_json([f"--output-format=omni-json,omni-sarif:{sarif}", "shop"], root, tmp_path / "cache")
    assert proc.returncode == 0 and data["candidates"] == []
    assert [(k["subject"], k["kept_because"]) for k in data["adoption"]["kept"]] == [
        (SUBJECT, f"the deploy scripts of team X pick it ({root / 'pyproject.toml'}, keep[0])")]
    kept = [r for r in json.loads(sarif.read_text())["runs"][0]["results"] if r.get("suppressions")]
    assert kept[0]["suppressions"][0]["justification"].startswith("the deploy scripts of team X pick it")
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text())).validate(json.loads(sarif.read_text()))
    report = pylint_json(["--output-format=omni-report", "shop"], root, tmp_path / "cache")[0].stdout
    assert "## Kept on purpose" in report and "the deploy scripts of team X pick it" in report
    # Expired: the finding is back, and the entry itself is reported on stderr and in the report.
    (root / "pyproject.toml").write_text(f'[project]\nname = "shop"\n{keep_table("2001-01-31")}')
    proc, data = pylint_json(["--output-format=omni-json", "shop"], root, tmp_path / "cache")
    assert [c["subject"] for c in data["candidates"]] == [SUBJECT]
    assert f"pylint-omni: keep entry expired on 2001-01-31: unused-registry-entry {SUBJECT} ({root / 'pyproject.toml'}" in proc.stderr
    assert data["adoption"]["keep_expired"][0]["until"] == "2001-01-31"
    report = pylint_json(["--output-format=omni-report", "shop"], root, tmp_path / "cache")[0].stdout
    assert "## Keep entries to review" in report and "- expired on 2001-01-31: `unused-registry-entry`" in report


def test_a_glob_or_an_id_can_name_kept_findings(tmp_path: Path) -> None:
    root = write_project(tmp_path / "shop", keep_table("2999-12-31", name="shop.kernels.*"))
    (root / "shop" / "paged.py").write_text(PAGED_GONE)
    _, data = pylint_json(["--output-format=omni-json", "shop"], root, tmp_path / "cache")
    assert data["candidates"] == [] and len(data["adoption"]["kept"]) == 1
    finding = data["adoption"]["kept"][0]["id"]
    (root / "pyproject.toml").write_text(f'[project]\nname = "shop"\n{keep_table("2999-12-31", name=finding)}')
    _, data = pylint_json(["--output-format=omni-json", "shop"], root, tmp_path / "cache")
    assert data["candidates"] == [] and data["adoption"]["kept"][0]["id"] == finding


@pytest.mark.parametrize("table, problem", [
    ('keep = [{symbol = "unused-registry-entry", name = "x"}]', "keep[0]: reason is required and must be a non-empty string"),
    ('keep = [{symbol = "no-such-message", name = "x", reason = "r"}]', "keep[0]: symbol 'no-such-message' is not a pylint-omni message"),
    ('keep = [{symbol = "unused-registry-entry", name = "x", reason = "r", until = "soon"}]', "keep[0]: until='soon' is not a date"),
    ('keep = [{symbol = "unused-registry-entry", name = "x", reason = "r", owner = "me"}]', "keep[0]: unknown key 'owner'"),
    ('keep = "everything"', "keep must be a list of tables, got str"),
])
def test_a_malformed_keep_list_is_a_usage_error_naming_the_file(table: str, problem: str, tmp_path: Path) -> None:
    root = write_project(tmp_path / "shop", f"[tool.pylint.pylint-omni]\n{table}\n")
    proc, _ = pylint_json(["shop"], root, tmp_path / "cache")
    assert proc.returncode == 32, proc.stderr
    assert f"pylint-omni: usage error: {root / 'pyproject.toml'}" in proc.stderr and problem in proc.stderr


def test_owners_come_from_the_contract_else_codeowners_last_match_wins(tmp_path: Path) -> None:
    root = write_project(tmp_path / "shop")
    (root / "shop" / "paged.py").write_text(PAGED_GONE)
    run = root / "shop" / "run.py"
    run.write_text(run.read_text().replace('        return kernel("sdpa", q)\n', '        return kernel("naive", q)\n'))
    (root / ".github").mkdir()
    (root / ".github" / "CODEOWNERS").write_text("# owners\n*  @org/everyone\n/shop/ @org/shop\nkernels.py @org/kernels\n"
                                                 "/shop/run.py\n")
    proc, data = pylint_json(["--output-format=omni-json", "shop"], root, tmp_path / "cache")
    # The two dead entries of one table are one change, owned as the table's file is.
    assert {c["subject"]: (c["owners"], c["owners_source"]) for c in data["candidates"]} == {
        "shop.kernels.KERNELS<unused entries>": (["@org/kernels"], ".github/CODEOWNERS:4 (kernels.py)"),
    }
    design = root / "docs" / "design"
    design.mkdir(parents=True)
    (design / "kernels.md").write_text("---\ntitle: Kernels\nstatus: current\nowners: ['@org/perf']\n"
                                       "primary_code_paths: [shop/kernels.py]\n---\n\n# Kernels\n")
    report = pylint_json(["--omni-report-by=owner", "--output-format=omni-report", "shop"], root, tmp_path / "cache")[0].stdout
    assert "## Candidates by owner" in report and "### @org/perf (1 candidate)" in report
    assert "**Owners**: @org/perf (from design contract docs/design/kernels.md)" in report
    proc, _ = pylint_json(["--omni-report-by=team", "shop"], root, tmp_path / "cache")
    assert proc.returncode == 32 and "omni-report-by='team' (command line): expected one of contract, owner" in proc.stderr


def test_an_external_checkout_or_installed_distribution_is_a_consumer(tmp_path: Path) -> None:
    root = write_project(tmp_path / "shop")
    (root / "shop" / "paged.py").write_text(PAGED_GONE)
    plugin = tmp_path / "npu-plugin"
    (plugin / "npu_plugin").mkdir(parents=True)
    (plugin / "tests").mkdir()
    (plugin / "pyproject.toml").write_text('[project]\nname = "npu-plugin"\n')
    (plugin / "npu_plugin" / "__init__.py").write_text('"""Nothing of the shop yet."""\n\nMODES = {"paged": 1}\n')
    (plugin / "tests" / "test_paged.py").write_text('from shop.kernels import kernel\n\n\ndef test_paged():\n    kernel("paged", 1)\n')
    _, data = pylint_json(["--output-format=omni-json", "--omni-external-roots=../npu-plugin", "shop"], root, tmp_path / "cache")
    # A plugin's tests are not the plugin running; a module that never names the shop only collides on the name.
    assert [c["subject"] for c in data["candidates"]] == [SUBJECT]
    (plugin / "npu_plugin" / "__init__.py").write_text("from shop.kernels import kernel\n\n\ndef paged(q):\n"
                                                       + PRODUCTION_LINE)
    _, data = pylint_json(["--output-format=omni-json", "--omni-external-roots=../npu-plugin", "shop"], root, tmp_path / "cache")
    rejected = [r for r in data["rejected"] if r["subject"] == SUBJECT]
    assert data["candidates"] == [] and rejected
    assert rejected[0]["reason"] == "used outside this repository: npu-plugin/npu_plugin/__init__.py:5 (external root: str)"
    # The same plugin installed as a distribution (found through its metadata, never imported).
    site = tmp_path / "site"
    shutil.copytree(plugin / "npu_plugin", site / "npu_plugin")
    info = site / "npu_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: npu-plugin\nVersion: 1.0\n")
    (info / "top_level.txt").write_text("npu_plugin\n")
    (info / "RECORD").write_text("npu_plugin/__init__.py,,\n")
    (site / "npu_plugin" / "__init__.py").write_text((site / "npu_plugin" / "__init__.py").read_text() + "raise SystemExit('imported')\n")
    _, data = pylint_json(["--output-format=omni-json", "--omni-external-roots=npu-plugin", "shop"], root, tmp_path / "cache",
                          PYTHONPATH=str(site))
    assert data["candidates"] == []
    assert [r["reason"] for r in data["rejected"] if r["subject"] == SUBJECT] == [
        "used outside this repository: dist:npu-plugin/npu_plugin/__init__.py:5 (external root: str)"]
    proc, _ = pylint_json(["--omni-external-roots=no-such-plugin", "shop"], root, tmp_path / "cache")
    assert proc.returncode == 32 and "'no-such-plugin' is neither a folder nor an installed distribution" in proc.stderr


def test_another_project_of_the_same_repository_is_a_consumer(tmp_path: Path) -> None:
    """A monorepo: the shop is one folder of the repository, beside a server project that imports it. Nothing names
    the server, yet its production code using a registry entry or an exception class keeps them (and the module
    that defines the class is no dead module)."""
    repo = tmp_path / "repo"
    root = write_project(repo / "python" / "shop", '[project.scripts]\nshop = "shop.run:run"\n')  # an application
    (root / "shop" / "paged.py").write_text(PAGED_GONE)
    server = repo / "python" / "server"
    (server / "server").mkdir(parents=True)
    (server / "pyproject.toml").write_text('[project]\nname = "server"\n')
    (server / "server" / "__init__.py").write_text("from shop.kernels import kernel\n\n\ndef paged(q):\n" + PRODUCTION_LINE)
    (root / "shop" / "errors.py").write_text("class ModelMissingError(Exception):\n    pass\n\n\nclass Unused(Exception):\n    pass\n")
    (server / "server" / "model.py").write_text("from shop.errors import ModelMissingError\n\n\ndef load(path):\n"
                                               "    raise ModelMissingError(path)\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first"], cwd=repo, check=True)
    _, data = pylint_json(["--output-format=omni-json", "shop"], root, tmp_path / "cache")
    assert data["candidates"] == [], data["candidates"]  # a module the server uses a class of is no dead module
    assert [r["reason"].partition(":")[0] for r in data["rejected"] if r["subject"] == "shop.errors"] == [
        "used by another project of this repository"]
    assert [r["reason"] for r in data["rejected"] if r["subject"] == SUBJECT] == [
        "used by another project of this repository: python/server/server/__init__.py:5 (sibling project: str)"]


def test_a_surface_inside_a_comprehension_is_named_by_its_function(tmp_path: Path) -> None:
    """A constructor mirror built in a list comprehension (a real case): its frame names it, nothing crashes."""
    root = tmp_path / "layers"
    (root / "layers").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "layers"\n')
    (root / "layers" / "__init__.py").write_text('"""Layers."""\n')
    (root / "layers" / "model.py").write_text(
        '"""A model of layers."""\n\n\nclass Layer:\n    def __init__(self, width, depth, dtype):\n'
        '        self.width = width\n        self.depth = depth\n        self.dtype = dtype\n\n    def size(self):\n'
        '        return self.width * self.depth, self.dtype\n\n\nclass Model:\n    def __init__(self, config):\n'
        '        self.layers = [Layer(width=config.width, depth=config.depth, dtype=config.dtype) for _ in range(4)]\n')
    proc, data = pylint_json(["--output-format=omni-json", "--omni-include-rejected=y", "layers"], root, tmp_path / "cache")
    assert "Traceback" not in proc.stderr and "Exception on node" not in proc.stderr, proc.stderr
    found = [f for f in [*data["candidates"], *data["rejected"]] if f["kind"] == "keyword-mirror"]
    assert [f["subject"] for f in found] == ["layers.model.Model.__init__: Layer <- config"]
