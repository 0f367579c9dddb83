"""End to end on sample_repo/: the exact findings per message are pinned in tests/expected/.

To accept a deliberate change in findings, run
`python tests/test_sample_repo.py --update [--only SYMBOL]` and review the diff of
tests/expected/.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from conftest import OMNI_SYMBOLS, SAMPLE_REPO, Finding, enable_args, run_pylint  # noqa: E402

EXPECTED = Path(__file__).parent / "expected" / "sample_repo"


def render(findings: list[Finding], symbol: str) -> str:
    rows = [f"{f.path}:{f.line}:{f.confidence}" for f in findings if f.symbol == symbol]
    return "".join(row + "\n" for row in rows)


def lint_sample(extra: list[str] | None = None, cache: Path | None = None) -> list[Finding]:
    code, findings, stderr = run_pylint([*enable_args(), *(extra or []), "tinyomni"], cwd=SAMPLE_REPO, cache_dir=cache)
    assert "Traceback" not in stderr, stderr
    assert code & 1 == 0 and code & 32 == 0, f"pylint fatal/usage error {code}: {stderr}"
    return findings


@pytest.fixture(scope="module")
def sample_findings(tmp_path_factory: pytest.TempPathFactory) -> list[Finding]:
    return lint_sample(cache=tmp_path_factory.mktemp("cache"))


@pytest.mark.parametrize("symbol", OMNI_SYMBOLS)
def test_findings_match_expected(sample_findings: list[Finding], symbol: str) -> None:
    expected_file = EXPECTED / f"{symbol}.txt"
    expected = expected_file.read_text() if expected_file.exists() else ""
    assert render(sample_findings, symbol) == expected


def test_every_message_has_a_planted_candidate(sample_findings: list[Finding]) -> None:
    reported = {f.symbol for f in sample_findings}
    pinned = {p.stem for p in EXPECTED.glob("*.txt") if p.read_text().strip()}
    assert pinned <= reported
    assert "unused-registry-entry" in reported


if __name__ == "__main__" and "--update" in sys.argv:
    import tempfile

    findings = lint_sample(cache=Path(tempfile.mkdtemp()))
    EXPECTED.mkdir(parents=True, exist_ok=True)
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    for symbol in OMNI_SYMBOLS:
        if only and symbol != only:
            continue
        text = render(findings, symbol)
        target = EXPECTED / f"{symbol}.txt"
        if text or target.exists():
            target.write_text(text)
            print(f"{target.relative_to(Path.cwd()) if target.is_relative_to(Path.cwd()) else target}: {text.count(chr(10))} findings")
