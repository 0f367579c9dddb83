"""The audit report (Markdown, JSON, SARIF) from real pylint runs on sample_repo.

Pins the report's structure, the owner/validation mapping that sample_repo's design
contracts give, the rejected ideas, `-j 2` parity, pragmas, malformed front matter,
stable JSON keys and SARIF 2.1.0 validity.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import CATALOGUE, OMNI_SYMBOLS, SAMPLE_REPO
from pylint_omni.reporters.header import audit_base

SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-2.1.0-rtm.5.json"
FINDING_KEYS = {
    "symbol", "msgid", "path", "line", "column", "status", "confidence", "message", "reason", "surface", "evidence",
    "unknowns", "simplification", "benefit", "risk", "validation", "owner", "owner_path", "group", "saved_by", "details",
    "id", "subject", "kind", "owners", "owners_source", "kept_because",
    "proof", "benefit_lines", "benefit_kind", "heat", "heat_reason", "micro", "score", "members",
}
TOP_KEYS = {"format", "tool", "root", "audit_base", "scanned", "contracts", "not_run", "summary", "top_candidates",
            "ranking", "candidates", "rejected", "adoption"}
ENTRY_KEYS = {"number", "score", "confidence", "heat", "compact", "title", "findings"}


def run(command: list[str], cwd: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    """Run with a private index cache and a private TMPDIR (to see the findings folder go)."""
    temp = tmp / "tmpdir"
    temp.mkdir(exist_ok=True)
    env = dict(os.environ, PYLINT_OMNI_CACHE_DIR=str(tmp / "cache"), TMPDIR=str(temp))
    env.pop("PYLINT_OMNI_FINDINGS_DIR", None)
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def pylint(args: list[str], cwd: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    base = [sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--disable=all", "--enable=pylint-omni", "--persistent=n"]
    return run([*base, *args], cwd, tmp)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The three reports of one `python -m pylint_omni report` run on sample_repo."""
    tmp = tmp_path_factory.mktemp("report")
    out = {"md": tmp / "audit.md", "json": tmp / "audit.json", "sarif": tmp / "audit.sarif"}
    proc = run([sys.executable, "-m", "pylint_omni", "report", "tinyomni", "-o", str(out["md"]),
                "--json", str(out["json"]), "--sarif", str(out["sarif"])], SAMPLE_REPO, tmp)
    assert proc.returncode == 0, proc.stderr
    return {
        "md": out["md"].read_text(), "json": json.loads(out["json"].read_text()),
        "sarif": json.loads(out["sarif"].read_text()), "tmp": tmp,
    }


def candidate(report: dict[str, Any], path: str, line: int | None = None) -> dict[str, Any]:
    found = [c for c in report["candidates"] if c["path"] == path and (line is None or c["line"] == line)]
    assert found, f"no candidate at {path}:{line}"
    return found[0]


def section(markdown: str, heading: str) -> str:
    """The text of one `### heading` section (up to the next heading of level 2 or 3)."""
    start = markdown.index(heading)
    following = re.search(r"^#{2,3} ", markdown[start + len(heading):], flags=re.MULTILINE)
    return markdown[start: start + len(heading) + following.start()] if following else markdown[start:]


def test_markdown_has_header_summary_candidates_and_rejected_ideas(reports: dict[str, Any]) -> None:
    md = reports["md"]
    order = ["# pylint-omni audit report", "- **Project root**: ", "- **Audit base**: ", "- **Tools**: pylint-omni",
             "- **Scanned**: ", "- **Design contracts**: 4 active", "- **Checks that could not run**",
             "## Summary", "| message | high | medium | rejected |", "| owner | high | medium |",
             "## Top candidates", "## Candidates", "## Rejected ideas"]
    positions = [md.index(text) for text in order]
    assert positions == sorted(positions)
    assert "docs/design/archive" not in section(md, "- **Design contracts**")  # archived pages are not contracts
    # Strongest first inside a group: every high candidate before the first medium one.
    for heading in re.findall(r"^### .+$", md, flags=re.MULTILINE):
        confidences = re.findall(r"^#### C\d+\. .+ \((high|medium)\)$", section(md, heading), flags=re.MULTILINE)
        assert confidences == sorted(confidences, key=["high", "medium"].index)
    # Every finding shows the six parts of the audit method (or the message, for checkers without details).
    registry = section(md, "### Diffusion serving (`docs/design/module/diffusion.md`)")
    for part in ("**Surface**", "**Evidence**", "**Simplification**", "**Benefit**", "**Risk and validation**", "**Confidence**"):
        assert part in registry
    assert "Validation for every finding below: `tests/test_pipelines.py` (the contract's validation paths)." in registry


