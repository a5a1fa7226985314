"""Lint the real catalogs: findings per rule, and time per 1,000 tools against a baseline.

Corpora (from ../shared/data): the pooled BFCL function docs (3,258 distinct), the
LiveMCPBench servers (527 tools) and the Docker MCP registry tools files (755 tools).
Catalogs are read once; the timed part is the rules alone. The baseline, measured in the
same run on the same entries, is what a plain check does: validate each input schema
against its JSON Schema metaschema (jsonschema-rs). Times are the best of several rounds.

Run: python benchmarks/lint_corpus.py [--data DIR] [--rounds N]
Writes benchmarks/results/lint_corpus.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema_rs

from callgate.lint import RULES, LoadedCatalog, Severity, lint, load_catalog, merge_catalogs

HERE = Path(__file__).resolve().parent


def data_dir(arg: str | None) -> Path:
    configured = arg or os.environ.get("CALLGATE_DATA")
    path = Path(configured) if configured else HERE.parent.parent / "shared" / "data"
    if not path.is_dir():
        sys.exit(f"data folder not found: {path} (pass --data or set CALLGATE_DATA)")
    return path


def corpora(data: Path) -> dict[str, LoadedCatalog]:
    bfcl = sorted((data / "bfcl").glob("BFCL_v4_*.json"))
    return {
        "bfcl": merge_catalogs([load_catalog(p) for p in bfcl], dedupe=True),
        "livemcpbench": load_catalog(data / "mcp-tools" / "livemcpbench-tools.json"),
        "docker-mcp-registry": load_catalog(data / "mcp-tools" / "docker-mcp-registry"),
    }


def metaschema_only(catalog: LoadedCatalog) -> int:
    """The baseline: metaschema validity of every input schema, nothing else."""
    return sum(not jsonschema_rs.meta.is_valid(_offline(e.input_schema)) for e in catalog)


def _offline(schema: Any) -> dict[str, Any]:
    # an unknown $schema would be fetched; the baseline must stay offline like lint
    declared = schema.get("$schema")
    known = ("draft-04", "draft-06", "draft-07", "2019-09", "2020-12")
    if isinstance(declared, str) and not any(k in declared for k in known):
        return {k: v for k, v in schema.items() if k != "$schema"}
    return dict(schema)


def best_of(rounds: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def measure(name: str, catalog: LoadedCatalog, rounds: int) -> dict[str, Any]:
    report = lint(catalog)
    lint_s = best_of(rounds, lambda: lint(catalog))
    base_s = best_of(rounds, lambda: metaschema_only(catalog))
    tools = report.tools
    per_rule = report.by_rule()
    return {
        "tools": tools,
        "findings": len(report.active),
        "tools_with_finding": {
            s.label: len(report.tools_with(s))
            for s in (Severity.HIGH, Severity.MEDIUM, Severity.LOW)
        },
        "by_rule": {
            r: {
                "name": RULES[r].name,
                "severity": RULES[r].severity.label,
                "findings": n,
                "tools": len(
                    {(f.location.group, f.location.tool) for f in report.active if f.rule == r}
                ),
            }
            for r, n in per_rule.items()
        },
        "metaschema_invalid_baseline": metaschema_only(catalog),
        "ms_per_1000_tools": {
            "lint": round(lint_s / tools * 1e6, 1),
            "metaschema_baseline": round(base_s / tools * 1e6, 1),
        },
        "ratio_vs_baseline": round(lint_s / base_s, 1) if base_s else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", help="evaluation data folder (default ../shared/data)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
        },
        "rounds": args.rounds,
        "baseline": "jsonschema_rs.meta.is_valid on every input schema",
        "corpora": {},
    }
    for name, catalog in corpora(data_dir(args.data)).items():
        results["corpora"][name] = row = measure(name, catalog, args.rounds)
        print(
            f"{name}: {row['tools']} tools, {row['findings']} findings, "
            f"{row['ms_per_1000_tools']['lint']} ms per 1,000 tools "
            f"({row['ratio_vs_baseline']}x the metaschema-only check)"
        )
    out = HERE / "results" / "lint_corpus.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
