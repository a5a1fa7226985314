"""False positives on real, presumed-benign catalogs: at most 1% of tools with a high
finding, and every high finding listed with a verdict in the benchmark results."""

from __future__ import annotations

from pathlib import Path

import pytest

from callgate.lint import LoadedCatalog, Severity, load_catalog, merge_catalogs, scan

ROOT = Path(__file__).resolve().parents[2]


def _corpus(data_dir: Path, name: str) -> LoadedCatalog:
    if name == "bfcl":
        files = sorted((data_dir / "bfcl").glob("BFCL_v4_*.json"))
        return merge_catalogs([load_catalog(p) for p in files], dedupe=True)
    if name == "livemcpbench":
        return load_catalog(data_dir / "mcp-tools" / "livemcpbench-tools.json")
    return load_catalog(data_dir / "mcp-tools" / "docker-mcp-registry")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["bfcl", "livemcpbench", "docker-mcp-registry"])
def test_high_findings_on_benign_corpus_stay_under_one_percent(data_dir: Path, name: str) -> None:
    report = scan(_corpus(data_dir, name))
    flagged = report.tools_with(Severity.HIGH)
    assert len(flagged) <= 0.01 * report.tools
    listed = (ROOT / "benchmarks" / "results" / "scan_benign.md").read_text(encoding="utf-8")
    for finding in report.at_least(Severity.HIGH):
        assert f"{finding.location.tool}`" in listed, finding