def test_top_candidates_are_ranked_by_benefit_high_first(reports: dict[str, Any]) -> None:
    """At most five; high before medium; by score; the hot round trip of a decode step outranks the same
    kind of waste in `__init__` and every no-op."""
    data = reports["json"]
    top = data["top_candidates"]
    assert 1 <= len(top) <= 5 and all(set(entry) == ENTRY_KEYS for entry in top)
    assert [e["confidence"] for e in top] == sorted((e["confidence"] for e in top), key=["high", "medium"].index)
    # Lost features come first among the high ones (a decision hides behind them), then the score decides.
    lost = [e for e in top if candidate(data, e["findings"][0]["path"], e["findings"][0]["line"])["kind"] == "lost-feature"]
    assert lost == top[:len(lost)] and len(lost) == 2
    rest = top[len(lost):]
    assert [e["score"] for e in rest] == sorted((e["score"] for e in rest), reverse=True)
    hot = next(e for e in top if e["findings"][0]["path"] == "tinyomni/model_executor/decode_step.py")
    assert hot["findings"] == [{"symbol": "redundant-tensor-materialization",
                                "path": "tinyomni/model_executor/decode_step.py", "line": 17}]
    assert hot["heat"] == "hot"
    cold = candidate(data, "tinyomni/model_executor/decode_step.py", 11)
    assert cold["heat"] == "cold" and cold["heat_reason"] == "in DecodeStep.__init__()"
    through = candidate(data, "tinyomni/model_executor/decode_step.py", 22)  # a helper forward() calls
    assert through["heat"] == "hot" and through["heat_reason"].startswith("called from DecodeStep.forward()")
    assert cold["score"] < top[-1]["score"]
    table = section(reports["md"], "## Top candidates")
    assert table.index("| C") < table.index("decode_step.py:17") and "hot (in DecodeStep.forward())" in table
    numbers = [e["number"] for e in top]
    for number in numbers:  # every top row points at a full entry
        assert f"#### {number}. " in reports["md"]


def test_micro_findings_are_bundled_and_small_mediums_are_compact(reports: dict[str, Any]) -> None:
    data = reports["json"]
    bundles = [e for e in data["ranking"] if e["title"]]
    no_ops = next(e for e in bundles if "no-op `.to()` calls" in e["title"])
    # three sibling lines are one finding (×3), plus the single one at line 40
    assert no_ops["title"] == "4 no-op `.to()` calls of `OutputProcessor` in `tinyomni/worker/output_processor.py`: lines 33 (×3), 40"
    assert {f["line"] for f in no_ops["findings"]} == {33, 40}
    assert f"#### {no_ops['number']}. {no_ops['title']} (high)" in reports["md"]
    compact = [e for e in data["ranking"] if e["compact"]]
    assert compact and all(e["confidence"] == "medium" for e in compact)
    assert "Smaller medium candidates (score below 8" in reports["md"]
    for entry in compact:
        assert f"| {entry['number']} | " in reports["md"] and f"#### {entry['number']}. " not in reports["md"]


def test_benefit_heat_and_proof_reach_json_and_sarif(reports: dict[str, Any]) -> None:
    round_trip = candidate(reports["json"], "tinyomni/model_executor/decode_step.py", 17)
    assert (round_trip["benefit_kind"], round_trip["heat"], round_trip["micro"]) == ("transfers", "hot", False)
    assert "feeds `torch.tensor`" in round_trip["proof"] and "cost:" in round_trip["proof"]
    unread = candidate(reports["json"], "tinyomni/engine/state_request.py", 36)
    assert unread["benefit_kind"] == "state" and "written at run time in poll" in unread["benefit"]
    results = reports["sarif"]["runs"][0]["results"]
    sarif = next(r for r in results if r["locations"][0]["physicalLocation"]["region"]["startLine"] == 17
                 and r["ruleId"] == "redundant-tensor-materialization")
    assert {"benefit", "benefitLines", "benefitKind", "heat", "heatReason", "micro", "score", "proof"} <= set(sarif["properties"])
    assert sarif["properties"]["heat"] == "hot"


def test_messages_are_short(reports: dict[str, Any]) -> None:
    lengths = sorted(len(c["message"]) for c in reports["json"]["candidates"])
    assert lengths[len(lengths) // 2] <= 250 and lengths[-1] <= 300, lengths


def test_summary_counts_per_message_and_owner(reports: dict[str, Any]) -> None:
    data = reports["json"]
    candidates = data["candidates"]
    for symbol, row in data["summary"]["by_message"].items():
        assert row["high"] == sum(c["symbol"] == symbol and c["confidence"] == "high" for c in candidates)
        assert f"| `{symbol}` | {row['high']} | {row['medium']} | {row['rejected']} |" in reports["md"]
    assert data["summary"]["candidates"] == len(candidates) == data["summary"]["high"] + data["summary"]["medium"]
    assert "| Diffusion serving (`docs/design/module/diffusion.md`) | 2 | 2 |" in reports["md"]  # its two copies are one change


def test_design_contracts_own_the_planted_candidates(reports: dict[str, Any]) -> None:
    data = reports["json"]
    video = candidate(data, "tinyomni/diffusion/pipelines/video.py", 6)
    assert (video["owner_path"], video["validation"]) == ("docs/design/module/diffusion.md", ["tests/test_pipelines.py"])
    envs = candidate(data, "tinyomni/envs.py", 9)
    assert (envs["owner_path"], envs["validation"]) == ("docs/design/module/runtime.md", ["tests/test_runtime_env.py"])
    # The archived page also claims attention/**: the active runtime page owns it.
    assert candidate(data, "tinyomni/attention/backends.py", 11)["owner_path"] == "docs/design/module/runtime.md"
    # hooks.py is an exception of the diffusion page's primary paths and a related path of the runtime page.
    assert candidate(data, "tinyomni/diffusion/hooks.py", 16)["owner_path"] == "docs/design/module/runtime.md"
    # worker/** is related to the connectors page.
    assert candidate(data, "tinyomni/worker/output_processor.py")["owner_path"] == "docs/design/module/connectors.md"
    unowned = candidate(data, "tinyomni/model_executor/models/registry.py", 7)
    assert (unowned["owner"], unowned["group"], unowned["validation"]) == (None, "package tinyomni/model_executor", [])
    md = reports["md"]
    assert "`tinyomni/diffusion/pipelines/video.py:6`" in section(md, "### Diffusion serving (`docs/design/module/diffusion.md`)")
    assert "`tinyomni/envs.py:9`" in section(md, "### Runtime and hardware (`docs/design/module/runtime.md`)")
    assert "### package `tinyomni/model_executor` (no design contract)" in md


def test_rejected_ideas_name_the_reason_and_the_consumer(reports: dict[str, Any]) -> None:
    rejected = {(r["path"], r["line"]): r for r in reports["json"]["rejected"]}
    mooncake = rejected[("tinyomni/connectors/factory.py", 22)]
    assert mooncake["status"] == "rejected" and mooncake["confidence"] is None
    assert "entry-point:tinyomni.plugins" in mooncake["reason"]
    assert mooncake["saved_by"][0] == "pyproject.toml:20 (entry-point:tinyomni.plugins)"
    assert "docs/connectors.md:7" in rejected[("tinyomni/connectors/factory.py", 25)]["reason"]
    assert "comment" in rejected[("tinyomni/worker/output_processor.py", 96)]["reason"]
    rejected_md = reports["md"][reports["md"].index("## Rejected ideas"):]
    assert "| `tinyomni/connectors/factory.py:22` | `ConnectorFactory.register_connector['MooncakeConnector'] (register-call)` | loaded by name: " in rejected_md
    # Rejected ideas are never candidates.
    assert not {(c["path"], c["line"]) for c in reports["json"]["candidates"]} & set(rejected)


def test_json_keys_are_stable(reports: dict[str, Any]) -> None:
    data = reports["json"]
    assert set(data) == TOP_KEYS and data["format"] == "pylint-omni-audit/1"
    assert set(data["tool"]) == {"name", "version", "pylint", "astroid", "python"}
    assert set(data["audit_base"]) == {"method", "commit", "ref", "note"}
    assert {"files_by_kind", "modules_linted", "definitions", "registries", "searched"} <= set(data["scanned"])
    for finding in [*data["candidates"], *data["rejected"]]:
        assert set(finding) == FINDING_KEYS
        assert set(finding["evidence"]) == {"production", "validation", "external/dynamic"}
    detailed = candidate(data, "tinyomni/envs.py", 9)
    assert detailed["details"] and detailed["simplification"].startswith("Remove the entry")
    # Every checker gives the report its surface, simplification, benefit and risk.
    missing = [f"{c['symbol']} {c['path']}:{c['line']}" for c in data["candidates"]
               if not all(c[key] for key in ("surface", "simplification", "benefit", "risk"))]
    assert not missing, missing


def test_sarif_validates_against_the_2_1_0_schema(reports: dict[str, Any]) -> None:
    sarif = reports["sarif"]
    schema = json.loads(SARIF_SCHEMA.read_text())
    jsonschema.Draft4Validator(schema).validate(sarif)
    run = sarif["runs"][0]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert set(OMNI_SYMBOLS) <= set(rules)
    readme = (CATALOGUE / "unused-registry-entry" / "README.md").read_text()
    assert rules["unused-registry-entry"]["help"]["markdown"] == readme
    by_place = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                 r["locations"][0]["physicalLocation"]["region"]["startLine"]): r for r in run["results"]}
    envs = by_place[("tinyomni/envs.py", 9)]
    assert (envs["kind"], envs["level"], envs["properties"]["confidence"], envs["properties"]["status"]) == (
        "fail", "warning", "high", "candidate")
    assert by_place[("tinyomni/sampling.py", 19)]["properties"]["status"] == "rejected"
    assert run["tool"]["driver"]["rules"][envs["ruleIndex"]]["id"] == "unused-registry-entry"


def test_findings_folder_is_removed_after_the_run(reports: dict[str, Any]) -> None:
    assert not list((reports["tmp"] / "tmpdir").glob("pylint-omni-findings-*"))


def test_parallel_jobs_give_the_same_report(reports: dict[str, Any], tmp_path: Path) -> None:
    target = tmp_path / "audit.json"
    proc = pylint(["-j", "2", f"--output-format=omni-json:{target}", "tinyomni"], SAMPLE_REPO, tmp_path)
    assert proc.returncode & 32 == 0, proc.stderr
    parallel = json.loads(target.read_text())
    # Workers wrote the records: the details are there, not only the message text.
    assert candidate(parallel, "tinyomni/envs.py", 9)["details"]
    for key in ("candidates", "rejected", "summary", "not_run"):
        assert parallel[key] == reports["json"][key]


def test_pragma_keeps_a_finding_out_of_the_report(tmp_path: Path) -> None:
    project = tmp_path / "sample_repo"
    shutil.copytree(SAMPLE_REPO, project)
    for relpath, line in (("tinyomni/envs.py", 9), ("tinyomni/sampling.py", 19)):
        lines = (project / relpath).read_text().splitlines()
        lines[line - 1] += "  # pylint: disable=unused-registry-entry"
        (project / relpath).write_text("\n".join(lines) + "\n")
    proc = pylint(["--output-format=omni-json", "tinyomni"], project, tmp_path)
    data = json.loads(proc.stdout)
    places = {(f["path"], f["line"]) for f in [*data["candidates"], *data["rejected"]]}
    assert ("tinyomni/envs.py", 9) not in places  # a candidate
    assert ("tinyomni/sampling.py", 19) not in places  # a rejected idea
    assert ("tinyomni/attention/backends.py", 11) in places


def test_malformed_front_matter_is_reported_in_the_header(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "docs" / "design").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")
    (project / "pkg" / "__init__.py").write_text('"""A package."""\n\nHANDLERS = {"old": "pkg.legacy.Handler"}\n')
    (project / "docs" / "design" / "broken.md").write_text("---\ntitle: [unclosed\nprimary_code_paths: pkg/**\n---\n\n# Broken\n")
    proc = pylint(["--output-format=omni-report", "pkg"], project, tmp_path)
    assert proc.returncode & (1 | 32) == 0, proc.stderr
    header = proc.stdout[: proc.stdout.index("## Summary")]
    assert re.search(r"`docs/design/broken\.md`: design contract front matter: malformed front matter at line \d+", header)
    assert "no active page names code paths" in header


def test_audit_base_says_which_commit_and_why(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    inside_git = subprocess.run(["git", "-C", str(plain), "rev-parse"], capture_output=True, check=False).returncode == 0
    if not inside_git:
        assert audit_base(plain)["method"] == "none"
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    (repo / "a.py").write_text("A = 1\n")
    subprocess.run([*git, "add", "a.py"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "one"], check=True)
    base = audit_base(repo)
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    assert (base["method"], base["commit"]) == ("head", head)
    assert "merge-base HEAD origin/main" in base["note"]


def test_findings_without_records_are_listed_from_their_messages(reports: dict[str, Any], tmp_path: Path) -> None:
    """A checker that writes no record (here: no writable findings folder) still has its findings listed."""
    target = tmp_path / "audit.md"
    command = [sys.executable, "-m", "pylint", "--load-plugins=pylint_omni", "--disable=all", "--enable=pylint-omni",
               "--persistent=n", f"--output-format=omni-json,omni-report:{target}", "tinyomni"]
    env = dict(os.environ, PYLINT_OMNI_CACHE_DIR=str(tmp_path / "cache"), PYLINT_OMNI_FINDINGS_DIR=str(tmp_path / "missing"))
    proc = subprocess.run(command, cwd=SAMPLE_REPO, capture_output=True, text=True, env=env, timeout=600, check=False)
    data = json.loads(proc.stdout)
    expected = [(c["path"], c["line"], c["symbol"], c["confidence"]) for c in reports["json"]["candidates"]]
    assert sorted((c["path"], c["line"], c["symbol"], c["confidence"]) for c in data["candidates"]) == sorted(expected)
    assert all(c["evidence"] is None and not c["details"] for c in data["candidates"])
    first_group = section(target.read_text(), "#### C1.")
    assert "- **Finding**: " in first_group and "- **Evidence**: " in first_group
    assert "**Simplification**" not in first_group  # not invented when the checker gave none
